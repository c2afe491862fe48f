// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

extension StateStore {
    /// Every record of `device`: what both sides held at each path at its last successful sync.
    /// - Throws: `StoreError` when SQLite fails or a row is not valid.
    public func records(device: String) throws(StoreError) -> [RelativePath: FileRecord] {
        try locked { () throws(StoreError) -> [RelativePath: FileRecord] in
            var records: [RelativePath: FileRecord] = [:]
            // Sized once: growing a dictionary of 50,000 records rehashes it a dozen times.
            try connection.query("SELECT count(*) FROM records WHERE device = ?1", [.text(device)]) { row in
                records.reserveCapacity(Int(clamping: row.integer(0)))
            }
            try connection.query(
                """
                SELECT path, remote_size, remote_mtime, remote_precision, local_size, local_mtime,
                    local_precision, digest, offloaded, server_digest FROM records WHERE device = ?1
                """, [.text(device)]
            ) { row throws(StoreError) in
                let record = try StateStore.record(row)
                records[record.path] = record
            }
            return records
        }
    }

    /// The record of `path` for `device`, if any.
    /// - Throws: `StoreError` when SQLite fails or the row is not valid.
    public func record(path: RelativePath, device: String) throws(StoreError) -> FileRecord? {
        try locked { () throws(StoreError) -> FileRecord? in
            var found: FileRecord?
            try connection.query(
                """
                SELECT path, remote_size, remote_mtime, remote_precision, local_size, local_mtime,
                    local_precision, digest, offloaded, server_digest FROM records WHERE device = ?1 AND path = ?2
                """, [.text(device), .text(path.string)]
            ) { row throws(StoreError) in found = try StateStore.record(row) }
            return found
        }
    }

    static func record(_ row: Row) throws(StoreError) -> FileRecord {
        guard let local = try FileTime.read(row, 5) else { throw .corrupt("record without a local time") }
        var record = FileRecord(
            path: try RelativePath.stored(row.text(0)), remoteSize: row.optionalUnsigned(1),
            remoteModified: try FileTime.read(row, 2), localSize: row.unsigned(4), localModified: local,
            digest: row.optionalText(7))
        record.offloaded = row.integer(8) != 0
        record.serverDigest = row.optionalText(9)
        return record
    }

    /// Stores `record` for `device`, replacing the record of its path.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func upsertRecord(_ record: FileRecord, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT OR REPLACE INTO records (device, path, remote_size, remote_mtime, remote_precision,
                    local_size, local_mtime, local_precision, digest, parent, offloaded, server_digest)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                """,
                [.text(device), .text(record.path.string), .unsigned(record.remoteSize)]
                    + FileTime.columns(record.remoteModified) + [.unsigned(record.localSize)]
                    + FileTime.columns(record.localModified)
                    + [record.digest.map { .text($0) } ?? .null, .text(record.path.parent.string)]
                    + [.integer(record.offloaded ? 1 : 0), record.serverDigest.map { .text($0) } ?? .null])
        }
    }

    /// Stores many records for `device` in one transaction (all or none).
    /// - Throws: `StoreError` when SQLite fails; nothing is stored then.
    public func upsertRecords(_ records: [FileRecord], device: String) throws(StoreError) {
        try storeTransaction { () throws(StoreError) in
            for record in records { try upsertRecord(record, device: device) }
        }
    }

    /// Marks the record of `path` for `device` offloaded (`FileRecord.offloaded`): `--remove-source`
    /// deleted its device file. No record is fine.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func markOffloaded(path: RelativePath, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                "UPDATE records SET offloaded = 1 WHERE device = ?1 AND path = ?2", [.text(device), .text(path.string)])
        }
    }

    /// Removes the record of `path` for `device`; no record is fine.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func deleteRecord(path: RelativePath, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                "DELETE FROM records WHERE device = ?1 AND path = ?2", [.text(device), .text(path.string)])
        }
    }

    /// `transaction` for bodies that throw only `StoreError`.
    func storeTransaction(_ body: () throws(StoreError) -> Void) throws(StoreError) {
        do {
            try transaction { try body() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .corrupt("unexpected error \(error)")
        }
    }
}
