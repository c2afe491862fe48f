// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncRunner

/// Prints the `insecure: true` warning of each device that has one (on standard error,
/// also with `--quiet`: it is about the safety of every run).
func warnAboutInsecureDevices(_ devices: [DeviceConfig], console: Console) {
    for device in devices {
        if let warning = device.insecureWarning { console.error(warning) }
    }
}

/// Prints the report (JSON, text, or only the trouble with `-q`), writes the run to the log,
/// and returns the exit code of the run and its document (for the hooks).
/// - Parameters:
///   - actionsLogged: the log got each action's line as it finished.
///   - actionsPrinted: stderr got each finished action's line; the text report leaves out the
///     done ones (it keeps failed actions, with their error, and the counts).
///   - stoppedBy: the run cap that stopped the run early (`SyncRunner.stoppedBy`).
func finishRun(
    command: String, options: SyncOptions, dryRun: Bool, reports: [DeviceReport], started: Date,
    console: Console, log: LogFile?, actionsLogged: Bool = false, actionsPrinted: Bool = false,
    stoppedBy: RunCap? = nil, plan: PlanOrigin? = nil
) -> (code: ExitCode, document: RunDocument) {
    let code = exitCode(for: reports)
    // A signal decides the process's exit code (128 + its number); the document says so.
    var document = RunDocument(
        command: command, dryRun: dryRun, devices: reports, started: started,
        exitCode: SignalHandling.exitCode ?? code.rawValue, stoppedBy: stoppedBy)
    document.plan = plan
    document.shard = options.selection.shard?.description
    let elapsed = document.durationSeconds
    log?.write(document, elapsed: elapsed, actionsLogged: actionsLogged)
    if options.report.json {
        // Entries not synced are errors whatever the output mode (CONTRACT.md: skipped with an
        // error line); the text report lists them itself, `-q` sums them up per device.
        for device in reports {
            for entry in device.skipped {
                console.error("ftpsync: \(printable(device.name)): skipped \(printable(entry.line))")
            }
        }
        writeInChunks(to: console.jsonPiece) { document.writeJSON($0) }
    } else if !options.quiet {
        writeInChunks(to: console.out) {
            writeTextReport(document, elapsed: elapsed, actionsPrinted: actionsPrinted, $0)
        }
    } else {
        quietReport(document, console: console)
    }
    return (code, document)
}

/// With `--json` (given anywhere before `--`), prints the document of a run that did not start
/// (CONTRACT.md: every run with `--json` prints one, also on exit 2 and 3).
/// - Parameters:
///   - words: the command line after the command's name.
///   - message: why the run stopped, one line.
func printStopDocument(
    command: String, words: [String], message: String, code: ExitCode, started: Date, console: Console
) {
    let options = words.prefix { $0 != "--" }
    guard options.contains("--json") else { return }
    let dryRun = options.contains("--dry-run") || options.contains("-n")
    let document = RunDocument(
        command: command, dryRun: dryRun, devices: [], error: message, started: started, exitCode: code.rawValue)
    console.json(jsonText(document))
}
