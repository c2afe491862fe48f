// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import SyncConfig

extension DeviceConfig {
    /// The FTP session settings of this device — the one place they are made from a device's
    /// configuration: host, port, user and password (`anonymous@` when none), the passive
    /// address policy and PASV/EPSV, `LIST -a` (`hidden`), the NOOPs during transfers (`keepalive`), the probe for `HASH` (`verify`), the proxy (`proxy`), the timeout in seconds, the name encoding (nil for UTF-8),
    /// the TLS mode (`tls`, RFC 4217) and the certificate check (`insecure` wins over
    /// `fingerprint`, which wins over the system CA store).
    public var sessionConfiguration: FTPSessionConfiguration {
        var configuration = FTPSessionConfiguration(
            host: host, port: port, user: user, password: password ?? "anonymous@",
            passiveAddress: passiveAddress == .server ? .server : .peer, timeout: timeout,
            encoding: ["utf-8", "utf8"].contains(encoding) ? nil : encoding,
            tls: ftpTLSMode, certificateCheck: certificateCheck)
        configuration.passive = passive
        configuration.listsHidden = hidden
        configuration.keepaliveSeconds = Double(keepalive)
        configuration.probesHash = verify != .off
        configuration.proxy = ftpProxy
        return configuration
    }

    /// The client's proxy for this device's `proxy` key; nil for a direct connection.
    public var ftpProxy: FTPProxy? {
        guard let proxy else { return nil }
        let kind: FTPProxy.Kind
        switch proxy.scheme {
        case .socks5: kind = .socks5
        case .socks5h: kind = .socks5h
        case .http: kind = .http
        }
        return FTPProxy(kind: kind, host: proxy.host, port: proxy.port, user: proxy.user, password: proxy.password)
    }

    /// The client's TLS mode for this device's `tls` key.
    public var ftpTLSMode: FTPTLSMode {
        switch tls {
        case .none: return .none
        case .explicit: return .explicit
        case .implicit: return .implicit
        }
    }

    /// How this device's certificate is checked.
    public var certificateCheck: CertificateCheck {
        if insecure { return .insecure }
        if let fingerprint { return .pinned(sha256: fingerprint) }
        return .system
    }

    /// The warning to show before every run for a device with `insecure: true` and TLS on
    /// (one line, starting `ftpsync: warning:`); nil otherwise.
    public var insecureWarning: String? {
        guard insecure, tls != .none else { return nil }
        return "ftpsync: warning: device \(name): `insecure: true`: the server's certificate is NOT verified; "
            + "anyone between here and \(host) could read the password and files. "
            + "Pin the certificate with `fingerprint:` instead (`ftpsync check` shows it)"
    }

    /// True when no password is configured (neither `password`, `password_env` nor a `~/.netrc`
    /// entry) for a user other than `anonymous` or `ftp`.
    public var lacksPassword: Bool {
        password == nil && !["anonymous", "ftp"].contains(user.lowercased())
    }

    /// `error` of a connection attempt, as a `NoPasswordError` when it is a refused login
    /// (530 after USER or PASS, RFC 959 §4.2) of a device that `lacksPassword`; unchanged otherwise.
    public func explainingLogin(_ error: Error) -> Error {
        guard lacksPassword, let ftp = error as? FTPError, case .reply(530, let text, let command) = ftp,
            command.hasPrefix("USER") || command.hasPrefix("PASS"), !ftp.isConnectionLimit
        else { return error }
        return NoPasswordError(user: user, refusal: "530 \(text)")
    }
}
