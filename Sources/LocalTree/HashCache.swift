// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Digests of local files, reused while a file's (path, size, mtime, inode) stay the same, so
/// unchanged files are never read again.
///
/// A value type: load it from the state store, pass it `inout` to a scan, then save what changed
/// (`pendingUpserts`, `pendingRemovals`) and call `markSaved()`.
public struct HashCache: Sendable {
    private var entries: [String: CachedDigest]
    private var upserted: Set<String> = []
    private var removed: Set<String> = []

    /// An empty cache.
    public init() {
        entries = [:]
    }

    /// A cache holding `entries` (of two entries for one path the last wins); nothing pending.
    public init(_ entries: [CachedDigest]) {
        var map: [String: CachedDigest] = [:]
        map.reserveCapacity(entries.count)
        for entry in entries { map[entry.path] = entry }
        self.entries = map
    }

    /// Number of remembered digests.
    public var count: Int { entries.count }

    /// Every remembered digest, in no particular order.
    public var allEntries: [CachedDigest] { Array(entries.values) }

    /// The remembered digest of `path` if its size, mtime (ns) and inode are still those given.
    public func digest(path: String, size: UInt64, mtimeNanoseconds: Int64, inode: UInt64) -> String? {
        guard let entry = entries[path], entry.size == size, entry.mtimeNanoseconds == mtimeNanoseconds,
            entry.inode == inode
        else { return nil }
        return entry.digest
    }

    /// The entry remembered for `path`, whatever its key fields.
    public func entry(path: String) -> CachedDigest? { entries[path] }

    /// Remembers `entry` (replacing any entry of its path) and marks it to be saved.
    public mutating func store(_ entry: CachedDigest) {
        if entries[entry.path] == entry { return }
        entries[entry.path] = entry
        upserted.insert(entry.path)
        removed.remove(entry.path)
    }

    /// Forgets `path` and marks its removal to be saved.
    public mutating func remove(path: String) {
        guard entries.removeValue(forKey: path) != nil else { return }
        upserted.remove(path)
        removed.insert(path)
    }

    /// Forgets every path equal to `prefix` or under `prefix/` (every path when `prefix` is "")
    /// that is not in `keep`; returns how many were forgotten.
    @discardableResult
    public mutating func removeAll(under prefix: String, except keep: Set<String>) -> Int {
        let folder = prefix.isEmpty ? "" : prefix + "/"
        let doomed = entries.keys.filter { key in
            (prefix.isEmpty || key == prefix || key.hasPrefix(folder)) && !keep.contains(key)
        }
        for key in doomed { remove(path: key) }
        return doomed.count
    }

    /// Entries stored or changed since the cache was loaded (or last `markSaved()`).
    public var pendingUpserts: [CachedDigest] { upserted.compactMap { entries[$0] } }

    /// Paths forgotten since the cache was loaded (or last `markSaved()`).
    public var pendingRemovals: [String] { Array(removed) }

    /// True when something changed since the cache was loaded (or last `markSaved()`).
    public var hasPendingChanges: Bool { !upserted.isEmpty || !removed.isEmpty }

    /// Declares the pending changes saved.
    public mutating func markSaved() {
        upserted.removeAll()
        removed.removeAll()
    }
}
