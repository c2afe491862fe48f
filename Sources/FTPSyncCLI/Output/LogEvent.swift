// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import SyncEngine

/// One line of the `--log` file as a typed value: what happened, to which device and path, how
/// many bytes, which error. `LogFile` renders it in the run's `LogFormat`: `message` is the text
/// line, `LogJSONLine` the JSON object; both come from these fields, so they say the same.
struct LogEvent: Sendable {
    /// What the line is about, with what only that kind of line carries.
    enum Detail: Sendable {
        /// An action ended (or, in a dry run, was planned).
        case action(device: String, report: ActionReport)
        /// A device ended `partial`, `failed` or `refused`, with why.
        case deviceError(device: String, status: DeviceStatus, error: String)
        /// An entry of a device that could not be synced.
        case skipped(device: String, entry: SkippedEntry)
        /// The run ended: the devices it ran, their totals, its wall time (seconds) and exit code.
        case runFinished(devices: Int, totals: RunStats, seconds: Double, exitCode: Int32)
        /// The configuration cannot be used: the run did not start (exit 2).
        case configError(String)
        /// Another run holds the lock on the local tree: this one did not start (exit 3).
        case locked(String)
        /// The run could not start: the state or the lock file cannot be opened (exit 1).
        case startFailed(String)
        /// A hook (`on_failure`, `on_finish`) ended: its name, how (`exited 0`, `was stopped
        /// after 60 s`, …), and whether that was a success (exit 0).
        case hook(name: String, outcome: String, succeeded: Bool)
        /// A line about pull's trash purge (`trash: removed …`, `trash: left alone …`,
        /// `trash: not removed: …`) and which of the three it is.
        case trash(String, TrashLine)
        /// A run cap stopped a device before its plan was done (or before it started): why, and
        /// what it left for the next run.
        case deviceStopped(device: String, reason: String, left: LeftByCap)
        /// A run cap (`--max-transfer`, `--max-duration`) stopped the run early.
        case capReached(RunCap)
        /// A device's note: what the run saw and did about it besides its actions (a download
        /// fetched again because its bytes differed from the server's digest, a server quirk
        /// learned).
        case deviceNote(device: String, note: String)
    }

    /// What a trash line tells: the event is `trash_` and this.
    enum TrashLine: String, Sendable {
        /// Folders older than `trash_retention` were removed.
        case purged
        /// Names in the trash that are not a run's stamp were left alone.
        case leftAlone = "left_alone"
        /// Something could not be removed.
        case failed
    }

    /// How much a line matters: journald's and Loki's levels.
    enum Level: String, Sendable {
        case info, warning, error
    }

    /// `pull` or `push`.
    let command: String
    /// The run was a dry run (`--dry-run`): its actions are planned, not done.
    let dryRun: Bool
    let detail: Detail

    /// The event's stable snake_case name (docs/cli.md lists them all).
    var name: String {
        switch detail {
        case .action(_, let report): "action_" + report.status.rawValue
        case .deviceError: "device_error"
        case .skipped: "skipped"
        case .runFinished: "run_finished"
        case .configError: "config_error"
        case .locked: "locked"
        case .startFailed: "start_failed"
        case .hook(_, _, let succeeded): succeeded ? "hook_done" : "hook_failed"
        case .trash(_, let line): "trash_" + line.rawValue
        case .deviceStopped: "device_stopped"
        case .capReached: "cap_reached"
        case .deviceNote: "device_note"
        }
    }

    /// How much the line matters: errors for what failed (a run whose exit code is not 0 too),
    /// warnings for what was left undone on purpose or for a later run.
    var level: Level {
        switch detail {
        case .action(_, let report): report.status == .failed ? .error : .info
        case .deviceError(_, let status, _): status == .partial ? .warning : .error
        case .skipped, .locked: .warning
        case .runFinished(_, _, _, let exitCode): exitCode == 0 ? .info : .error
        case .configError, .startFailed: .error
        case .hook(_, _, let succeeded): succeeded ? .info : .error
        case .trash(_, let line): line == .failed ? .warning : .info
        case .deviceStopped, .capReached: .warning
        case .deviceNote: .info
        }
    }

