// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

extension StateStore {
    /// The upload intents of `device` (uploads stored right before their RNTO whose records are
    /// not final yet), by path.
    /// - Throws: `StoreError` when SQLite fails or a row is not valid.
    public func uploadIntents(device: String) throws(StoreError) -> [RelativePath: UploadIntent] {
        try locked { () throws(StoreError) -> [RelativePath: UploadIntent] in
            var intents: [RelativePath: UploadIntent] = [:]
            try connection.query(
                """
                SELECT path, temp_name, local_size, local_mtime, local_precision, digest, sent_size,
                    time_to_set, stored_at FROM upload_intents WHERE device = ?1
                """, [.text(device)]
            ) { row throws(StoreError) in
                let path = try RelativePath.stored(row.text(0))
                guard let local = try FileTime.read(row, 3) else {
                    throw .corrupt("upload intent without a local time")
                }
                intents[path] = UploadIntent(
                    path: path, temporaryName: row.text(1), localSize: row.unsigned(2), localModified: local,
                    digest: row.optionalText(5), sentSize: row.unsigned(6),
                    timeToSet: Date(timeIntervalSince1970: row.real(7)),
                    stored: Date(timeIntervalSince1970: row.real(8)))
            }
            return intents
        }
    }

    /// Stores `intent` for `device`, replacing the one of its path.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setUploadIntent(_ intent: UploadIntent, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT OR REPLACE INTO upload_intents (device, path, temp_name, local_size, local_mtime,
                    local_precision, digest, sent_size, time_to_set, stored_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                """,
                [.text(device), .text(intent.path.string), .text(intent.temporaryName), .unsigned(intent.localSize)]
                    + FileTime.columns(intent.localModified)
                    + [
                        intent.digest.map { .text($0) } ?? .null, .unsigned(intent.sentSize),
                        .real(intent.timeToSet.timeIntervalSince1970), .real(intent.stored.timeIntervalSince1970),
                    ])
        }
    }

    /// Removes the upload intent of `path` for `device`; none is fine.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func removeUploadIntent(path: RelativePath, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                "DELETE FROM upload_intents WHERE device = ?1 AND path = ?2", [.text(device), .text(path.string)])
        }
    }
}
