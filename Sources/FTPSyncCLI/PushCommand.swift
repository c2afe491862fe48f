import FTPClient
import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore

/// `ftpsync push [CONFIG] [options]`: local tree → devices. Takes the options of pull.
struct PushCommand {
    static var help: String {
        Help.text(
            for: "push", options: PullCommand.options, usage: "ftpsync push [CONFIG] [options]",
            summary: """
                Copy <local>/<device> onto each device: new and changed files are uploaded under a
                temporary name and renamed into place (interrupted uploads resume), local moves become
                renames on the device, and a device file changed since the last sync is reported as a
                conflict, never overwritten. Several devices may share one local folder.
                """,
            example: "ftpsync push device.yaml --delete --dry-run")
    }

    let arguments: ParsedArguments
    let console: Console

    init(arguments: [String], console: Console) throws {
        self.arguments = try ArgumentParser.parse(arguments, specs: PullCommand.options)
        self.console = console
        if self.arguments.positionals.count > 1 {
            throw UsageError("push takes one CONFIG file, got: \(self.arguments.positionals.joined(separator: " "))")
        }
    }

    func run() throws -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(arguments.positionals.first, environment: environment)
        let policy = try syncPolicy(arguments, direction: .push)
        let configuration: Configuration
        do {
            configuration = try ConfigLoader.load(path: configPath, environment: environment)
        } catch {
            console.error(error.description)
            return .usage
        }
        let devices: [DeviceConfig]
        do {
            devices = try configuration.selectDevices(named: arguments.all("device"))
        } catch {
            throw UsageError(error.description)
        }
        let dryRun = arguments.has("dry-run")
        let started = Date()
        guard let opened = try openState(configuration, dryRun: dryRun, console: console) else { return .locked }
        let store = opened.1
        defer { _ = opened.0 }

        let verbose = arguments.has("verbose")
        let console = self.console
        let reports = DeviceRunner.runAll(devices, limit: 4) { device in
            PushCommand.push(
                device, configuration: configuration, store: store, policy: policy, dryRun: dryRun, verbose: verbose,
                console: console)
        }
        return finishRun(
            command: "push", arguments: arguments, dryRun: dryRun, reports: reports, started: started, console: console)
    }

    /// One device's push, on the calling thread.
    private static func push(
        _ device: DeviceConfig, configuration: Configuration, store: StateStore?, policy: SyncPolicy, dryRun: Bool,
        verbose: Bool, console: Console
    ) -> DeviceReport {
        let job = DeviceJob(
            name: device.name, remoteRoot: device.remote,
            paths: LocalPaths(treeRoot: configuration.localRoot, deviceRoot: device.localPath, device: device.name),
            excludes: device.exclude, timeZone: device.timezone, policy: policy, dryRun: dryRun)
        let name = device.name
        var log: (@Sendable (String) -> Void)?
        if verbose {
            log = { line in console.error(name + ": " + line) }
        }
        let engine = PushEngine(job: job, store: store) {
            try FTPRemote.connect(device.sessionConfiguration, timeZone: device.timezone, log: log)
        }
        return engine.run()
    }
}

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
    return SyncPolicy(direction: direction, deleteExtraneous: arguments.has("delete"), maxDelete: limit)
}

/// Takes the run lock and opens the state; a dry run takes no lock and creates nothing.
/// - Returns: nil when another run holds the lock (reported on stderr).
func openState(_ configuration: Configuration, dryRun: Bool, console: Console) throws -> (RunLock?, StateStore?)? {
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
        console.error(
            "ftpsync: another ftpsync run\(holder) holds the lock on \(configuration.localRoot); nothing was done")
        return nil
    }
    return (lock, try StateStore.open(localRoot: configuration.localRoot))
}

/// Prints the report (JSON, text, or errors only with `-q`), appends to `--log FILE`, and
/// returns the exit code of the run.
func finishRun(
    command: String, arguments: ParsedArguments, dryRun: Bool, reports: [DeviceReport], started: Date,
    console: Console
) -> ExitCode {
    let document = RunDocument(command: command, dryRun: dryRun, devices: reports)
    if arguments.has("json") {
        console.out(jsonText(document))
    } else if !arguments.has("quiet") {
        console.out(textReport(document, elapsed: Date().timeIntervalSince(started)))
    } else {
        for device in reports where device.status != .ok {
            console.error("\(device.name): \(device.status.rawValue): \(device.error ?? "see the report")")
        }
    }
    if let file = arguments.value("log") { appendLog(document, to: file, console: console) }
    return exitCode(for: reports)
}

/// Appends one timestamped line per device and per action to `file` (created when missing).
func appendLog(_ document: RunDocument, to file: String, console: Console) {
    let stamp = ISO8601DateFormatter().string(from: Date())
    var text = "\(stamp) \(document.command)\(document.dryRun ? " --dry-run" : "")\n"
    for device in document.devices {
        text += "\(stamp) \(device.name): \(device.status.rawValue)"
        text += (device.error.map { " — " + $0 } ?? "") + "\n"
        for action in device.actions { text += "\(stamp) \(device.name): \(actionLine(action))\n" }
    }
    if !FileManager.default.fileExists(atPath: file) {
        _ = FileManager.default.createFile(atPath: file, contents: nil)
    }
    guard let handle = FileHandle(forWritingAtPath: file) else {
        console.error("ftpsync: cannot write the log \(file)")
        return
    }
    handle.seekToEndOfFile()
    handle.write(Data(text.utf8))
    handle.closeFile()
}
