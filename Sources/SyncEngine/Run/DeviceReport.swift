// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// How a device's run ended (CONTRACT.md: `ok`, `partial`, `failed`, `refused`; `stopped` for
/// a run cap).
public enum DeviceStatus: String, Sendable, Codable {
    case ok
    /// Some actions failed; the rest was done.
    case partial
    /// Could not connect, log in or list: nothing was done.
    case failed
    /// Safety stop: the device was left untouched.
    case refused
    /// A run cap (`--max-transfer`, `--max-duration`) stopped it before its plan was done, or
    /// before it started; nothing failed, the next run continues (`DeviceReport.left`).
    case stopped
}

/// The outcome of one device's run.
public struct DeviceReport: Sendable, Codable {
    public var name: String
    public var status: DeviceStatus
    /// Why the device failed or was refused, one line.
    public var error: String?
    /// What became of each planned action, in the order they ended (a dry run: the plan's
    /// order); spooled to a scratch file beyond a bound (`ActionLog`).
    public var actions: ActionLog
    public var stats: RunStats
    /// Informational: things noticed and left alone on purpose (files left by `min_age`, files
    /// kept without `--delete`, links not followed); they do not fail the device.
    public var notes: [String]
    /// Entries that could not be synced (unsafe or unreadable names, unreadable listing lines,
    /// names that cannot be sent, a symlink in the way, a type change not applied). Any of them
    /// makes the device `partial` (`settleSkipped()`); add with `skip(path:reason:)`.
    public var skipped: [SkippedEntry]
    /// Paths already in sync.
    public var unchanged: Int
    /// Wall time of the device's run, in seconds.
    public var seconds: Double
    /// What a run cap left of the device's work for the next run; nil when no cap touched it.
    public var left: LeftByCap?
    /// A dry run's: a digest of the server's identity (`ServerIdentity`), which `ftpsync apply`
    /// compares with the server it reaches; nil when the server could not tell, or not a dry run.
    public var identity: String?
    /// The downloads of the run not started at all (a stop or a run cap came first), by path;
    /// not in the JSON document.
    var unstartedDownloads: [String] = []

    public init(name: String) {
        self.name = name
        status = .ok
        error = nil
        actions = ActionLog()
        stats = RunStats()
        notes = []
        skipped = []
        unchanged = 0
        seconds = 0
        left = nil
    }

    /// Records an entry that could not be synced; the device ends `partial` (exit 1).
    /// - Parameters:
    ///   - path: relative to the device root, `/`-separated (`/` for the root).
    ///   - reason: why, one line.
    public mutating func skip(path: String, reason: String) {
        skipped.append(SkippedEntry(path: path, reason: reason))
    }

    /// Records an informational note: shown and in the JSON, but the device stays `ok`.
    public mutating func note(_ text: String) {
        notes.append(text)
    }

    /// Turns an `ok` or `stopped` device with skipped entries into `partial` and names them in
    /// `error`; a device already `partial` gets the count added to its error. Called once, at
    /// the end of the device's run.
    public mutating func settleSkipped() {
        guard !skipped.isEmpty else { return }
        // The CLI's `-q` recognises this text (QuietReport.swift): keep them in step.
        let summary = "\(skipped.count) \(skipped.count == 1 ? "entry" : "entries") skipped"
        switch status {
        case .ok:
            status = .partial
            error = summary
        case .partial, .stopped:
            // Entries not synced are errors: they outweigh a cap (exit 1 before exit 5).
            status = .partial
            error = (error.map { $0 + "; " } ?? "") + summary
        case .failed, .refused:
            break
        }
    }

    enum CodingKeys: String, CodingKey {
        case name, status, error, actions, stats, notes, skipped, left, identity
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name))
        status = try c.decode(DeviceStatus.self, forKey: .status)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        stats = try c.decode(RunStats.self, forKey: .stats)
        notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
        skipped = try c.decodeIfPresent([SkippedEntry].self, forKey: .skipped) ?? []
        left = try c.decodeIfPresent(LeftByCap.self, forKey: .left)
        identity = try c.decodeIfPresent(String.self, forKey: .identity)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(status, forKey: .status)
        try c.encode(error, forKey: .error)
        try c.encode(actions, forKey: .actions)
        try c.encode(stats, forKey: .stats)
        try c.encode(notes, forKey: .notes)
        try c.encode(skipped, forKey: .skipped)
        try c.encode(left, forKey: .left)
        if let identity { try c.encode(identity, forKey: .identity) }
    }
}
