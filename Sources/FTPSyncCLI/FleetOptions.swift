import SyncConfig
import SyncEngine

/// The options of `pull` and `push` that shape a run over many devices: how many devices run
/// at once (`--jobs`), how many control connections each device may use (`--parallel`,
/// overriding the configuration's `connections`), and whether a changed server identity is
/// accepted (`--accept-new-identity`).
enum FleetOptions {
    /// The option specifications added to those of `pull` and `push`.
    static let specs: [OptionSpec] = [
        OptionSpec(
            names: ["--jobs", "-j"], key: "jobs", takesValue: true, valueName: "N",
            help: "devices run at the same time, each on its own threads and connections; default 4"),
        OptionSpec(
            names: ["--accept-new-identity"], key: "accept-new-identity", takesValue: false,
            help: "a device whose server answers with another identity than last time: take the new one"),
    ]

    /// Devices run at once when `--jobs` is not given.
    static let defaultJobs = 4

    /// The number of devices run at the same time: `--jobs N` (1...256), default 4.
    /// - Throws: `UsageError` when the value is not a whole number from 1 to 256.
    static func jobs(_ arguments: ParsedArguments) throws -> Int {
        guard let text = arguments.value("jobs") else { return defaultJobs }
        guard let value = Int(text), (1...256).contains(value) else {
            throw UsageError("--jobs needs a number of devices from 1 to 256; got '\(text)'")
        }
        return value
    }

    /// Control connections one device may use: `--parallel N` when given (validated by
    /// `syncPolicy`), else the device's `connections` (default 2); at least 1.
    static func connections(_ arguments: ParsedArguments, device: DeviceConfig) -> Int {
        if let text = arguments.value("parallel"), let value = Int(text), value >= 1 { return value }
        return max(1, device.connections)
    }

    /// True when the new identity of `device`'s server is to be recorded instead of refused.
    static func acceptsNewIdentity(_ arguments: ParsedArguments, device: DeviceConfig) -> Bool {
        arguments.has("accept-new-identity") || device.acceptNewIdentity
    }

    /// Applies the fleet options to one device's job.
    static func configure(_ job: inout DeviceJob, arguments: ParsedArguments, device: DeviceConfig) {
        job.connections = connections(arguments, device: device)
        job.acceptNewIdentity = acceptsNewIdentity(arguments, device: device)
        job.host = device.host.contains(":") ? "[\(device.host)]:\(device.port)" : "\(device.host):\(device.port)"
    }
}
