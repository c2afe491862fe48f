// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

extension StateStore {
    /// The shard (`--shard K/N`) whose run last wrote this tree's state; nil when no sharded run
    /// has (or the stored values are no valid shard).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func lastShard() throws(StoreError) -> Shard? {
        try locked { () throws(StoreError) -> Shard? in
            var found: Shard?
            try connection.query("SELECT shard_index, shard_count FROM tree_shard LIMIT 1") { row in
                found = Shard(
                    index: Int(clamping: row.integer(0)), count: Int(clamping: row.integer(1)))
            }
            return found
        }
    }

    /// Records `shard` as the one whose run writes this tree, at `time` (UTC).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setLastShard(_ shard: Shard, at time: Date) throws {
        try transaction {
            try connection.execute("DELETE FROM tree_shard")
            try connection.query(
                "INSERT INTO tree_shard (shard_index, shard_count, written) VALUES (?1, ?2, ?3)",
                [.integer(Int64(shard.index)), .integer(Int64(shard.count)), .real(time.timeIntervalSince1970)])
        }
    }
}
