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
        let log = try arguments.value("log").map { try LogFile(path: $0) }
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(arguments.positionals.first, environment: environment)
        let policy = try syncPolicy(arguments, direction: .push)
        let jobs = try FleetOptions.jobs(arguments)
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: configPath, environment: environment, console: console)
        } catch {
            console.error(error.description)
            log?.write("push: " + error.description)
            return .usage
        }
        let devices: [DeviceConfig]
        do {
            devices = try configuration.selectDevices(named: arguments.all("device"))
        } catch {
            throw UsageError(error.description)
        }
        warnAboutInsecureDevices(devices, console: console)
        let dryRun = arguments.has("dry-run")
        let started = Date()
        guard let opened = try openState(configuration, dryRun: dryRun, console: console, log: log) else {
            return .locked
        }
        let store = opened.1
        defer { _ = opened.0 }

        let verbose = arguments.has("verbose")
        let console = self.console
        let progress = RunProgress(arguments: arguments, command: "push", console: console, log: log)
        let events = progress.handler
        let arguments = self.arguments
        let reports = DeviceRunner.runAll(devices, limit: jobs) { device in
            PushCommand.push(
                device, configuration: configuration, store: store, policy: policy, dryRun: dryRun, verbose: verbose,
                console: console, events: events, arguments: arguments)
        }
        progress.finish()
        return finishRun(
            command: "push", arguments: arguments, dryRun: dryRun, reports: reports, started: started, console: console,
            log: log, actionsLogged: progress.logsActions)
    }

    /// One device's push, on the calling thread.
    private static func push(
        _ device: DeviceConfig, configuration: Configuration, store: StateStore?, policy: SyncPolicy, dryRun: Bool,
        verbose: Bool, console: Console, events: SyncEventHandler?, arguments: ParsedArguments
    ) -> DeviceReport {
        var job = DeviceJob(
            name: device.name, remoteRoot: device.remote,
            paths: LocalPaths(treeRoot: configuration.localRoot, deviceRoot: device.localPath, device: device.name),
            excludes: device.exclude, timeZone: device.timezone, policy: policy, dryRun: dryRun)
        job.retries = device.retries
        FleetOptions.configure(&job, arguments: arguments, device: device)
        let name = device.name
        var log: (@Sendable (String) -> Void)?
        if verbose {
            log = { line in console.error(name + ": " + line) }
        }
        let engine = PushEngine(job: job, store: store, events: events) {
            try FTPRemote.connect(device.sessionConfiguration, timeZone: device.timezone, log: log)
        }
        return engine.run()
    }
}
