// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import SyncCore
import SyncEngine

/// The document `pull`/`push --json` prints (CONTRACT.md, "JSON output" and its 0.2 additions):
/// always one, also when the run stopped before it started (exit 2 or 3: `error` set, no devices).
struct RunDocument: Encodable {
    var command: String
    var dryRun: Bool
    /// Why the run did not start (usage, configuration, lock); nil when it ran.
    var error: String?
    var devices: [DeviceReport]
    var totals: RunStats
    /// When the run started and finished, UTC, ISO 8601 (`2026-11-29T12:00:00Z`).
    var started: String
    var finished: String
    /// Wall time of the whole run, in seconds.
    var durationSeconds: Double
    /// The process's exit code (CONTRACT.md, "Exit codes").
    var exitCode: Int32
    /// The ftpsync version that wrote the document.
    var version: String
    /// The run cap (`--max-transfer`, `--max-duration`) that stopped the run early, leaving
    /// work for the next run (the devices' `left`); nil when none did.
    var stoppedBy: RunCap?
    /// A dry run's: how its plan was made, for `ftpsync apply`; nil otherwise.
    var plan: PlanOrigin?
    /// `--shard K/N` as given (`"1/4"`); null when the run was not sharded.
    var shard: String?

    enum CodingKeys: String, CodingKey {
        case command
        case dryRun = "dry_run"
        case error, devices, totals, started, finished
        case durationSeconds = "duration_seconds"
        case exitCode = "exit_code"
        case version
        case stoppedBy = "stopped_by"
        case plan, shard
    }

    /// - Parameters:
    ///   - started: when the run began; `finished` is now.
    ///   - exitCode: the code the process exits with.
    ///   - stoppedBy: the cap that stopped the run early (`SyncRunner.stoppedBy`).
    init(
        command: String, dryRun: Bool, devices: [DeviceReport], error: String? = nil, started: Date = Date(),
        finished: Date = Date(), exitCode: Int32 = 0, stoppedBy: RunCap? = nil
    ) {
        self.command = command
        self.dryRun = dryRun
        self.error = error
        self.devices = devices
        var totals = RunStats()
        for device in devices { totals.add(device.stats) }
        self.totals = totals
        self.started = UTCFields(started).iso8601
        self.finished = UTCFields(finished).iso8601
        durationSeconds = max(0, (finished.timeIntervalSince(started) * 1000).rounded() / 1000)
        self.exitCode = exitCode
        version = ftpsyncVersion
        self.stoppedBy = stoppedBy
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(command, forKey: .command)
        try c.encode(dryRun, forKey: .dryRun)
        // `error` is always present: null when the run started.
        try c.encode(error, forKey: .error)
        try c.encode(devices, forKey: .devices)
        try c.encode(totals, forKey: .totals)
        try c.encode(started, forKey: .started)
        try c.encode(finished, forKey: .finished)
        try c.encode(durationSeconds, forKey: .durationSeconds)
        try c.encode(exitCode, forKey: .exitCode)
        try c.encode(version, forKey: .version)
        try c.encode(stoppedBy, forKey: .stoppedBy)
        try c.encode(shard, forKey: .shard)
        if let plan { try c.encode(plan, forKey: .plan) }
    }
}

/// Encodes a value as pretty JSON with a final newline.
func jsonText<T: Encodable>(_ value: T) -> String {
    jsonText(value, encoder: jsonEncoder())
}

/// Encodes a value as pretty JSON with a final newline, with `encoder` (one of `jsonEncoder()`,
/// reused for the pieces of a streamed document).
func jsonText<T: Encodable>(_ value: T, encoder: JSONEncoder) -> String {
    guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
        return "{}\n"
    }
    return SafeText.escapedJSON(text) + "\n"
}

/// The encoder of every JSON document: pretty, keys sorted, slashes as they are.
func jsonEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Every document uses snake_case keys, as CONTRACT.md does.
    encoder.keyEncodingStrategy = .convertToSnakeCase
    return encoder
}

/// Human-readable sizes: `512 B`, `4.0 KiB`, `1.5 MiB`.
func formatBytes(_ bytes: UInt64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
}

/// `text` safe for a terminal by the `SafeText` rules (C0 with tab and line breaks, DEL, C1,
/// undecodable bytes escaped), so a name or reply text from a server can neither move the
/// cursor nor fake a report line.
func printable(_ text: String) -> String {
    SafeText.escaped(text)
}

/// "1 file", "2 files".
func counted(_ n: Int, _ noun: String) -> String {
    "\(n) \(noun)\(n == 1 ? "" : "s")"
}

