// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree

/// Tells what a pull's trash purge (`SyncRunner.trashPurge`) did: a log line when it removed
/// folders or found names that are not a run's stamp (left alone), and one line on standard
/// error and in the log per failure (a failure never fails the run); nothing when there was
/// nothing to do.
/// - Parameter command: `pull`, for the log lines.
func reportTrashPurge(_ outcome: TrashPurge.Outcome?, command: String, console: Console, log: LogFile?) {
    guard let outcome else { return }
    if !outcome.removedFolders.isEmpty || outcome.stoppedAtLimit {
        let shown = outcome.removedFolders.prefix(TrashPurge.noteLimit).joined(separator: ", ")
        let others = outcome.removedFolders.count - min(outcome.removedFolders.count, TrashPurge.noteLimit)
        var line = "trash: removed \(outcome.removedFolders.count) folder(s) older than trash_retention "
        line += "(\(outcome.removedEntries) entries)" + (shown.isEmpty ? "" : ": " + shown)
        if others > 0 { line += " and \(others) more" }
        if outcome.stoppedAtLimit { line += "; the rest waits for the next pull" }
        log?.write(LogEvent(command: command, dryRun: false, detail: .trash(line, .purged)))
    }
    if !outcome.foreignNames.isEmpty {
        let names = outcome.foreignNames.joined(separator: ", ")
        log?.write(
            LogEvent(
                command: command, dryRun: false,
                detail: .trash("trash: left alone (not a run's UTC stamp): " + names, .leftAlone)))
    }
    var failures = outcome.errors
    if outcome.moreErrors > 0 { failures.append("and \(outcome.moreErrors) more failures") }
    for failure in failures {
        let line = "trash: not removed: \(failure) (the run's outcome is not affected; the next pull tries again)"
        console.error("ftpsync: " + line)
        log?.write(LogEvent(command: command, dryRun: false, detail: .trash(line, .failed)))
    }
}
