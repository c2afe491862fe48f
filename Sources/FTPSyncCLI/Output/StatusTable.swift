// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import LocalTree
import SyncStore

/// The text `status` prints: the tree and its trash, then one line per device, devices in
/// trouble first (failing, then stale, then never run: `DeviceStateSummary.troubleRank`), each
/// group in file order; an error is cut to fit the line (in full in the JSON).
enum StatusTable {
    /// Characters of an error shown at least, however wide the other columns are.
    static let minimumErrorWidth = 30

    /// The header row.
    static let header = [
        "device", "state", "last sync (UTC)", "last attempt (UTC)", "failures", "files", "size", "partials", "trash",
        "identity", "last run's error",
    ]

    /// `devices` by `troubleRank`, each group in the order given.
    static func ordered(_ devices: [DeviceStateSummary]) -> [DeviceStateSummary] {
        devices.enumerated().sorted { ($0.element.troubleRank, $0.offset) < ($1.element.troubleRank, $1.offset) }
            .map(\.element)
    }

    /// The report of `document`, lines of at most `width` terminal columns where the error column
    /// can be cut to fit (it keeps `minimumErrorWidth`).
    static func text(_ document: StatusDocument, width: Int) -> String {
        var out = "local: \(printable(document.local))\n" + trashLine(document) + "\n"
        let rows = [header] + ordered(document.devices).map(row)
        var widths = Array(repeating: 0, count: header.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], ProgressFormat.columns(cell)) }
        }
        let used = widths.dropLast().reduce(0) { $0 + $1 + 2 }
        let errorWidth = max(minimumErrorWidth, width - used)
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                if index == row.count - 1 {
                    line += ProgressFormat.fit(cell, width: errorWidth)
                } else {
                    let pad = max(0, widths[index] + 2 - ProgressFormat.columns(cell))
                    line += cell + String(repeating: " ", count: pad)
                }
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    /// The events, newest first, one line each: time, device, kind, detail.
    static func eventsText(_ events: [DeviceEvent]) -> String {
        guard !events.isEmpty else { return "no events recorded\n" }
        return events.map { event in
            let detail = event.detail.map { "  " + printable($0) } ?? ""
            return "\(UTCFields(event.at).iso8601)  \(printable(event.device))  \(event.kind.rawValue)\(detail)\n"
        }.joined()
    }

    /// The trash's line: its files and bytes, run folders, and whether the count is complete.
    static func trashLine(_ document: StatusDocument) -> String {
        guard let trash = document.trash else {
            return "trash: not measured (\(printable(document.trashError ?? "unknown error")))"
        }
        if trash.complete && trash.total.files == 0 { return "trash: empty (<local>/.ftpsync/trash)" }
        let floor = trash.complete ? "" : "at least "
        return "trash: \(floor)\(counted(trash.total.files, "file")), \(formatBytes(trash.total.bytes))"
            + " in \(counted(trash.runs, "run folder")) (<local>/.ftpsync/trash)"
    }

    /// One device's cells: `failures` is the count of runs in a row not `ok` and since when;
    /// the error starts with the last run's status.
    private static func row(_ device: DeviceStateSummary) -> [String] {
        let attempt = device.lastAttempt
        var failures = String(device.health.consecutiveFailures)
        if let since = device.health.failingSince { failures += " since " + UTCFields(since).iso8601 }
        return [
            printable(device.name), device.standing, device.lastSync.map { UTCFields($0).iso8601 } ?? "never",
            attempt.map { UTCFields($0.at).iso8601 } ?? "never", failures, String(device.files),
            formatBytes(device.bytes), String(device.partials), formatBytes(device.trash.bytes),
            device.identityKnown ? "known" : "unknown",
            attempt.flatMap { attempt in attempt.error.map { attempt.status + ": " + printable($0) } } ?? "-",
        ]
    }
}
