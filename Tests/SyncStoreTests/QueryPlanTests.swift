// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncStore

/// Every statement a walk runs per folder or per new file is an index seek (issue 17): SQLite
/// once read one folder's records by scanning all the device's records, which made a no-op
/// pull of 1,000,000 files take minutes instead of seconds.
struct QueryPlanTests {
    /// The plan's steps (`EXPLAIN QUERY PLAN`'s detail column) for `query` in a fresh store.
    private func plan(of query: FolderQuery, in store: StateStore) throws -> [String] {
        var steps: [String] = []
        let values = (0..<query.parameterCount).map { _ in SQLValue.text("d00001") }
        try store.locked { () throws(StoreError) in
            try store.connection.query("EXPLAIN QUERY PLAN " + query.sql, values) { row in steps.append(row.text(3)) }
        }
        return steps
    }

    @Test(arguments: FolderQuery.allCases)
    func eachFolderQuerySeeksItsIndex(query: FolderQuery) throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        let steps = try plan(of: query, in: store)
        #expect(!steps.isEmpty)
        for step in steps { #expect(Self.seeks(step, query.index), "\(query): \(step)") }
    }

    /// Whether the plan step `step` seeks `index` on more than the device: a search, not a
    /// scan, not a sort, and not `(device=?)` alone (every record of the device).
    private static func seeks(_ step: String, _ index: String) -> Bool {
        step.hasPrefix("SEARCH") && step.contains("INDEX \(index) (") && !step.hasSuffix("(device=?)")
            && !step.contains("TEMP B-TREE")
    }

    /// The statements as they were before `INDEXED BY`: the planner's own choice for the two
    /// that scanned, kept here so that the check above is seen to catch them.
    @Test func thePlannersOwnChoiceScannedTheDevice() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        let unforced = [
            (FolderQuery.recordsInFolder.sql.replacingOccurrences(of: "INDEXED BY records_by_folder ", with: ""), 2),
            ("SELECT 1 FROM records WHERE device = ?1 AND (parent = ?2 OR (parent >= ?3 AND parent < ?4)) LIMIT 1", 4),
        ]
        for (sql, count) in unforced {
            var steps: [String] = []
            try store.locked { () throws(StoreError) in
                try store.connection.query("EXPLAIN QUERY PLAN " + sql, (0..<count).map { _ in .text("d") }) { row in
                    steps.append(row.text(3))
                }
            }
            #expect(!steps.allSatisfy { Self.seeks($0, "records_by_folder") }, "\(steps)")
        }
    }
}

/// A state whose index was dropped (by hand, by another tool) gets it back when opened: every
/// walk's statement is forced onto its index and would fail without it.
struct MissingIndexTests {
    @Test func aDroppedIndexIsMadeAgainOnOpen() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        try store.locked { () throws(StoreError) in
            for name in StateStore.indexes.keys { try store.connection.execute("DROP INDEX \(name)") }
        }
        store.close()
        let reopened = try StateStore.open(localRoot: folder.path)
        defer { reopened.close() }
        _ = try reopened.records(device: "cam", folder: .root)
        _ = try reopened.cachedDigests(inFolder: "")
        #expect(try !reopened.hasRecord(device: "cam", localSize: 1))
    }

    /// Issue 24: a state whose tree_shard table was dropped (a breaker did it with sqlite3)
    /// failed every sharded run ("no such table"); it is made again on open.
    @Test func aDroppedShardTableIsMadeAgainOnOpen() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        let shard = try #require(Shard(index: 1, count: 4))
        try store.setLastShard(shard, at: Date())
        try store.locked { () throws(StoreError) in try store.connection.execute("DROP TABLE tree_shard") }
        store.close()
        let reopened = try StateStore.open(localRoot: folder.path)
        defer { reopened.close() }
        #expect(try reopened.lastShard() == nil)
        try reopened.setLastShard(shard, at: Date())
        #expect(try reopened.lastShard() == shard)
    }

    /// A version 7 state that lacks the index version 8 drops still migrates.
    @Test func aVersionSevenStateWithoutItsSizeIndexMigrates() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(7, in: folder.path)
        try connection.execute("DROP INDEX records_by_local_size")
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
    }
}
