// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// The digest cache read, written and pruned one local folder at a time (issue 17: a push
/// plans folder by folder), and the records asked by local size: each query is an index seek
/// on hash_cache (parent, path) or on the records with a digest by (device, local_size).
extension StateStore {
    /// The folder of the cache key `path`: the key up to its last `/`, "" when it has none.
    static func cacheFolder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// The cached digests of the files directly in the cache folder `folder` (a key path
    /// relative to the state root, "" for the root itself), not deeper, in no particular order.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func cachedDigests(inFolder folder: String) throws(StoreError) -> [CachedDigest] {
        try locked { () throws(StoreError) -> [CachedDigest] in
            var rows: [CachedDigest] = []
            try connection.query(FolderQuery.cachedDigestsInFolder.sql, [.text(folder)]) { row in
                rows.append(
                    CachedDigest(
                        path: row.text(0), size: row.unsigned(1), mtimeNanoseconds: row.integer(2),
                        inode: row.unsigned(3), digest: row.text(4)))
            }
            return rows
        }
    }

    /// Removes the cached digests of every folder at or below the cache folder `prefix` ("":
    /// all) for which `keeps` answers false: the folders a scan no longer saw. Streams: one
    /// index seek per folder holding a row, one folder in memory at a time.
    /// - Returns: how many rows were removed.
    /// - Throws: `StoreError` when SQLite fails; the folders removed before stay removed.
    @discardableResult
    public func pruneCachedDigests(below prefix: String, keeping keeps: (String) -> Bool) throws(StoreError) -> Int {
        var removed = 0
        var next: String? = prefix
        var inclusive = true
        while let current = next {
            next = nil
            try locked { () throws(StoreError) in
                let query: FolderQuery = inclusive ? .firstCacheFolderFrom : .firstCacheFolderAfter
                try connection.query(query.sql, [.text(current)]) { row in next = row.text(0) }
            }
            inclusive = false
            guard let folder = next else { break }
            let within =
                prefix.isEmpty || folder == prefix || folder.utf8.starts(with: (prefix + "/").utf8)
            // Rows sort by bytes: past the prefix's own rows and those below it, nothing more is.
            if !within, !folder.utf8.starts(with: prefix.utf8) { break }
            guard within, !keeps(folder) else { continue }
            try locked { () throws(StoreError) in
                try connection.query(FolderQuery.deleteCachedDigestsInFolder.sql, [.text(folder)])
                removed += connection.changes
            }
        }
        return removed
    }

    /// True when some record of `device` with a digest holds a local file of `size` bytes: only
    /// then can a new local file of that size be a move (a push finds moves by digest).
    /// - Throws: `StoreError` when SQLite fails.
    public func hasRecord(device: String, localSize size: UInt64) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) -> Bool in
            var found = false
            try connection.query(FolderQuery.recordWithDigestOfLocalSize.sql, [.text(device), .unsigned(size)]) {
                _ in found = true
            }
            return found
        }
    }
}
