// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import SyncCore
import SyncEngine

/// A `LogEvent` as one object of a JSON-lines log (`--log-format json`; docs/cli.md lists the
/// keys). Every line has `time`, `level`, `event`, `run_id`, `pid`, `command`, `dry_run`,
/// `device`, `path`, `bytes`, `error` (null when none) and `message` (the text log's line, as
/// it is written there); actions add `kind`, `to`, `offset`, `status`; a device error
/// `status`; a device a run cap stopped `status`, `files`, `actions`, `cut` (what it left; null
/// when unknown, `bytes` too); the cap that stopped the run `cap`; the end of the run `devices`,
/// `files`, `renamed`, `deleted`, `failed`, `seconds` (wall time, rounded to the millisecond),
/// `exit_code`.
///
/// Strings are as the text log shows them: a byte no encoding could decode as `\xNN`;
/// controls are left to the encoder (`\n`, `\u001b`), secrets to `OutputFilter.json`.
struct LogJSONLine: Encodable {
    let event: LogEvent
    /// When it happened, UTC, whole seconds, as the run document's times.
    let time: Date
    /// The run's id: the same on every line of one run.
    let runID: String
    let pid: Int32
    /// The text log's line for the event, exactly (flat, escaped, secrets masked).
    let message: String

    enum CodingKeys: String, CodingKey {
        case time, level, event
        case runID = "run_id"
        case pid, command
        case dryRun = "dry_run"
        case device, path, bytes, error, message
        case kind, to, offset, status, devices, files, renamed, deleted, failed, seconds
        case exitCode = "exit_code"
        case actions, cut, cap
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(UTCFields(time).iso8601, forKey: .time)
        try c.encode(event.level.rawValue, forKey: .level)
        try c.encode(event.name, forKey: .event)
        try c.encode(runID, forKey: .runID)
        try c.encode(pid, forKey: .pid)
        try c.encode(event.command, forKey: .command)
        try c.encode(event.dryRun, forKey: .dryRun)
        try c.encode(event.device.map(Self.readable), forKey: .device)
        try c.encode(event.path.map(Self.readable), forKey: .path)
        try c.encode(event.bytes, forKey: .bytes)
        try c.encode(event.error.map(Self.readable), forKey: .error)
        try c.encode(message, forKey: .message)
        switch event.detail {
        case .action(_, let report):
            try c.encode(report.kind.rawValue, forKey: .kind)
            try c.encode(report.to.map(Self.readable), forKey: .to)
            try c.encode(report.offset, forKey: .offset)
            try c.encode(report.status.rawValue, forKey: .status)
        case .deviceError(_, let status, _):
            try c.encode(status.rawValue, forKey: .status)
        case .runFinished(let devices, let totals, let seconds, let exitCode):
            try c.encode(devices, forKey: .devices)
            try c.encode(totals.filesTransferred, forKey: .files)
            try c.encode(totals.renamed, forKey: .renamed)
            try c.encode(totals.deleted, forKey: .deleted)
            try c.encode(totals.failed, forKey: .failed)
            try c.encode((seconds * 1000).rounded() / 1000, forKey: .seconds)
            try c.encode(exitCode, forKey: .exitCode)
        case .deviceStopped(_, _, let left):
            try c.encode(DeviceStatus.stopped.rawValue, forKey: .status)
            try c.encode(left.files, forKey: .files)
            try c.encode(left.actions, forKey: .actions)
            try c.encode(left.cut, forKey: .cut)
        case .capReached(let cap):
            try c.encode(cap.rawValue, forKey: .cap)
        case .skipped, .configError, .locked, .startFailed, .hook, .trash, .deviceNote:
            break
        }
    }

    /// `text` with each code point that stands for an undecodable byte (`SafeText`) written as
    /// the text log writes it, `\xNN`; everything else is left to the JSON encoder.
    static func readable(_ text: String) -> String {
        let undecodable = { (scalar: Unicode.Scalar) in SafeText.needsEscape(scalar) && !SafeText.isControl(scalar) }
        guard text.unicodeScalars.contains(where: undecodable) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if undecodable(scalar) {
                out += SafeText.escaped(String(scalar))
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
