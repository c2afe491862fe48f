import SyncRunner

/// The options of `pull` and `push` that shape a run over many devices: how many devices run
/// at once (`--jobs`, also of `check`) and whether a changed server identity is accepted
/// (`--accept-new-identity`); `runOptions` passes them to the runner.
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

    /// The number of devices run at the same time: `--jobs N` (1...256), default 4.
    /// - Throws: `UsageError` when the value is not a whole number from 1 to 256.
    static func jobs(_ arguments: ParsedArguments) throws -> Int {
        guard let text = arguments.value("jobs") else { return RunOptions.defaultJobs }
        guard let value = Int(text), (1...RunOptions.maximumJobs).contains(value) else {
            throw UsageError("--jobs needs a number of devices from 1 to 256; got '\(text)'")
        }
        return value
    }
}