    /// The device the line is about; nil for the run's own lines.
    var device: String? {
        switch detail {
        case .action(let device, _), .deviceError(let device, _, _), .skipped(let device, _),
            .deviceStopped(let device, _, _), .deviceNote(let device, _):
            device
        case .runFinished, .configError, .locked, .startFailed, .hook, .trash, .capReached: nil
        }
    }

    /// The path (relative to the device root) the line is about; nil when none.
    var path: String? {
        switch detail {
        case .action(_, let report): report.path
        case .skipped(_, let entry): entry.path
        case .deviceError, .runFinished, .configError, .locked, .startFailed, .hook, .trash, .deviceStopped,
            .capReached, .deviceNote:
            nil
        }
    }

    /// The bytes a transfer moved (or will move, in a dry run) or the run's total; nil when none.
    var bytes: UInt64? {
        switch detail {
        case .action(_, let report): report.kind == .download || report.kind == .upload ? report.bytes : nil
        case .runFinished(_, let totals, _, _): totals.bytesTransferred
        case .deviceStopped(_, _, let left): left.bytes
        case .deviceError, .skipped, .configError, .locked, .startFailed, .hook, .trash, .capReached, .deviceNote: nil
        }
    }

    /// What went wrong, one line; nil when nothing did.
    var error: String? {
        switch detail {
        case .action(_, let report): report.error
        case .deviceError(_, _, let error): error
        case .skipped(_, let entry): entry.reason
        case .configError(let message), .locked(let message), .startFailed(let message): message
        case .hook(_, let outcome, let succeeded): succeeded ? nil : outcome
        case .trash(let text, let line): line == .failed ? text : nil
        case .runFinished, .deviceStopped, .capReached, .deviceNote: nil
        }
    }

    /// The text log's line, without its time and `ftpsync[PID]`:
    /// `pull cam: download 2024/a.jpg 1048576 bytes done`, `pull summary: …, exit 1`.
    var message: String {
        let command = self.command + (dryRun ? " --dry-run" : "")
        switch detail {
        case .action(let device, let report):
            return "\(command) \(device): " + Self.line(for: report)
        case .deviceError(let device, let status, let error):
            return "\(command) \(device): \(status.rawValue): \(error)"
        case .skipped(let device, let entry):
            return "\(device): skipped \(entry.line)"
        case .runFinished(let devices, let t, let seconds, let exitCode):
            let verb = dryRun ? "planned" : "done"
            return "\(command) summary: \(devices) device(s), \(verb) \(t.filesTransferred) files "
                + "(\(t.bytesTransferred) bytes), \(t.renamed) renamed, \(t.deleted) deleted, \(t.failed) failed, "
                + String(format: "%.1f s", seconds) + ", exit \(exitCode)"
        case .configError(let message), .startFailed(let message):
            return "\(command): " + message
        case .locked(let message):
            return message
        case .hook(let name, let outcome, _):
            return "\(command) \(name) hook \(outcome)"
        case .trash(let text, _):
            return "\(command) " + text
        case .deviceStopped(let device, let reason, let left):
            var line = "\(command) \(device): stopped: \(reason)"
            if let files = left.files, let bytes = left.bytes, let actions = left.actions {
                line += "; left: \(files) files (\(bytes) bytes), \(actions) actions"
            }
            return line
        case .capReached(let cap):
            return "\(command): \(cap.option) reached: no further action was started; the next run continues"
        case .deviceNote(let device, let note):
            return "\(command) \(device): note: \(note)"
        }
    }

    /// `download 2024/a.jpg 1048576 bytes done`, `rename_local a -> b done`, `... failed: reason`.
    static func line(for action: ActionReport) -> String {
        var line = action.kind.rawValue + " " + action.path
        if let to = action.to { line += " -> " + to }
        if action.kind == .download || action.kind == .upload {
            line += " \(action.bytes) bytes"
            if action.offset > 0 { line += " from offset \(action.offset)" }
        }
        line += " " + action.status.rawValue
        if let error = action.error { line += ": " + error }
        return line
    }
}
