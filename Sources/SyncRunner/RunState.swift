// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import SyncStore

/// The run lock and the state database of one local tree, held for the length of a run.
struct RunState {
    /// The lock; nil for a dry run, which takes none.
    let lock: RunLock?
    /// The state; nil for a dry run on a tree that has none yet.
    let store: StateStore?

    /// Takes the lock and opens (or creates) the state. A dry run takes no lock and creates
    /// nothing: it reads the state only when there is one.
    /// - Throws: `RunLockHeld` when another run holds the lock; `RunLockError.failed` when the
    ///   lock file cannot be made; `StoreError` when the state cannot be opened.
    static func open(localRoot: String, dryRun: Bool) throws -> RunState {
        if dryRun {
            return RunState(lock: nil, store: try StateStore.openExisting(localRoot: localRoot))
        }
        let lock: RunLock
        do {
            lock = try RunLock.acquire(localRoot: localRoot)
        } catch {
            guard case .held(_, let pid) = error else { throw error }
            throw RunLockHeld(localRoot: localRoot, pid: pid)
        }
        return RunState(lock: lock, store: try StateStore.open(localRoot: localRoot))
    }
}

extension RunState {
    /// Checks that this tree's state was not last written by another shard index than
    /// `shard`'s, then (a real run) records `shard` as its writer. A run without a shard, or on
    /// a tree with no state, checks nothing; it leaves the record as it was.
    /// - Returns: the shard that wrote the state last, as found; nil when none did.
    /// - Throws: `ShardMismatchError` when another shard index wrote the state last; `StoreError`
    ///   when SQLite fails.
    @discardableResult
    func claim(for shard: Shard?, localRoot: String, dryRun: Bool) throws -> Shard? {
        guard let store else { return nil }
        let last = try store.lastShard()
        guard let shard else { return last }
        if let last, last.index != shard.index {
            throw ShardMismatchError(localRoot: localRoot, recorded: last, given: shard)
        }
        if !dryRun { try store.setLastShard(shard, at: Date()) }
        return last
    }
}

/// A sharded run on a local tree another shard of the fleet wrote last (a usage error, exit 2):
/// each shard has its own local folder, or two shards' devices would share one state.
public struct ShardMismatchError: Error, Sendable, CustomStringConvertible {
    /// The local tree's root.
    public let localRoot: String
    /// The shard whose run last wrote its state.
    public let recorded: Shard
    /// This run's shard.
    public let given: Shard

    /// One line: what was found, and the fix.
    public var description: String {
        "\(localRoot) was last synced as shard \(recorded) of its fleet, and this run is shard \(given): give each"
            + " shard its own local folder (a volume per shard, or `local:` per host), or run shard"
            + " \(recorded.index)/\(given.count) here"
    }
}
