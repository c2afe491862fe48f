// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

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
    let options: SyncOptions
    let console: Console
    /// `ftpsync apply`'s plan: only its reviewed actions are carried out; nil for a plain run.
    let reviewed: PlanDocument?

    private var command: String { reviewed == nil ? direction.rawValue : "apply" }

    init(direction: SyncDirection, options: SyncOptions, console: Console, reviewed: PlanDocument? = nil) {
        self.direction = direction
        self.options = options
        self.console = console
        self.reviewed = reviewed
        startedPrecisely = Date()
    }

    /// When the run began (whole seconds): the `started` of its JSON document, and the time
    /// the run's conflict copies are named after (`apply` names them again from the document).
    var started: Date { Date(timeIntervalSince1970: startedPrecisely.timeIntervalSince1970.rounded(.down)) }
    /// When the run began, to the fraction of a second: its duration counts from here (from
    /// `started`, a 0.3 s run said 0.9 s). The document's `started` text is the same second.
    let startedPrecisely: Date

    /// The document of a run that stopped before any device (exit 1, 2 or 3), printed with
    /// `--json`; returned for the hooks.
    @discardableResult
    private func stopped(_ message: String, code: ExitCode) -> RunDocument {
        var document = RunDocument(
            command: command, dryRun: options.dryRun, devices: [], error: message, started: started,
            exitCode: code.rawValue)
        document.shard = options.selection.shard?.description
        if options.report.json { console.json(jsonText(document)) }
        return document
    }

    /// A configuration the run cannot start with: its message, in the log and the document, then
    /// the hooks (none when the configuration did not load); exit 2.
    private func stopped(_ error: ConfigError, log: LogFile?, hooks: RunHooks? = nil) -> ExitCode {
        console.error(error.description)
        log?.write(LogEvent(command: command, dryRun: options.dryRun, detail: .configError(error.description)))
        // Made whether or not there are hooks: `hooks?.run(stopped(…))` would skip it.
        let document = stopped(error.description, code: .usage)
        SignalHandling.settle(document.exitCode)
        hooks?.run(document)
        return .usage
    }

    /// Runs the devices, prints the report and runs the hooks. An unknown device (exit 2) and
    /// a state or lock that cannot be opened (exit 1) are reported here, with their document.
    /// - Throws: `UsageError` when the log cannot be opened.
    func run() throws -> ExitCode {
        let log = try self.options.log.map {
            try LogFile(path: $0, filter: console.filter, format: self.options.logFormat ?? .text)
        }
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(self.options.configFile.config, environment: environment)
        var options = self.options.runOptions(direction: direction, environment: environment)
        let (jobs, jobsNote) = jobsWithinDescriptorLimit(options.jobs)
        options.jobs = jobs
        if let jobsNote { console.error(jobsNote) }
        options.conflictTime = reviewed?.started ?? started
        if let reviewed {
            options.reviewed = reviewed.devices
            options.devices = reviewed.order
        }
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: configPath, environment: environment, console: console)
        } catch {
            return stopped(error, log: log)
        }
        log?.use(self.options.logFormat ?? configuration.run.logFormat ?? .text)
        let hooks = RunHooks(configuration: configuration, console: console, log: log, environment: environment)
        let cancellation = CancellationToken()
        SignalHandling.cancelOnSignal(cancellation)
        let progress = RunProgress(options: self.options, command: command, console: console, log: log)
        var commandLog: (@Sendable (String, String) -> Void)?
        if self.options.report.verbose {
            commandLog = { [console] device, line in console.error(device + ": " + line) }
        }
        let runner: SyncRunner
        let result: RunResult
        do {
            runner = try SyncRunner(
                configuration: configuration, options: options, cancellation: cancellation,
                events: progress.handler, commandLog: commandLog)
            warnAboutInsecureDevices(runner.devices, console: console)
            if let shard = options.shard, runner.devices.isEmpty {
                console.error(
                    "ftpsync: note: shard \(shard) holds none of the \(configuration.devices.count) devices of"
                        + " \(configuration.displayPath): nothing to do")
            }
            progress.expect(devices: runner.devices.count)
            result = try runner.run()
        } catch {
            progress.finish()
            if let error = error as? ConfigError { return stopped(error, log: log, hooks: hooks) }
            // An unknown --device, one outside --shard, a tree of another shard (exit 2); a state or
            // lock file that cannot be opened (exit 1).
            let usage = error is UnknownDeviceError || error is OutsideShardError || error is ShardMismatchError
            let code: ExitCode = usage ? .usage : .partialFailure
            console.error("ftpsync: \(error)")
            let message = "\(error)"
            log?.write(
                LogEvent(
                    command: command, dryRun: options.dryRun,
                    detail: code == .usage ? .configError(message) : .startFailed(message)))
            let document = stopped("\(error)", code: code)
            SignalHandling.settle(document.exitCode)
            hooks.run(document)
            return code
        }
        progress.finish()
        if options.shard == nil, let shard = runner.treeShard {
            console.error(ShardNote.unshardedRun(localRoot: configuration.localRoot, treeShard: shard))
        }
        let code: ExitCode
        let document: RunDocument
        switch result {
        case .locked(let held):
            console.error("ftpsync: \(held)")
            log?.write(LogEvent(command: command, dryRun: options.dryRun, detail: .locked(held.description)))
            document = stopped(held.description, code: .locked)
            code = .locked
        case .finished(let reports):
            reportTrashPurge(runner.trashPurge, command: command, console: console, log: log)
            (code, document) = finishRun(
                command: command, options: self.options, dryRun: options.dryRun, reports: reports,
                started: startedPrecisely,
                console: console, log: log, actionsLogged: progress.logsActions,
                actionsPrinted: progress.printsActions, stoppedBy: runner.stoppedBy,
                plan: options.dryRun && reviewed == nil
                    ? PlanOrigin.make(
                        command: command, configPath: configPath, given: self.options.configFile.config,
                        commandLine: CommandLine.arguments) : nil)
        }
        // From here on the reported exit code is the process's, whatever signal comes.
        SignalHandling.settle(document.exitCode)
        writeMetricsFile(
            self.options.metricsFile ?? configuration.run.metricsFile, configuration: configuration,
            shard: self.options.selection.shard, dryRun: options.dryRun, reports: result.reports,
            exitCode: document.exitCode, started: started,
            console: console)
        // Last: the hooks (the metrics file goes before them).
        hooks.run(document)
        return code
    }
}

