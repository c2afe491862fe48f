import FTPClient
import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore

/// `ftpsync pull [CONFIG] [options]`: devices → local tree.
struct PullCommand {
    static let options: [OptionSpec] = [
        OptionSpec(
            names: ["--device"], key: "device", takesValue: true, valueName: "NAME",
            help: "only this device; repeatable"),
        OptionSpec(
            names: ["-n", "--dry-run"], key: "dry-run", takesValue: false, help: "print the plan; change nothing"),
        OptionSpec(names: ["--json"], key: "json", takesValue: false, help: "print one JSON document on stdout"),
        OptionSpec(names: ["-q", "--quiet"], key: "quiet", takesValue: false, help: "print nothing but errors"),
        OptionSpec(
            names: ["-v", "--verbose"], key: "verbose", takesValue: false,
            help: "log every FTP command and reply to stderr (PASS masked)"),
        OptionSpec(
            names: ["--progress"], key: "progress", takesValue: false, help: "show progress on stderr"),
        OptionSpec(
            names: ["--no-progress"], key: "no-progress", takesValue: false,
            help: "no progress display (default when stderr is not a terminal)"),
    ]

    static var help: String {
        Help.text(
            for: "pull", options: options, usage: "ftpsync pull [CONFIG] [options]",
            summary: """
                Copy what each device holds into <local>/<device>: new and changed files are downloaded
                (interrupted downloads resume), files already in sync are left alone.
                """,
            example: "ftpsync pull device.yaml --dry-run")
    }

    let arguments: ParsedArguments
    let console: Console

    init(arguments: [String], console: Console) throws {
        self.arguments = try ArgumentParser.parse(arguments, specs: PullCommand.options)
        self.console = console
        if self.arguments.positionals.count > 1 {
            throw UsageError("pull takes one CONFIG file, got: \(self.arguments.positionals.joined(separator: " "))")
        }
    }

    func run() throws -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(arguments.positionals.first, environment: environment)
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
        do {
            try configuration.checkPullLayout(devices: devices)
        } catch {
            console.error(error.description)
            return .usage
        }
        warnAboutInsecureDevices(devices, console: console)
        let dryRun = arguments.has("dry-run")
        let started = Date()

        var lock: RunLock?
        let store: StateStore?
        if !dryRun {
            do {
                lock = try RunLock.acquire(localRoot: configuration.localRoot)
            } catch {
                guard case .held(_, let pid) = error else { throw error }
                let holder = pid.map { " (pid \($0))" } ?? ""
                console.error(
                    "ftpsync: another ftpsync run\(holder) holds the lock on \(configuration.localRoot); nothing was done"
                )
                return .locked
            }
            store = try StateStore.open(localRoot: configuration.localRoot)
        } else {
            // A dry run creates nothing: it reads the state only when there is one.
            let file = configuration.localRoot + "/.ftpsync/state.sqlite"
            store = FileManager.default.fileExists(atPath: file) ? try StateStore(file: file) : nil
        }
        defer { _ = lock }

        let verbose = arguments.has("verbose")
        let console = self.console
        let reports = DeviceRunner.runAll(devices, limit: 4) { device in
            PullCommand.pull(
                device, configuration: configuration, store: store, dryRun: dryRun, verbose: verbose, console: console)
        }

        let document = RunDocument(command: "pull", dryRun: dryRun, devices: reports)
        if arguments.has("json") {
            console.out(jsonText(document))
        } else if !arguments.has("quiet") {
            console.out(textReport(document, elapsed: Date().timeIntervalSince(started)))
        } else {
            for device in reports where device.status != .ok {
                console.error("\(device.name): \(device.status.rawValue): \(device.error ?? "see the report")")
            }
        }
        return exitCode(for: reports)
    }

    /// One device's pull, on the calling thread.
    private static func pull(
        _ device: DeviceConfig, configuration: Configuration, store: StateStore?, dryRun: Bool, verbose: Bool,
        console: Console
    ) -> DeviceReport {
        let job = DeviceJob(
            name: device.name, remoteRoot: device.remote,
            paths: LocalPaths(treeRoot: configuration.localRoot, deviceRoot: device.localPath, device: device.name),
            excludes: device.exclude, timeZone: device.timezone, policy: SyncPolicy(direction: .pull), dryRun: dryRun)
        let name = device.name
        var log: (@Sendable (String) -> Void)?
        if verbose {
            log = { line in console.error(name + ": " + line) }
        }
        let engine = PullEngine(job: job, store: store) {
            try FTPRemote.connect(device.sessionConfiguration, timeZone: device.timezone, log: log)
        }
        return engine.run()
    }
}

/// `CONFIG` when given, else `$FTPSYNC_CONFIG`, else `./device.yaml`.
func resolveConfigPath(_ given: String?, environment: [String: String]) -> String {
    if let given { return given }
    if let fromEnvironment = environment["FTPSYNC_CONFIG"], !fromEnvironment.isEmpty { return fromEnvironment }
    return "device.yaml"
}

/// The exit code a set of device reports calls for.
func exitCode(for reports: [DeviceReport]) -> ExitCode {
    if reports.contains(where: { $0.status == .refused }) { return .safetyStop }
    if reports.contains(where: { $0.status != .ok }) { return .partialFailure }
    return .success
}
