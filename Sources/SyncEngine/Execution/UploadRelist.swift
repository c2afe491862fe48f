// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// The records of a push's uploads waiting for their folder's listing (the size and time the
/// server lists go into them; each is already stored as uploaded), shared by the device's
/// connections: a folder is listed once for all of them, by whichever connection takes it (each
/// connection listing every folder it sent to made a push of 300 files over 16 connections
/// list 96 times at its end, 7 s at a 20 ms round trip).
final class UploadRelist: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [RelativePath: [FileRecord]] = [:]
    private var count = 0
    /// How many entries each folder listed had then.
    private var listedEntries: [RelativePath: Int] = [:]
    /// Records kept before some are listed on their own, so a push of any size keeps a bounded
    /// number of them.
    static let limit = 1024

    /// Adds the record of an upload placed in its folder.
    /// - Returns: true once `limit` records wait: time to list the folders `take(all: false)` gives.
    func add(_ record: FileRecord) -> Bool {
        lock.withLock {
            waiting[record.path.parent, default: []].append(record)
            count += 1
            return count >= Self.limit
        }
    }

    /// Takes the folders to list now, with their records: every one (`all`, the end of the
    /// run), or those whose records waiting are a quarter of the entries they listed last time
    /// at least (so a folder receiving 100,000 files is listed some 20 times, not 100 in full).
    func take(all: Bool) -> [(folder: RelativePath, records: [FileRecord])] {
        lock.withLock {
            var taken: [(folder: RelativePath, records: [FileRecord])] = []
            for (folder, records) in waiting where all || records.count >= (listedEntries[folder] ?? 0) / 4 {
                taken.append((folder, records))
            }
            for (folder, records) in taken {
                waiting[folder] = nil
                count -= records.count
            }
            return taken
        }
    }

    /// Notes how many entries `folder` listed.
    func listed(_ folder: RelativePath, entries: Int) {
        lock.withLock { listedEntries[folder] = entries }
    }
}