extension SyncOptions {
    /// These options as the runner takes them, for a run in `direction`: `--dry-run`,
    /// `--device`, `--jobs`, `--delete`, `--max-delete` (-1 = no limit), `--on-conflict`,
    /// `--parallel`, `--order`, `--accept-new-identity`, `--bwlimit`, `--max-transfer`,
    /// `--max-duration`, `--remove-source`, `--remove-source-folders`, the filter options (each
    /// checked when parsed); the listing caps from
    /// `FTPSYNC_LISTING_LIMITS` in `environment` (tests only).
    func runOptions(direction: SyncDirection, environment: [String: String] = [:]) -> RunOptions {
        let limits = ListingBudget.Limits.fromEnvironment(environment)
        var options = RunOptions(
            direction: direction, dryRun: dryRun, devices: selection.names, jobs: jobs, deleteExtraneous: delete,
            maxDelete: maxDeleteLimit, onConflict: onConflict, connections: parallel, order: order,
            acceptNewIdentity: acceptNewIdentity, deviceListingLimits: limits.device, runListingLimits: limits.run,
            maxTransfer: maxTransfer, maxDuration: maxDuration.map(Double.init))
        options.bwlimit = bwlimit == 0 ? nil : bwlimit
        options.segments = segments
        options.removeSource = removeSource
        options.removeSourceFolders = removeSourceFolders
        options.resync = resync
        options.maxOffload = maxOffloadLimit
        options.filters = filters.runFilters
        options.shard = selection.shard
        return options
    }
}