/// Writes the text report printed at the end of a run through `write`, a line at a time (each
/// ending with a line feed): per device what was done (or planned), what failed and why, what
/// was skipped, what was noticed and left alone; then the totals. The actions are read from the
/// devices' logs as they go, so the report never is in memory whole.
/// - Parameter actionsPrinted: each finished action was already printed as a line while the run
///   went (not on a terminal): done actions are not listed again, failed ones are.
func writeTextReport(
    _ document: RunDocument, elapsed: Double, actionsPrinted: Bool = false, _ write: (String) -> Void
) {
    var planned = PlannedTotals()
    // In a run of many devices, those with nothing to report are counted, not listed.
    let foldQuiet = document.devices.count > quietDevicesListed
    var quiet = QuietDevices()
    for device in document.devices {
        if foldQuiet && QuietDevices.takes(device, actionsPrinted: actionsPrinted) {
            quiet.add(device)
            continue
        }
        write("\(device.name): \(device.status.rawValue)" + (device.error.map { " — \(printable($0))" } ?? "") + "\n")
        // Only done actions, all printed already: the device's log is not read back.
        if !(actionsPrinted && device.actions.count(.done) == device.actions.count) {
            for action in device.actions {
                // Actions a cap deferred are summed up in one line (`leftLine`), not listed.
                if !(actionsPrinted && action.status == .done) && action.status != .deferred {
                    write("  " + actionLine(action) + "\n")
                }
                planned.count(action)
            }
        }
        if let left = device.left, let line = leftLine(left) { write("  " + line + "\n") }
        for entry in device.skipped { write("  skipped: \(printable(entry.line))\n") }
        for note in device.notes { write("  note: \(printable(note))\n") }
        if device.actions.isEmpty && device.status == .ok {
            write("  nothing to do (\(device.unchanged) in sync)\n")
        }
        let s = device.stats
        if !document.dryRun && (s.filesTransferred > 0 || s.failed > 0 || s.deleted > 0 || s.renamed > 0) {
            write(
                "  \(counted(s.filesTransferred, "file")) transferred (\(formatBytes(s.bytesTransferred))), "
                    + "\(s.renamed) renamed, \(deletedText(s.deleted, onDevice: s.deletedOnDevice)), \(s.failed) failed\n"
            )
        }
    }
    for line in quiet.lines(total: document.devices.count) { write(line) }
    var out = ""
    let t = document.totals
    let notSynced = document.devices.filter { $0.status == .failed || $0.status == .refused }.map(\.name)
    let failedDevices = notSynced.count
    if document.dryRun {
        let unknown = planned.unknownSizes > 0 ? " and \(planned.unknownSizes) of unknown size" : ""
        out += "total planned: \(counted(planned.files, "file")), \(formatBytes(planned.bytes))\(unknown), "
        out += "\(planned.renames) renamed, \(deletedText(planned.deletes, onDevice: planned.deviceDeletes))"
    } else {
        out += "total done: \(counted(t.filesTransferred, "file")), \(formatBytes(t.bytesTransferred)), "
        out += "\(t.renamed) renamed, \(deletedText(t.deleted, onDevice: t.deletedOnDevice)), \(t.failed) failed"
    }
    if failedDevices > 0 {
        out += "; \(counted(failedDevices, "device")) not synced"
        // Named again at the end: in a long report they are far above.
        if foldQuiet {
            let names = notSynced.prefix(notSyncedNamed).map(printable).joined(separator: ", ")
            out += " (" + names + (failedDevices > notSyncedNamed ? ", …" : "") + ")"
        }
    }
    out += String(format: " in %.1f s", elapsed)
    if let cap = document.stoppedBy { out += "; stopped by \(cap.option), the next run continues" }
    out += "\n"
    write(out)
}

/// "0 deleted", "3 moved to the trash", "7 deleted on the device", or both: where the deletes
/// of a run happened (found by a first user: an offload's "7 deleted" did not say where).
func deletedText(_ deleted: Int, onDevice: Int) -> String {
    let here = max(0, deleted - onDevice)
    var parts: [String] = []
    if here > 0 { parts.append("\(here) moved to the trash") }
    if onDevice > 0 { parts.append("\(onDevice) deleted on the device") }
    return parts.isEmpty ? "0 deleted" : parts.joined(separator: ", ")
}

/// What a dry run's report sums up of its planned actions.
private struct PlannedTotals {
    var files = 0
    /// Bytes the planned transfers move (saturating).
    var bytes: UInt64 = 0
    /// Planned transfers whose size the listing did not give.
    var unknownSizes = 0
    var renames = 0
    var deletes = 0
    /// Of `deletes`, those on the device.
    var deviceDeletes = 0

    /// Counts `action` when it is planned.
    mutating func count(_ action: ActionReport) {
        guard action.status == .planned else { return }
        switch action.kind {
        case .download, .upload:
            files += 1
            bytes = Saturating.add(bytes, action.bytes)
            if !action.sizeKnown { unknownSizes += 1 }
        case .renameLocal, .renameRemote: renames += 1
        case .deleteLocal: deletes += 1
        case .deleteRemote:
            deletes += 1
            deviceDeletes += 1
        case .mkdirLocal, .mkdirRemote, .conflict: break
        }
    }
}

/// One line for one action: `download  2024/a.jpg  (1.0 MiB)`.
func actionLine(_ action: ActionReport) -> String {
    var line = action.kind.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0) + " " + printable(action.path)
    if let to = action.to { line += " -> " + printable(to) }
    if action.kind == .download || action.kind == .upload {
        line += action.sizeKnown ? " (\(formatBytes(action.bytes))" : " (size unknown"
        if action.offset > 0 { line += ", resumed at \(formatBytes(action.offset))" }
        line += ")"
    }
    switch action.status {
    case .planned: line += " [planned]"
    case .done: break
    case .failed: line += " FAILED: " + printable(action.error ?? "unknown error")
    case .deferred: line += " [deferred: " + printable(action.error ?? "left for the next run") + "]"
    case .held: line += " [held: still being written; left for a later run]"
    case .refused: line += " REFUSED: " + printable(action.error ?? "changed since the plan")
    }
    return line
}

/// The text report's line of what a run cap left of a device: `left for the next run: 7 files
/// (12.0 MiB) not transferred (1 cut, resumes), 3 other actions`; nil when the device was not
/// started or its plan not made (its status line says so).
func leftLine(_ left: LeftByCap) -> String? {
    guard let files = left.files, let bytes = left.bytes, let actions = left.actions else { return nil }
    var line = "left for the next run: \(counted(files, "file")) (\(formatBytes(bytes))) not transferred"
    if let cut = left.cut, cut > 0 { line += " (\(cut) cut mid-transfer, resumed by the next run)" }
    let other = actions - min(actions, files)
    if other > 0 { line += ", \(counted(other, "other action")) not carried out" }
    return line
}
