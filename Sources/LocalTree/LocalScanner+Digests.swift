// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Digests for the files a scan found, through a digest cache: the whole tree's scan and one
/// folder's (issue 17: a push reads the cache of one folder at a time) share it.
extension LocalScanner {
    /// What `digest(_:identities:root:cache:cachePrefix:needsDigest:notes:)` did.
    struct Hashed {
        /// The cache keys of every file seen.
        var seen = Set<String>()
        /// Files hashed, bytes read doing it, files whose digest the cache had.
        var files = 0
        var bytes: UInt64 = 0
        var cached = 0
    }

    /// The full path of `path` below `root`.
    static func fullPath(_ path: RelativePath, root: String) -> String {
        root.hasSuffix("/") ? root + path.string : root + "/" + path.string
    }

    /// Gives the files of `entries` their digests: from `cache` when a file's size, mtime and
    /// inode are unchanged, hashed otherwise (on `hashThreads` threads) when `needsDigest` says
    /// so, and stored in `cache`; a file that cannot be hashed gets a note.
    /// - Parameter identities: the identity of `entries[i]` (nil: not a file).
    func digest(
        _ entries: inout [SnapshotEntry], identities: (Int) -> FileIdentity?, root: String, cache: inout HashCache,
        cachePrefix: String, needsDigest needed: (SnapshotEntry) -> Bool, notes: inout [String]
    ) -> Hashed {
        var hashed = Hashed()
        var jobs: [HashJob] = []
        hashed.seen.reserveCapacity(entries.count)
        for index in entries.indices where entries[index].kind == .file {
            let path = entries[index].path
            guard let identity = identities(index) else { continue }
            let key = cachePrefix.isEmpty ? path.string : cachePrefix + "/" + path.string
            hashed.seen.insert(key)
            if let digest = cache.digest(
                path: key, size: identity.size, mtimeNanoseconds: identity.mtimeNanoseconds, inode: identity.inode)
            {
                entries[index].digest = digest
                hashed.cached += 1
            } else if needed(entries[index]) {
                jobs.append(
                    HashJob(index: index, fullPath: Self.fullPath(path, root: root), key: key, identity: identity))
            }
        }
        let outcomes = FileHashing.run(jobs, threads: hashThreads)
        hashed.files = jobs.count
        for (job, outcome) in zip(jobs, outcomes) {
            switch outcome {
            case .digest(let digest, let bytes):
                entries[job.index].digest = digest
                hashed.bytes += bytes
                cache.store(
                    CachedDigest(
                        path: job.key, size: job.identity.size, mtimeNanoseconds: job.identity.mtimeNanoseconds,
                        inode: job.identity.inode, digest: digest))
            case .changed(let bytes):
                hashed.bytes += bytes
                notes.append("\(entries[job.index].path): changed while it was being hashed; no digest")
            case .failed(let error):
                notes.append("\(entries[job.index].path): \(error)")
            }
        }
        return hashed
    }

    /// Scans one folder of `root` (`scan(root:folder:)`) and gives its files their digests
    /// through `cache`, which holds the cached digests of that folder only: afterwards it holds
    /// the digests of every file seen there, under `cachePrefix + "/" + relative path`, and
    /// forgets the others (`pendingRemovals`: the folder's files the scan no longer saw).
    /// - Parameter needsDigest: a file it answers false for is not hashed now when the cache has
    ///   no digest for it (its digest stays nil).
    /// - Throws: `LocalFileError` when the root cannot be opened as a folder (a folder below it
    ///   that cannot be read is unknown, with a note).
    public func scan(
        root: String, folder: RelativePath, cache: inout HashCache, cachePrefix: String,
        needsDigest: (SnapshotEntry) -> Bool
    ) throws(LocalFileError) -> LocalScan {
        var scan = try scan(root: root, folder: folder)
        var entries = Array(scan.snapshot.entries)
        let identities = entries.map { scan.identities[$0.path] }
        let hashed = digest(
            &entries, identities: { identities[$0] }, root: root, cache: &cache, cachePrefix: cachePrefix,
            needsDigest: needsDigest, notes: &scan.notes)
        cache.removeAll(under: "", except: hashed.seen)
        var snapshot = Snapshot(entries, unknown: scan.snapshot.unknown)
        snapshot.hiddenUnknown = scan.snapshot.hiddenUnknown
        snapshot.leftOut = scan.snapshot.leftOut
        scan.snapshot = snapshot
        scan.hashedFiles = hashed.files
        scan.hashedBytes = hashed.bytes
        scan.cachedFiles = hashed.cached
        return scan
    }
}
