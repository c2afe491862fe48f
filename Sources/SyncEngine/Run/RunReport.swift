import Foundation
import SyncCore

/// What became of one planned action.
public enum ActionStatus: String, Sendable, Codable {
    /// Dry run: planned, not carried out.
    case planned
    case done
    case failed
}

/// One action as reported in the text and JSON output (CONTRACT.md, "JSON output").
public struct ActionReport: Sendable, Codable {
    public var kind: ActionKind
    /// Relative to the device's root, `/`-separated, never starting with `/`.
    public var path: String
    /// The new path of a rename.
    public var to: String?
    /// Bytes this action moves over the network.
    public var bytes: UInt64
    /// Where a resumed transfer started (0 when not resumed).
    public var offset: UInt64
    public var status: ActionStatus
    /// Why the action failed, one line; nil unless `status` is `failed`.
    public var error: String?

    public init(action: Action, status: ActionStatus, error: String? = nil) {
        kind = action.kind
        path = action.path.string
        to = action.to?.string
        bytes = action.bytes
        offset = action.offset
        self.status = status
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case kind, path, to, bytes, offset, status, error
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(path, forKey: .path)
        if kind == .renameLocal || kind == .renameRemote { try c.encode(to, forKey: .to) }
        try c.encode(bytes, forKey: .bytes)
        try c.encode(offset, forKey: .offset)
        try c.encode(status, forKey: .status)
        try c.encode(error, forKey: .error)
    }
}

/// Counts for one device or a whole run.
public struct RunStats: Sendable, Codable, Equatable {
    public var filesTransferred = 0
    /// Bytes moved over data connections, in bytes.
    public var bytesTransferred: UInt64 = 0
    public var deleted = 0
    public var renamed = 0
    public var failed = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case filesTransferred = "files_transferred"
        case bytesTransferred = "bytes_transferred"
        case deleted, renamed, failed
    }

    /// Adds another set of counts to this one.
    public mutating func add(_ other: RunStats) {
        filesTransferred += other.filesTransferred
        bytesTransferred = saturatingSum(bytesTransferred, other.bytesTransferred)
        deleted += other.deleted
        renamed += other.renamed
        failed += other.failed
    }

    /// Counts one finished action (planned actions of a dry run count nothing).
    public mutating func count(_ report: ActionReport, transferred: UInt64) {
        guard report.status != .failed else {
            failed += 1
            return
        }
        guard report.status == .done else { return }
        switch report.kind {
        case .download, .upload:
            filesTransferred += 1
            bytesTransferred = saturatingSum(bytesTransferred, transferred)
        case .deleteLocal, .deleteRemote: deleted += 1
        case .renameLocal, .renameRemote: renamed += 1
        case .mkdirLocal, .mkdirRemote, .conflict: break
        }
    }
}

/// How a device's run ended (CONTRACT.md: `ok`, `partial`, `failed`, `refused`).
public enum DeviceStatus: String, Sendable, Codable {
    case ok
    /// Some actions failed; the rest was done.
    case partial
    /// Could not connect, log in or list: nothing was done.
    case failed
    /// Safety stop: the device was left untouched.
    case refused
}

/// The outcome of one device's run.
public struct DeviceReport: Sendable, Codable {
    public var name: String
    public var status: DeviceStatus
    /// Why the device failed or was refused, one line.
    public var error: String?
    public var actions: [ActionReport]
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

    public init(name: String) {
        self.name = name
        status = .ok
        error = nil
        actions = []
        stats = RunStats()
        notes = []
        skipped = []
        unchanged = 0
        seconds = 0
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

    /// Turns an `ok` device with skipped entries into `partial` and names them in `error`;
    /// a device already `partial` gets the count added to its error. Called once, at the end of
    /// the device's run.
    public mutating func settleSkipped() {
        guard !skipped.isEmpty else { return }
        // The CLI's `-q` recognises this text (QuietReport.swift): keep them in step.
        let summary = "\(skipped.count) \(skipped.count == 1 ? "entry" : "entries") skipped"
        switch status {
        case .ok:
            status = .partial
            error = summary
        case .partial:
            error = (error.map { $0 + "; " } ?? "") + summary
        case .failed, .refused:
            break
        }
    }

    enum CodingKeys: String, CodingKey {
        case name, status, error, actions, stats, notes, skipped
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name))
        status = try c.decode(DeviceStatus.self, forKey: .status)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        stats = try c.decode(RunStats.self, forKey: .stats)
        notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
        skipped = try c.decodeIfPresent([SkippedEntry].self, forKey: .skipped) ?? []
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
    }
}

/// `a + b`, or `UInt64.max` when the sum does not fit (sizes come from servers).
func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? UInt64.max : sum
}
