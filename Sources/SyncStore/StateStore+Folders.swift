// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// The records of a device read one folder at a time (issue 17: a pull plans folder by folder,
/// its memory bounded by the largest folder): each query is an index seek on
/// (device, parent, path) or (device, remote_size, remote_mtime).
extension StateStore {
    /// The records of `device` whose path lies directly in `folder` (not deeper), in
    /// `RelativePath` order, in a compact table (no `FileRecord` is kept per row).
    /// - Throws: `StoreError` when SQLite fails or a row is not valid.
    public func records(device: String, folder: RelativePath) throws(StoreError) -> RecordTable {
        try locked { () throws(StoreError) -> RecordTable in
            // SQLite orders by bytes; `RelativePath` orders names by Unicode scalars (the same for
            // names in one folder but for the `/` rank, which one folder's names never hold), so
            // the rows go into the table as they come (the builder sorts any other order).
            var records = RecordTable.Builder()
            try connection.query(FolderQuery.recordsInFolder.sql, [.text(device), .text(folder.string)]) {
                row throws(StoreError) in records.append(try StateStore.record(row))
            }
            return records.finish()
        }
    }

    /// The subfolders of `folder` (its direct children) holding a record of `device` somewhere
    /// below them, in `RelativePath` order. One index seek per subfolder found: the records
    /// below each one are skipped over, never read.
    /// - Throws: `StoreError` when SQLite fails or a stored folder is not a valid path.
    public func recordFolders(device: String, in folder: RelativePath) throws(StoreError) -> [RelativePath] {
        try locked { () throws(StoreError) -> [RelativePath] in
            let prefix = folder.isRoot ? "" : folder.string + "/"
            var found = Set<RelativePath>()
            // The smallest stored folder below `folder` at or after `start`, each round.
            var start = prefix
            let query: FolderQuery = folder.isRoot ? .firstRecordFolderInRoot : .firstRecordFolder
            while true {
                var next: String?
                var values: [SQLValue] = [.text(device), .text(start)]
                if !folder.isRoot { values.append(.text(folder.string + "0")) }
                try connection.query(query.sql, values) { row in next = row.text(0) }
                guard let next, next.utf8.starts(with: prefix.utf8), next.utf8.count > prefix.utf8.count else { break }
                let rest = next.utf8.dropFirst(prefix.utf8.count)
                let child = prefix + String(decoding: rest.prefix { $0 != UInt8(ascii: "/") }, as: UTF8.self)
                found.insert(try RelativePath.stored(child))
                // Past every folder below `child`: its own records sort before `child/…`, its
                // deeper folders before `child0` (`0` follows `/`; `next` < `child0` always).
                start = child + "0"
                // A sibling continuing the name with a byte below `/` ("a!" after "a") sorts
                // between `child` and `child/`: looked for when `next` is `child` itself (any
                // such sibling is above `next`, so the rounds only move forward).
                guard next == child else { continue }
                try connection.query(
                    FolderQuery.recordFolderBetween.sql, [.text(device), .text(child), .text(child + "/")]
                ) { row in
                    let sibling = row.text(0)
                    if sibling.utf8.lexicographicallyPrecedes(start.utf8) { start = sibling }
                }
            }
            return found.sorted()
        }
    }

    /// True when `device` has a record somewhere below `folder` (in it or deeper).
    /// - Throws: `StoreError` when SQLite fails.
    public func hasRecords(device: String, below folder: RelativePath) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) -> Bool in
            var found = false
            if folder.isRoot {
                try connection.query("SELECT 1 FROM records WHERE device = ?1 LIMIT 1", [.text(device)]) { _ in
                    found = true
                }
                return found
            }
            // Two seeks: SQLite reads an `OR` of the two by scanning every record of the device.
            try connection.query(FolderQuery.recordInFolder.sql, [.text(device), .text(folder.string)]) { _ in
                found = true
            }
            if found { return true }
            try connection.query(
                FolderQuery.recordInFolderRange.sql,
                [.text(device), .text(folder.string + "/"), .text(folder.string + "0")]
            ) { _ in found = true }
            return found
        }
    }

    /// True when some record of `device` holds a remote file of `size` bytes whose time matches
    /// `time` (`FileTime.matches`): only then can a new file of the device be a move. Also true
    /// when more than `rowLimit` records of that size lie within a day of `time` and none of the
    /// first ones matched: the answer is then "maybe" (the walk holds the file and the moves are
    /// decided on the records themselves), so a tree of many files of one size is not read
    /// again for each new file.
    /// - Throws: `StoreError` when SQLite fails or a row is not valid.
    public func hasRecord(
        device: String, remoteSize size: UInt64, matching time: FileTime, rowLimit: Int = 64
    ) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) -> Bool in
            var found = false
            var rows = 0
            // No granularity is coarser than a day: a matching time lies within one day of `time`.
            let day = TimeGranularity.day.seconds
            try connection.queryUntil(
                FolderQuery.recordsOfRemoteSize.sql,
                [.text(device), .unsigned(size), .real(time.seconds - day), .real(time.seconds + day)],
                found: { (row: Row) throws(StoreError) -> Bool in
                    rows += 1
                    if let recorded = try FileTime.read(row, 0), recorded.matches(time) { found = true }
                    if rows > rowLimit { found = true }
                    return found
                })
            return found
        }
    }
}
