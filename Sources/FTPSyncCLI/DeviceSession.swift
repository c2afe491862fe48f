import FTPClient
import SyncConfig

extension DeviceConfig {
    /// The FTP session settings of this device.
    var sessionConfiguration: FTPSessionConfiguration {
        FTPSessionConfiguration(
            host: host, port: port, user: user, password: password ?? "anonymous@",
            passiveAddress: passiveAddress == .server ? .server : .peer, timeout: timeout,
            encoding: ["utf-8", "utf8"].contains(encoding) ? nil : encoding)
    }
}
