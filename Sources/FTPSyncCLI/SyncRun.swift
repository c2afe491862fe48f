import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncRunner

/// The command line's adapter to the library's runner for `pull` and `push`: the arguments
/// become `RunOptions`, a `SyncRunner` runs them (its cancellation token cancelled by SIGINT and
/// SIGTERM), and its result becomes the output and the exit code.
struct SyncRun {
    let direction: SyncDirection
    let arguments: ParsedArguments
    let console: Console

    private var command: String { direction.rawValue }

    /// Parses the command line of `pull` or `push` (the same options, at most one CONFIG).
    /// - Throws: `UsageError` for an unknown option, a bad value or a second positional.
    init(direction: SyncDirection, arguments: [String], console: Console) throws {
        let parsed = try ArgumentParser.parseWithConfig(
            arguments, specs: PullCommand.options, command: direction.rawValue)
        self.init(direction: direction, arguments: parsed, console: console)
    }

    init(direction: SyncDirection, arguments: ParsedArguments, console: Console) {
        self.direction = direction
        self.arguments = arguments
        self.console = console
    }

    /// When the run began: the `started` of its JSON document.
    let started = Date()

    /// With `--json`: the document of a run that stopped before any device (exit 2 or 3).
    private func stopped(_ message: String, code: ExitCode) {
        guard arguments.has("json") else { return }
        let document = RunDocument(
            command: command, dryRun: arguments.has("dry-run"), devices: [], error: message, started: started,
            exitCode: code.rawValue)
        console.json(jsonText(document))
    }

    /// A configuration the run cannot start with: its message, in the log and the document; exit 2.
    private func stopped(_ error: ConfigError, log: LogFile?) -> ExitCode {
        console.error(error.description)
        log?.write("\(command): " + error.description)
        stopped(error.description, code: .usage)
        return .usage
    }

    /// Runs the devices and prints the report.
    /// - Throws: `UsageError` for a bad option value; `StoreError`, `LocalFileError` when the
    ///   state or the log cannot be opened.
    func run() throws -> ExitCode {
        let log = try arguments.value("log").map { try LogFile(path: $0, filter: console.filter) }
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(arguments.positionals.first, environment: environment)
        let options = try runOptions(arguments, direction: direction, environment: environment)
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: configPath, environment: environment, console: console)
        } catch {
            return stopped(error, log: log)
        }
        let cancellation = CancellationToken()
        SignalHandling.cancelOnSignal(cancellation)
        let progress = RunProgress(arguments: arguments, command: command, console: console, log: log)
        var commandLog: (@Sendable (String, String) -> Void)?
        if arguments.has("verbose") {
            commandLog = { [console] device, line in console.error(device + ": " + line) }
        }
        let runner: SyncRunner
        let result: RunResult
        do {
            runner = try SyncRunner(
                configuration: configuration, options: options, cancellation: cancellation,
                events: progress.handler, commandLog: commandLog)
            warnAboutInsecureDevices(runner.devices, console: console)
            result = try runner.run()
        } catch {
            progress.finish()
            if let error = error as? UnknownDeviceError { throw UsageError(error.description) }
            if let error = error as? ConfigError { return stopped(error, log: log) }
            throw error
        }
        progress.finish()
        switch result {
        case .locked(let held):
            console.error("ftpsync: \(held)")
            log?.write(held.description)
            stopped(held.description, code: .locked)
            return .locked
        case .finished(let reports):
            return finishRun(
                command: command, arguments: arguments, dryRun: options.dryRun, reports: reports, started: started,
                console: console, log: log, actionsLogged: progress.logsActions,
                actionsPrinted: progress.printsActions)
        }
    }
}

/// The options of `pull` and `push` as the runner takes them: direction, `--dry-run`,
/// `--device`, `--jobs`, `--delete`, `--max-delete N` (-1 = no limit), `--on-conflict`,
/// `--parallel`, `--accept-new-identity`; the listing caps from `FTPSYNC_LISTING_LIMITS` (tests).
/// - Throws: `UsageError` when `--max-delete` is not a whole number ≥ -1, `--parallel` not ≥ 1,
///   `--jobs` not in 1...256 or `--on-conflict` not a policy.
func runOptions(_ arguments: ParsedArguments, direction: SyncDirection, environment: [String: String] = [:])
    throws -> RunOptions
{
    var options = RunOptions(
        direction: direction, dryRun: arguments.has("dry-run"), devices: arguments.all("device"),
        jobs: try FleetOptions.jobs(arguments), deleteExtraneous: arguments.has("delete"),
        onConflict: try conflictPolicy(arguments), acceptNewIdentity: arguments.has("accept-new-identity"))
    if let text = arguments.value("max-delete") {
        guard let value = Int(text), value >= -1 else {
            throw UsageError("--max-delete needs a whole number of files, or -1 for no limit; got '\(text)'")
        }
        options.maxDelete = value == -1 ? nil : value
    }
    if let text = arguments.value("parallel") {
        guard let value = Int(text), value >= 1 else {
            throw UsageError("--parallel needs a number of connections of at least 1; got '\(text)'")
        }
        options.connections = value
    }
    let limits = ListingBudget.Limits.fromEnvironment(environment)
    options.deviceListingLimits = limits.device
    options.runListingLimits = limits.run
    return options
}

/// `--on-conflict` when given, else nil (the device's `on_conflict`, else the command's default).
/// - Throws: `UsageError` naming the valid values when the value is not one of them.
func conflictPolicy(_ arguments: ParsedArguments) throws -> ConflictPolicy? {
    guard let text = arguments.value("on-conflict") else { return nil }
    guard let policy = ConflictPolicy(rawValue: text.lowercased()) else {
        let valid = ConflictPolicy.allCases.map(\.rawValue).joined(separator: ", ")
        throw UsageError("--on-conflict needs one of \(valid); got '\(text)'")
    }
    return policy
}
