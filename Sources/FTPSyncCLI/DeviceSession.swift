import FTPClient
import SyncConfig

/// A device setting this build cannot honour; the device is not contacted at all.
struct UnsupportedSetting: Error, CustomStringConvertible {
    var description: String
}

extension DeviceConfig {
    /// The FTP session settings of this device.
    /// - Throws: `UnsupportedSetting` when the device asks for FTPS (`tls: explicit` or
    ///   `implicit`): this build has no TLS yet, and connecting in plain FTP instead would send
    ///   the password in clear text to a server the user meant to reach encrypted.
    var sessionConfiguration: FTPSessionConfiguration {
        get throws {
            guard tls == .none else {
                throw UnsupportedSetting(
                    description: "tls: \(tls.rawValue) is not supported by this build yet; not connecting, so the "
                        + "password is never sent in clear text (use tls: none only on a network you trust)")
            }
            return FTPSessionConfiguration(
                host: host, port: port, user: user, password: password ?? "anonymous@",
                passiveAddress: passiveAddress == .server ? .server : .peer, timeout: timeout,
                encoding: ["utf-8", "utf8"].contains(encoding) ? nil : encoding)
        }
    }
}
