// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore
import SyncStore

/// The notes (stderr) for a command run on the tree of a shard without that shard: neither is
/// refused, but both are easy mistakes by hand (found by a first user of `--shard`).
enum ShardNote {
    /// `status` on a tree a sharded run wrote last, without `--shard` or with another index:
    /// the other devices show as never synced. Nil when there is nothing to say (no state, no
    /// shard recorded, the same index given, a state that cannot be read: status says that).
    static func status(localRoot: String, given: Shard?) -> String? {
        guard let store = try? StateStore.openExisting(localRoot: localRoot) else { return nil }
        defer { store.close() }
        guard let last = try? store.lastShard(), last.index != given?.index else { return nil }
        let what =
            given == nil
            ? "without --shard, its other shards' devices show as never synced: add --shard \(last)"
            : "shard \(given!)'s devices are not synced here"
        return "ftpsync: note: \(localRoot) was last synced as shard \(last); \(what)"
    }

    /// A run without `--shard` on a tree a sharded run wrote last: it synced every device there.
    static func unshardedRun(localRoot: String, treeShard: Shard) -> String {
        "ftpsync: note: \(localRoot) was last synced as shard \(treeShard), and this run had no --shard: it ran"
            + " every device of the configuration into it (give --shard \(treeShard) to keep to that shard)"
    }
}
