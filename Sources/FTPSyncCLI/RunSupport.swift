import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore

/// Direction, `--delete` and `--max-delete N` (default 50, -1 = no limit) from the command line.
/// - Throws: `UsageError` when `--max-delete` is not a whole number ≥ -1, or `--parallel` not ≥ 1.
func syncPolicy(_ arguments: ParsedArguments, direction: SyncDirection) throws -> SyncPolicy {
    var limit: Int? = 50
    if let text = arguments.value("max-delete") {
        guard let value = Int(text), value >= -1 else {
            throw UsageError("--max-delete needs a whole number of files, or -1 for no limit; got '\(text)'")
        }
        limit = value == -1 ? nil : value
    }
    if let text = arguments.value("parallel"), (Int(text) ?? 0) < 1 {
        throw UsageError("--parallel needs a number of connections of at least 1; got '\(text)'")
    }
    return SyncPolicy(
        direction: direction, deleteExtraneous: arguments.has("delete"), maxDelete: limit,
        onConflict: try conflictPolicy(arguments))
}

/// Takes the run lock and opens the state; a dry run takes no lock and creates nothing.
/// - Returns: nil when another run holds the lock (reported on stderr).
func openState(_ configuration: Configuration, dryRun: Bool, console: Console, log: LogFile?) throws -> (
    RunLock?, StateStore?
)? {
    if dryRun {
        let file = configuration.localRoot + "/.ftpsync/state.sqlite"
        return (nil, FileManager.default.fileExists(atPath: file) ? try StateStore(file: file) : nil)
    }
    let lock: RunLock
    do {
        lock = try RunLock.acquire(localRoot: configuration.localRoot)
    } catch {
        guard case .held(_, let pid) = error else { throw error }
        let holder = pid.map { " (pid \($0))" } ?? ""
        let message = "another ftpsync run\(holder) holds the lock on \(configuration.localRoot); nothing was done"
        console.error("ftpsync: " + message)
        log?.write(message)
        return nil
    }
    return (lock, try StateStore.open(localRoot: configuration.localRoot))
}

/// Prints the report (JSON, text, or only the trouble with `-q`), writes the run to the log,
/// and returns the exit code of the run.
func finishRun(
    command: String, arguments: ParsedArguments, dryRun: Bool, reports: [DeviceReport], started: Date,
    console: Console, log: LogFile?, actionsLogged: Bool = false
) -> ExitCode {
    let document = RunDocument(command: command, dryRun: dryRun, devices: reports)
    let elapsed = Date().timeIntervalSince(started)
    let code = exitCode(for: reports)
    log?.write(document, elapsed: elapsed, exitCode: code, actionsLogged: actionsLogged)
    // Unsafe names are errors whatever the output mode (CONTRACT.md: skipped with an error line).
    for device in reports {
        for line in device.skipped {
            console.error("ftpsync: \(printable(device.name)): \(printable(line))")
            log?.write("\(device.name): \(line)")
        }
    }
    if arguments.has("json") {
        console.json(jsonText(document))
    } else if !arguments.has("quiet") {
        console.out(textReport(document, elapsed: elapsed))
    } else {
        quietReport(document, console: console)
    }
    return code
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
