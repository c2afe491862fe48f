import FTPClient
import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore

/// What `pull` and `push` share: read the configuration, pick the devices, take the lock and
/// open the state, run the devices in parallel with progress, report, pick the exit code.
struct SyncRun {
    let direction: SyncDirection
    let options: SyncOptions
    let console: Console

    private var command: String { direction.rawValue }

    init(direction: SyncDirection, options: SyncOptions, console: Console) {
        self.direction = direction
        self.options = options
        self.console = console
    }

    /// When the run began: the `started` of its JSON document.
    let started = Date()

    /// With `--json`: the document of a run that stopped before any device (exit 2 or 3).
    private func stopped(_ message: String, code: ExitCode) {
        guard options.report.json else { return }
        let document = RunDocument(
            command: command, dryRun: options.dryRun, devices: [], error: message, started: started,
            exitCode: code.rawValue)
        console.json(jsonText(document))
    }

    /// Runs the devices and prints the report.
    /// - Throws: `UsageError` for an unknown device; `StoreError`, `LocalFileError` when the
    ///   state or the log cannot be opened.
    func run() throws -> ExitCode {
        let log = try options.log.map { try LogFile(path: $0, filter: console.filter) }
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(options.configFile.config, environment: environment)
        let policy = options.policy(direction: direction)
        let configuration: Configuration
        let devices: [DeviceConfig]
        do {
            configuration = try loadConfiguration(path: configPath, environment: environment, console: console)
            do {
                devices = try configuration.selectDevices(named: options.selection.names)
            } catch {
                throw UsageError(error.description)
            }
            // Pull writes each device into its own folder; push may fan one folder out.
            if direction == .pull { try configuration.checkPullLayout(devices: devices) }
        } catch let error as ConfigError {
            console.error(error.description)
            log?.write("\(command): " + error.description)
            stopped(error.description, code: .usage)
            return .usage
        }
        warnAboutInsecureDevices(devices, console: console)
        let dryRun = options.dryRun
        // A dry run takes no lock and creates nothing: it reads the state only when there is one.
        var held: String?
        guard let opened = try openState(configuration, dryRun: dryRun, console: console, log: log, held: &held)
        else {
            stopped(held ?? "the lock is held", code: .locked)
            return .locked
        }
        let store = opened.1
        defer { _ = opened.0 }

        let progress = RunProgress(options: options, command: command, console: console, log: log)
        // Caps on listings (`ListingBudget`); FTPSYNC_LISTING_LIMITS lowers them for tests.
        let limits = ListingBudget.Limits.fromEnvironment(ProcessInfo.processInfo.environment)
        let device = DeviceStart(
            direction: direction, configuration: configuration, store: store, policy: policy, dryRun: dryRun,
            verbose: options.report.verbose, console: console, events: progress.handler, options: options,
            listingLimits: limits.device, runListingBudget: ListingBudget(owner: "the run", limits: limits.run))
        let reports = DeviceRunner.runAll(devices, limit: options.jobs) { device.run($0) }
        progress.finish()
        return finishRun(
            command: command, options: options, dryRun: dryRun, reports: reports, started: started,
            console: console, log: log, actionsLogged: progress.logsActions,
            actionsPrinted: progress.printsActions)
    }
}

/// Starts one device's pull or push on the calling thread.
private struct DeviceStart: Sendable {
    let direction: SyncDirection
    let configuration: Configuration
    let store: StateStore?
    let policy: SyncPolicy
    let dryRun: Bool
    let verbose: Bool
    let console: Console
    let events: SyncEventHandler?
    let options: SyncOptions
    /// The caps on listings per device, and the run's budget every device draws on as well.
    let listingLimits: ListingBudget.Limits
    let runListingBudget: ListingBudget

    func run(_ device: DeviceConfig) -> DeviceReport {
        if let problem = device.problem { return refusedSettings(device, problem: problem) }
        var policy = policy
        policy.minimumAge = Double(device.minAge)
        // `--on-conflict` wins over the device's `on_conflict`, which wins over the default.
        if options.onConflict == nil, let configured = device.onConflict {
            policy.onConflict = configured
        }
        var job = DeviceJob(
            name: device.name, remoteRoot: device.remote,
            paths: LocalPaths(treeRoot: configuration.localRoot, deviceRoot: device.localPath, device: device.name),
            excludes: device.exclude, timeZone: device.timezone, policy: policy, dryRun: dryRun)
        job.retries = device.retries
        FleetOptions.configure(&job, options: options, device: device)
        let name = device.name
        let console = console
        var log: (@Sendable (String) -> Void)?
        if verbose {
            log = { line in console.error(name + ": " + line) }
        }
        let budget = ListingBudget(owner: "device \(name)", limits: listingLimits, parent: runListingBudget)
        job.listingBudget = budget
        let connect = { () throws -> RemoteFileSystem in
            let remote: FTPRemote
            do {
                remote = try FTPRemote.connect(device.sessionConfiguration, timeZone: device.timezone, log: log)
            } catch {
                throw device.explainingLogin(error)
            }
            remote.listingBudget = budget
            return remote
        }
        return DeviceRun(job: job, store: store, events: events, connect: connect).run()
    }

    /// The report of a device whose settings cannot work (`DeviceConfig.problem`): failed,
    /// nothing connected or changed; the other devices run.
    private func refusedSettings(_ device: DeviceConfig, problem: String) -> DeviceReport {
        events?(.deviceStarted(device: device.name))
        var report = DeviceReport(name: device.name)
        report.status = .failed
        report.error = "configuration: " + problem
        events?(.deviceFinished(device: device.name, report: report))
        return report
    }
}
