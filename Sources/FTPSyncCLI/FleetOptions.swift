import SyncConfig
import SyncEngine

/// The options of `pull` and `push` that shape a run over many devices: how many devices run
/// at once (`--jobs`), how many control connections each device may use (`--parallel`,
/// overriding the configuration's `connections`), and whether a changed server identity is
/// accepted (`--accept-new-identity`).
enum FleetOptions {
    /// Control connections one device may use: `--parallel N` when given (at least 1, checked
    /// when parsed), else the device's `connections` (default 2); at least 1.
    static func connections(_ options: SyncOptions, device: DeviceConfig) -> Int {
        if let value = options.parallel { return max(1, value) }
        return max(1, device.connections)
    }

    /// True when the new identity of `device`'s server is to be recorded instead of refused.
    static func acceptsNewIdentity(_ options: SyncOptions, device: DeviceConfig) -> Bool {
        options.acceptNewIdentity || device.acceptNewIdentity
    }

    /// Applies the fleet options to one device's job.
    static func configure(_ job: inout DeviceJob, options: SyncOptions, device: DeviceConfig) {
        job.connections = connections(options, device: device)
        job.acceptNewIdentity = acceptsNewIdentity(options, device: device)
        job.host = device.host.contains(":") ? "[\(device.host)]:\(device.port)" : "\(device.host):\(device.port)"
    }
}
