// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncConfig

/// The configuration's `on_failure` and `on_finish` hooks, run once at the very end of a pull or
/// push (after the report, the log's lines and the metrics file), also when the run stopped
/// before its devices with the configuration loaded (exit 2, 3, or 1 when the state could not
/// be opened: the stop document). Not for a dry run: it is a preview that changes nothing, and
/// a hook's mail or webhook would be a change.
///
/// When the exit code is not 0, `on_failure` runs first (the alert goes out first), then
/// `on_finish`; each as `HookProcess` says, with the run's JSON document (secrets masked, as
/// `--json` prints it) on its standard input and in its environment ours plus
/// `FTPSYNC_EXIT_CODE`, `FTPSYNC_CONFIG` (the configuration's absolute path), `FTPSYNC_COMMAND`
/// (`pull`, `push`) and `FTPSYNC_HOOK` (`on_failure`, `on_finish`). A hook that fails gives one
/// line on standard error and in the log; the run's exit code never changes.
struct RunHooks {
    let settings: RunSettings
    /// The configuration's absolute path (`FTPSYNC_CONFIG`).
    let configPath: String
    let console: Console
    let log: LogFile?
    /// Our environment, which the hooks get with the variables above added.
    let environment: [String: String]
    let limits: HookProcess.Limits

    /// The hooks of `configuration`; the time bound from `FTPSYNC_HOOK_LIMITS` in
    /// `environment` (tests only), else 60 s and a grace of 5 s.
    init(configuration: Configuration, console: Console, log: LogFile?, environment: [String: String]) {
        settings = configuration.run
        configPath = configuration.configPath
        self.console = console
        self.log = log
        self.environment = environment
        limits = HookProcess.Limits.fromEnvironment(environment)
    }

    /// The hooks a run ending with `exitCode` runs, in order: `on_failure` (not 0), `on_finish`.
    func applicable(exitCode: Int32, dryRun: Bool) -> [(name: String, command: String)] {
        guard !dryRun else { return [] }
        var hooks: [(name: String, command: String)] = []
        if exitCode != 0, let command = settings.onFailure { hooks.append(("on_failure", command)) }
        if let command = settings.onFinish { hooks.append(("on_finish", command)) }
        return hooks
    }

    /// Runs the hooks that apply to the run `document` tells of; blocks until they ended.
    func run(_ document: RunDocument) {
        for hook in applicable(exitCode: document.exitCode, dryRun: document.dryRun) {
            var variables = environment
            variables["FTPSYNC_EXIT_CODE"] = String(document.exitCode)
            variables["FTPSYNC_CONFIG"] = configPath
            variables["FTPSYNC_COMMAND"] = document.command
            variables["FTPSYNC_HOOK"] = hook.name
            let filter = console.filter
            let outcome = HookProcess.run(hook.command, environment: variables, limits: limits) { write in
                document.writeJSON { write(filter.json($0)) }
            }
            let described = RunHooks.describe(outcome, limits: limits)
            if outcome != .exited(0) { console.error("ftpsync: \(hook.name) hook " + described) }
            log?.write(
                LogEvent(
                    command: document.command, dryRun: document.dryRun,
                    detail: .hook(name: hook.name, outcome: described, succeeded: outcome == .exited(0))))
        }
    }

    /// `exited 3`, `was stopped after 60 s`, `was ended by signal 9`, `could not start: …`.
    static func describe(_ outcome: HookProcess.Outcome, limits: HookProcess.Limits) -> String {
        switch outcome {
        case .exited(let code): return "exited \(code)"
        case .signalled(let number): return "was ended by signal \(number)"
        case .timedOut:
            let seconds = limits.seconds.rounded() == limits.seconds ? String(Int(limits.seconds)) : "\(limits.seconds)"
            return "was stopped after \(seconds) s"
        case .notStarted(let reason): return "could not start: \(reason)"
        }
    }
}
