// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore

/// The notes (stderr) for a command run on the tree of a shard without that shard: neither is
/// refused, but both are easy mistakes by hand (found by a first user of `--shard`).
enum ShardNote {
    /// `status` on a tree a sharded run wrote last (`treeShard`), without `--shard` or with
    /// another index: the other devices show as never synced. Nil when there is nothing to say
    /// (no shard recorded, or the same index given).
    static func status(localRoot: String, treeShard: Shard?, given: Shard?) -> String? {
        guard let last = treeShard, last.index != given?.index else { return nil }
        let what =
            given.map { "shard \($0)'s devices are not synced here" }
            ?? "without --shard, its other shards' devices show as never synced: add --shard \(last)"
        return "ftpsync: note: \(localRoot) was last synced as shard \(last); \(what)"
    }

    /// A run without `--shard` on a tree a sharded run wrote last: it synced every device there.
    static func unshardedRun(localRoot: String, treeShard: Shard) -> String {
        "ftpsync: note: \(localRoot) was last synced as shard \(treeShard), and this run had no --shard: it ran"
            + " every device of the configuration into it (give --shard \(treeShard) to keep to that shard)"
    }
}
