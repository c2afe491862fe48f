// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

extension StateStore {
    /// Every row of the digest cache, in no particular order.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func loadHashCache() throws(StoreError) -> [CachedDigest] {
        try locked { () throws(StoreError) -> [CachedDigest] in
            var rows: [CachedDigest] = []
            try connection.query("SELECT count(*) FROM hash_cache") { row in
                rows.reserveCapacity(Int(row.integer(0)))
            }
            try connection.query("SELECT path, size, mtime_ns, inode, digest FROM hash_cache") { row in
                rows.append(
                    CachedDigest(
                        path: row.text(0), size: row.unsigned(1), mtimeNanoseconds: row.integer(2),
                        inode: row.unsigned(3), digest: row.text(4)))
            }
            return rows
        }
    }

    /// Writes changes to the digest cache in one transaction: `upserts` replace the rows of their
    /// paths, `removals` delete rows by path.
    /// - Throws: `StoreError` when SQLite fails; nothing is written then.
    public func saveHashCache(upserts: [CachedDigest], removals: [String] = []) throws(StoreError) {
        if upserts.isEmpty && removals.isEmpty { return }
        try storeTransaction { () throws(StoreError) in
            for path in removals {
                try connection.query("DELETE FROM hash_cache WHERE path = ?1", [.text(path)])
            }
            for row in upserts {
                try connection.query(
                    """
                    INSERT OR REPLACE INTO hash_cache (path, size, mtime_ns, inode, digest, parent)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                    """,
                    [
                        .text(row.path), .unsigned(row.size), .integer(row.mtimeNanoseconds), .unsigned(row.inode),
                        .text(row.digest), .text(StateStore.cacheFolder(of: row.path)),
                    ])
            }
        }
    }

    /// Replaces the whole digest cache with `rows`, in one transaction.
    /// - Throws: `StoreError` when SQLite fails; the old cache stays then.
    public func replaceHashCache(_ rows: [CachedDigest]) throws(StoreError) {
        try storeTransaction { () throws(StoreError) in
            try connection.execute("DELETE FROM hash_cache")
            try saveHashCache(upserts: rows)
        }
    }
}
