// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// The statements a walk runs once per folder or once per new file (issue 17), each naming the
/// index it seeks. Without `INDEXED BY` SQLite (3.40, no `ANALYZE` statistics) read the
/// records of one folder by scanning every record of the device — one pass over a million
/// rows per folder, a no-op pull of 1,000,000 files taking minutes — and answered "a record
/// with a digest of this local size?" the same way. `QueryPlanTests` checks with
/// `EXPLAIN QUERY PLAN` that every statement here is an index seek.
enum FolderQuery: CaseIterable {
    /// The records directly in one folder: ?1 device, ?2 folder.
    case recordsInFolder
    /// The smallest record folder at or after ?2 (not the root) of device ?1, below the root.
    case firstRecordFolderInRoot
    /// The smallest record folder at or after ?2 and before ?3 of device ?1.
    case firstRecordFolder
    /// The smallest record folder strictly between ?2 and ?3 of device ?1.
    case recordFolderBetween
    /// Whether device ?1 has a record directly in folder ?2.
    case recordInFolder
    /// Whether device ?1 has a record in a folder from ?2 (inclusive) to ?3 (exclusive).
    case recordInFolderRange
    /// The times of the records of device ?1 with remote size ?2 and time in (?3, ?4).
    case recordsOfRemoteSize
    /// Whether device ?1 has a record with a digest of local size ?2.
    case recordWithDigestOfLocalSize
    /// The cached digests directly in cache folder ?1.
    case cachedDigestsInFolder
    /// The smallest cache folder at or after ?1.
    case firstCacheFolderFrom
    /// The smallest cache folder after ?1.
    case firstCacheFolderAfter
    /// Removes the cached digests directly in cache folder ?1.
    case deleteCachedDigestsInFolder

    /// The statement's text.
    var sql: String {
        switch self {
        case .recordsInFolder:
            """
            SELECT path, remote_size, remote_mtime, remote_precision, local_size, local_mtime,
                local_precision, digest, offloaded, server_digest FROM records INDEXED BY records_by_folder WHERE device = ?1 AND parent = ?2
            """
        case .firstRecordFolderInRoot:
            """
            SELECT parent FROM records INDEXED BY records_by_folder
                WHERE device = ?1 AND parent >= ?2 AND parent <> '' ORDER BY parent LIMIT 1
            """
        case .firstRecordFolder:
            """
            SELECT parent FROM records INDEXED BY records_by_folder
                WHERE device = ?1 AND parent >= ?2 AND parent < ?3 ORDER BY parent LIMIT 1
            """
        case .recordFolderBetween:
            """
            SELECT parent FROM records INDEXED BY records_by_folder
                WHERE device = ?1 AND parent > ?2 AND parent < ?3 ORDER BY parent LIMIT 1
            """
        case .recordInFolder:
            "SELECT 1 FROM records INDEXED BY records_by_folder WHERE device = ?1 AND parent = ?2 LIMIT 1"
        case .recordInFolderRange:
            """
            SELECT 1 FROM records INDEXED BY records_by_folder
                WHERE device = ?1 AND parent >= ?2 AND parent < ?3 LIMIT 1
            """
        case .recordsOfRemoteSize:
            """
            SELECT remote_mtime, remote_precision FROM records INDEXED BY records_by_remote_size
                WHERE device = ?1 AND remote_size = ?2 AND remote_mtime > ?3 AND remote_mtime < ?4
            """
        case .recordWithDigestOfLocalSize:
            """
            SELECT 1 FROM records INDEXED BY records_with_digest_by_local_size
                WHERE device = ?1 AND local_size = ?2 AND digest IS NOT NULL LIMIT 1
            """
        case .cachedDigestsInFolder:
            """
            SELECT path, size, mtime_ns, inode, digest FROM hash_cache INDEXED BY hash_cache_by_folder
                WHERE parent = ?1
            """
        case .firstCacheFolderFrom:
            "SELECT parent FROM hash_cache INDEXED BY hash_cache_by_folder WHERE parent >= ?1 ORDER BY parent LIMIT 1"
        case .firstCacheFolderAfter:
            "SELECT parent FROM hash_cache INDEXED BY hash_cache_by_folder WHERE parent > ?1 ORDER BY parent LIMIT 1"
        case .deleteCachedDigestsInFolder:
            "DELETE FROM hash_cache INDEXED BY hash_cache_by_folder WHERE parent = ?1"
        }
    }

    /// The index the statement seeks.
    var index: String {
        switch self {
        case .recordsInFolder, .firstRecordFolderInRoot, .firstRecordFolder, .recordFolderBetween, .recordInFolder,
            .recordInFolderRange:
            "records_by_folder"
        case .recordsOfRemoteSize: "records_by_remote_size"
        case .recordWithDigestOfLocalSize: "records_with_digest_by_local_size"
        case .cachedDigestsInFolder, .firstCacheFolderFrom, .firstCacheFolderAfter, .deleteCachedDigestsInFolder:
            "hash_cache_by_folder"
        }
    }

    /// How many parameters the statement takes.
    var parameterCount: Int {
        switch self {
        case .cachedDigestsInFolder, .firstCacheFolderFrom, .firstCacheFolderAfter, .deleteCachedDigestsInFolder: 1
        case .recordsInFolder, .firstRecordFolderInRoot, .recordInFolder, .recordWithDigestOfLocalSize: 2
        case .firstRecordFolder, .recordFolderBetween, .recordInFolderRange: 3
        case .recordsOfRemoteSize: 4
        }
    }
}
