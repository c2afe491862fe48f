// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore
import SyncStore

/// What a push's folder walk (`PushWalk`) reads: one local folder at a time, scanned with its
/// digests through the state's digest cache (that folder's rows read, written back and pruned
/// at once), the records of one folder from the state, and the device's listing (listed whole
/// before the walk, as today, and served by folder).
final class PushFolderSource: PushWalkSource {
    private let scanner: LocalScanner
    private let deviceRoot: String
    /// The device folder relative to the tree root: the key prefix of its digests in the cache.
    private let cachePrefix: String
    private let store: StateStore?
    private let device: String
    /// False for a dry run: the digest cache is read, never written.
    private let savesDigests: Bool
    /// The device's listings; nil when its remote root is still to be made (nothing listed).
    private let listings: RemoteWalk?
    /// The root's listing, read before the walk (it tells whether the remote root exists).
    private var root: FolderListing?
    /// Records the upload reconciler settled this run (a dry run does not store them).
    private let settled: [RelativePath: FileRecord]
    /// The records of the folder read last (its scan asks for them, then the walk).
    private var lastRecords: (folder: RelativePath, records: RecordTable)?
    /// The cache folders scanned (the walk may scan a folder twice: its findings count once).
    private var scanned = Set<String>()
    /// What the scans found: notes, names skipped, folders that could not be read.
    private(set) var notes: [String] = []
    private(set) var skipped: [SkippedEntry] = []
    private(set) var unreadable: [RelativePath: String] = [:]
    /// File identities and records of the folders read that are the last one or above it.
    private var identities: [RelativePath: PathTable<FileIdentity>] = [:]
    private var folderRecords: [RelativePath: RecordTable] = [:]

    /// A source over the local folder `deviceRoot` and the device's listings `listings`, whose
    /// root listing `root` was read already (`listings` nil: the device has no such folder yet,
    /// and lists nothing).
    init(
        scanner: LocalScanner, deviceRoot: String, cachePrefix: String, store: StateStore?, device: String,
        savesDigests: Bool, listings: RemoteWalk?, root: FolderListing, settled: [RelativePath: FileRecord]
    ) {
        self.scanner = scanner
        self.deviceRoot = deviceRoot
        self.cachePrefix = cachePrefix
        self.store = store
        self.device = device
        self.savesDigests = savesDigests
        self.listings = listings
        self.root = root
        self.settled = settled
    }

    /// The cache key of the local path `path` (`LocalScanner.scan(root:cache:cachePrefix:)`).
    private func cacheKey(_ path: RelativePath) -> String {
        if cachePrefix.isEmpty { return path.string }
        return path.isRoot ? cachePrefix : cachePrefix + "/" + path.string
    }

    func localFolder(_ folder: RelativePath) throws -> Snapshot {
        let key = cacheKey(folder)
        var cache = HashCache(try store?.cachedDigests(inFolder: key) ?? [])
        let recorded = Set(try records(in: folder).map(\.path))
        var sizes: [UInt64: Bool] = [:]
        // A file is hashed now when its digest can matter: a record to compare it with, or a
        // record of its size that a move could come from. The others are hashed as they upload.
        let scan = try scanner.scan(root: deviceRoot, folder: folder, cache: &cache, cachePrefix: cachePrefix) {
            entry in
            guard !recorded.contains(entry.path) else { return true }
            guard let size = entry.size else { return false }
            if let known = sizes[size] { return known }
            // A failed question costs a hash, never a missed move.
            let answer = (try? self.hasRecord(localSize: size)) ?? true
            sizes[size] = answer
            return answer
        }
        if savesDigests, let store, cache.hasPendingChanges {
            try store.saveHashCache(upserts: cache.pendingUpserts, removals: cache.pendingRemovals)
        }
        identities = identities.filter { $0.key == folder || $0.key.isAncestor(of: folder) }
        identities[folder] = scan.identities
        guard scanned.insert(key).inserted else { return scan.snapshot }
        notes += scan.notes
        skipped += scan.skipped
        unreadable.merge(scan.unreadable) { first, _ in first }
        return scan.snapshot
    }

    /// The identity the scan saw of the local file at `path`, while its folder is the one being
    /// planned (or above it): the push executor hashes an upload's file only as it was seen. And
    /// the record of `path`: the walk's while it holds the folder, else (an action planned at
    /// the end: a rename, a delete, a held upload) the state's.
    /// - Throws: `StoreError` when the state cannot be read.
    func seen(_ path: RelativePath) throws -> (FileIdentity?, FileRecord?) {
        let identity = identities[path.parent]?[path]
        if let held = folderRecords[path.parent] { return (identity, held[path]) }
        if let found = settled[path] { return (identity, found) }
        return (identity, try store?.record(path: path, device: device))
    }

    /// Removes the cached digests of the device's folders the walk did not scan (gone, excluded,
    /// unreadable); nothing in a dry run.
    /// - Throws: `StoreError` when the state cannot be written.
    func pruneDigests() throws {
        guard savesDigests, let store else { return }
        try store.pruneCachedDigests(below: cachePrefix) { self.scanned.contains($0) }
    }

    func listing(of folder: RelativePath) throws -> FolderListing {
        if folder.isRoot, let root {
            self.root = nil
            return root
        }
        return try listings?.listing(of: folder) ?? FolderListing(entries: [])
    }

    func records(in folder: RelativePath) throws -> RecordTable {
        if let lastRecords, lastRecords.folder == folder { return lastRecords.records }
        var records = try store?.records(device: device, folder: folder) ?? RecordTable()
        let here = settled.values.filter { $0.path.parent == folder }
        if !here.isEmpty {
            // The table keeps the last record of a path: the settled one.
            records = RecordTable(Array(records) + here.sorted { $0.path < $1.path })
        }
        lastRecords = (folder, records)
        folderRecords = folderRecords.filter { $0.key == folder || $0.key.isAncestor(of: folder) }
        folderRecords[folder] = records
        return records
    }

    func recordFolders(in folder: RelativePath) throws -> [RelativePath] {
        try store?.recordFolders(device: device, in: folder) ?? []
    }

    func hasRecords(below folder: RelativePath) throws -> Bool {
        if settled.keys.contains(where: { folder.isAncestor(of: $0) }) { return true }
        return try store?.hasRecords(device: device, below: folder) ?? false
    }

    func hasRecord(localSize size: UInt64) throws -> Bool {
        if settled.values.contains(where: { $0.digest != nil && $0.localSize == size }) { return true }
        return try store?.hasRecord(device: device, localSize: size) ?? false
    }
}
