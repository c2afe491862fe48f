import FTPClient
import SyncConfig

extension DeviceConfig {
    /// The FTP session settings of this device: TLS mode, and the certificate check
    /// (`insecure` wins over `fingerprint`, which wins over the system CA store).
    var sessionConfiguration: FTPSessionConfiguration {
        var configuration = FTPSessionConfiguration(
            host: host, port: port, user: user, password: password ?? "anonymous@",
            passiveAddress: passiveAddress == .server ? .server : .peer, timeout: timeout,
            encoding: ["utf-8", "utf8"].contains(encoding) ? nil : encoding,
            tls: ftpTLSMode, certificateCheck: certificateCheck)
        configuration.passive = passive
        return configuration
    }

    /// The client's TLS mode for this device's `tls` key.
    var ftpTLSMode: FTPTLSMode {
        switch tls {
        case .none: return .none
        case .explicit: return .explicit
        case .implicit: return .implicit
        }
    }

    /// How this device's certificate is checked.
    var certificateCheck: CertificateCheck {
        if insecure { return .insecure }
        if let fingerprint { return .pinned(sha256: fingerprint) }
        return .system
    }

    /// The warning every run prints for a device with `insecure: true` and TLS on; nil otherwise.
    var insecureWarning: String? {
        guard insecure, tls != .none else { return nil }
        return "ftpsync: warning: device \(name): `insecure: true`: the server's certificate is NOT verified; "
            + "anyone between here and \(host) could read the password and files. "
            + "Pin the certificate with `fingerprint:` instead (`ftpsync check` shows it)"
    }
}

/// Prints the `insecure: true` warning of each device that has one (on standard error,
/// also with `--quiet`: it is about the safety of every run).
func warnAboutInsecureDevices(_ devices: [DeviceConfig], console: Console) {
    for device in devices {
        if let warning = device.insecureWarning { console.error(warning) }
    }
}

/// A login the server refused for a device that names no password anywhere: the fault is the
/// missing password, not a wrong one.
struct NoPasswordError: Error, CustomStringConvertible {
    /// The device's user name.
    let user: String
    /// The server's refusal, `CODE TEXT`.
    let refusal: String

    var description: String {
        "no password configured for user '\(user)' (tried: password, password_env, ~/.netrc); "
            + "the server refused the login: \(refusal)"
    }
}

extension DeviceConfig {
    /// True when no password is configured (neither `password`, `password_env` nor a `~/.netrc`
    /// entry) for a user other than `anonymous` or `ftp`.
    var lacksPassword: Bool {
        password == nil && !["anonymous", "ftp"].contains(user.lowercased())
    }

    /// `error` of a connection attempt, as a `NoPasswordError` when it is a refused login
    /// (530 after USER or PASS) of a device that `lacksPassword`; unchanged otherwise.
    func explainingLogin(_ error: Error) -> Error {
        guard lacksPassword, let ftp = error as? FTPError, case .reply(530, let text, let command) = ftp,
            command.hasPrefix("USER") || command.hasPrefix("PASS"), !ftp.isConnectionLimit
        else { return error }
        return NoPasswordError(user: user, refusal: "530 \(text)")
    }
}
