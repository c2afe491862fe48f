// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import LocalTree
import SyncStore

/// One device in `status --json`.
struct DeviceStateSummary: Encodable, Sendable {
    var name: String
    /// End of the last successful run (UTC), nil if never.
    var lastSync: Date?
    /// Files recorded at the last syncs.
    var files = 0
    /// Sum of the recorded files' sizes, in bytes.
    var bytes: UInt64 = 0
    /// Interrupted transfers waiting to resume.
    var partials = 0
    /// True when the server's identity has been recorded.
    var identityKnown = false
    /// The device's last run and its failures in a row since the last `ok` one.
    var health = DeviceHealth(lastAttempt: nil, consecutiveFailures: 0, failingSince: nil)
    /// What the device's folders in pull's trash hold.
    var trash: TrashUsage.Share
    /// `--stale`: true when the device had no successful run within the window; nil without it.
    var stale: Bool?

    /// A device the state knows nothing of, with its share of the trash.
    init(name: String, trash: TrashUsage.Share) {
        self.name = name
        self.trash = trash
    }

    /// The device's last run, whatever its outcome; nil when none was recorded.
    var lastAttempt: DeviceAttempt? { health.lastAttempt }

    /// Where `status` lists the device: 0 failing (its last run was not `ok`), 1 stale or
    /// never successful though it ran, 2 never run, 3 fine; each group in file order.
    var troubleRank: Int {
        if health.consecutiveFailures > 0 { return 0 }
        if stale == true || (lastSync == nil && lastAttempt != nil) { return 1 }
        if lastSync == nil { return 2 }
        return 3
    }

    /// One word for the text table: `never` (no run yet), `failing`, `stale`, `failing+stale`,
    /// `unsynced` (runs but none `ok`, and no failure recorded: a state before schema 9), `ok`.
    var standing: String {
        if lastAttempt == nil && lastSync == nil { return "never" }
        var words: [String] = []
        if health.consecutiveFailures > 0 { words.append("failing") }
        if stale == true { words.append("stale") }
        if words.isEmpty && lastSync == nil { words.append("unsynced") }
        return words.isEmpty ? "ok" : words.joined(separator: "+")
    }

    enum CodingKeys: String, CodingKey {
        case name
        case lastSync = "last_sync"
        case lastAttempt = "last_attempt"
        case lastStatus = "last_status"
        case lastError = "last_error"
        case lastFilesTransferred = "last_files_transferred"
        case consecutiveFailures = "consecutive_failures"
        case failingSince = "failing_since"
        case files, bytes, partials, stale
        case identityKnown = "identity_known"
        case trashFiles = "trash_files"
        case trashBytes = "trash_bytes"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(lastSync.map { UTCFields($0).iso8601 }, forKey: .lastSync)
        try container.encode(lastAttempt.map { UTCFields($0.at).iso8601 }, forKey: .lastAttempt)
        try container.encode(lastAttempt?.status, forKey: .lastStatus)
        try container.encode(lastAttempt?.error, forKey: .lastError)
        try container.encode(lastAttempt?.filesTransferred, forKey: .lastFilesTransferred)
        try container.encode(health.consecutiveFailures, forKey: .consecutiveFailures)
        try container.encode(health.failingSince.map { UTCFields($0).iso8601 }, forKey: .failingSince)
        try container.encode(files, forKey: .files)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(partials, forKey: .partials)
        try container.encode(identityKnown, forKey: .identityKnown)
        try container.encode(trash.files, forKey: .trashFiles)
        try container.encode(trash.bytes, forKey: .trashBytes)
        if let stale { try container.encode(stale, forKey: .stale) }
    }
}

/// The staleness decision of `status --stale` (pure: the time is a parameter).
enum Staleness {
    /// True when `lastSync` (the end of the last successful run) is older than `now − window`
    /// or there is none; a last sync exactly at the window's start, or after `now` (our clock
    /// set back), is fresh.
    static func isStale(lastSync: Date?, now: Date, window: TimeInterval) -> Bool {
        guard let lastSync else { return true }
        return lastSync < now.addingTimeInterval(-window)
    }
}
