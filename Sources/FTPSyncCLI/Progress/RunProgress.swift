// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncEngine

/// What a pull or push shows and logs while it runs, chosen from the command line:
/// - a terminal on standard error (and `TERM` not `dumb`): the live display (`TerminalProgress`);
/// - anything else: one plain line per finished action (`LineProgress`);
/// - `-q`, `--no-progress`, `--dry-run` or `--log -`: nothing while it runs.
/// With `--log FILE`, each action's log line is written as the action finishes (with `--log -`
/// on stderr, in place of the progress lines).
final class RunProgress: Sendable {
    /// How progress is shown.
    enum Display: Equatable {
        case none, lines, terminal
    }

    /// The handler to give the engines; nil when nothing listens.
    let handler: SyncEventHandler?
    /// True when the actions' log lines are written as they finish (not again at the end).
    let logsActions: Bool
    /// True when each finished action was printed as a line on stderr (`LineProgress`): the
    /// report then does not list the done ones again (one line per action, not two).
    let printsActions: Bool
    private let terminal: TerminalProgress?

    /// The display for these options: on by default (a terminal gets the live display, a pipe
    /// or a file plain lines); a dry run carries nothing out, so shows nothing unless
    /// `--progress` asks for it; `-q` and `--no-progress` win over `--progress`.
    static func display(
        quiet: Bool, progress: Bool, noProgress: Bool, dryRun: Bool, stderrIsTerminal: Bool, term: String?
    ) -> Display {
        if quiet || noProgress || (dryRun && !progress) { return .none }
        return stderrIsTerminal && term != "dumb" ? .terminal : .lines
    }

    /// - Parameters:
    ///   - command: `pull` or `push`, for the log lines.
    init(options: SyncOptions, command: String, console: Console, log: LogFile?) {
        let dryRun = options.dryRun
        let display = RunProgress.display(
            quiet: options.quiet, progress: options.progress, noProgress: options.noProgress || options.log == "-",
            dryRun: dryRun,
            stderrIsTerminal: console.stderrIsTerminal,
            term: ProcessInfo.processInfo.environment["TERM"])
        var parts: [SyncEventHandler] = []
        var terminal: TerminalProgress?
        switch display {
        case .none: break
        case .lines:
            let lines = LineProgress(console: console)
            parts.append { lines.handle($0) }
        case .terminal:
            let live = TerminalProgress(console: console)
            terminal = live
            parts.append { live.handle($0) }
        }
        if let log, !dryRun {
            parts.append { event in
                guard case .actionFinished(let device, _, let report) = event else { return }
                log.write(LogEvent(command: command, dryRun: false, detail: .action(device: device, report: report)))
            }
        }
        self.terminal = terminal
        printsActions = display == .lines
        logsActions = log != nil && !dryRun
        let all = parts
        if all.isEmpty {
            handler = nil
        } else {
            handler = { (event: SyncEvent) in
                for part in all { part(event) }
            }
        }
        terminal?.start()
    }

    /// Tells the live display how many devices the run has, once the runner knows its selection.
    func expect(devices: Int) { terminal?.expect(devices: devices) }

    /// Ends the live display (erasing it); call before printing the report.
    func finish() { terminal?.stop() }
}
