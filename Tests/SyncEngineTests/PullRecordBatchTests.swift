// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import SyncStore
import Testing

@testable import SyncEngine

struct PullRecordBatchTests {
    private func record(_ index: Int) throws -> FileRecord {
        FileRecord(
            path: try RelativePath(validating: "d/f\(index)"), remoteSize: 4, remoteModified: nil, localSize: 4,
            localModified: FileTime(seconds: 1_700_000_000, granularity: .exact), digest: nil)
    }

    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "batch-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// (records added, limit, records committed before the final flush)
    @Test(arguments: [(3, 10, 0), (10, 10, 10), (25, 10, 20), (1, 1, 1)])
    func commitsWhenTheLimitIsReachedAndAtTheFlush(added: Int, limit: Int, beforeFlush: Int) throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try StateStore.open(localRoot: root)
        // A clock that never moves: only the count makes a batch due.
        let batch = PullRecordBatch(store: store, device: "cam", folders: [root], limit: limit, now: { 0 })
        for index in 0..<added { batch.add(try record(index)) }
        #expect(try store.records(device: "cam").count == beforeFlush)
        batch.flush()
        #expect(try store.records(device: "cam").count == added)
        #expect(batch.notes.isEmpty)
    }

    @Test func aBatchIsDueAfterItsInterval() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try StateStore.open(localRoot: root)
        let clock = ManualClock()
        let batch = PullRecordBatch(
            store: store, device: "cam", folders: [root], limit: 1_000, interval: 0.5, now: { clock.now })
        batch.add(try record(0))
        clock.now = 400_000_000
        batch.add(try record(1))
        #expect(try store.records(device: "cam").isEmpty)
        clock.now = 500_000_000
        batch.add(try record(2))
        #expect(try store.records(device: "cam").count == 3)
    }

    @Test func theCommitDropsThePartialRowsOfItsFiles() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try StateStore.open(localRoot: root)
        let stale = PartialTransfer(path: try record(0).path, remoteSize: 9, remoteModified: nil, bytesDone: 3)
        try store.setPartial(StoredPartial(transfer: stale, tempName: root + "/x"), device: "cam")
        let batch = PullRecordBatch(store: store, device: "cam", folders: [root])
        batch.add(try record(0))
        batch.flush()
        #expect(try store.partials(device: "cam").isEmpty)
        #expect(try store.record(path: try record(0).path, device: "cam") != nil)
    }

    @Test func aFailedCommitIsNotedAndLeavesNothingHalfRecorded() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try StateStore.open(localRoot: root)
        let batch = PullRecordBatch(store: store, device: "cam", folders: [root])
        batch.add(try record(0))
        store.close()
        batch.flush()
        #expect(batch.notes.count == 1)
        #expect(batch.notes.first?.contains("the next run adopts them") == true)
    }
}

/// A clock the test moves by hand (nanoseconds).
private final class ManualClock: @unchecked Sendable {
    var now: UInt64 = 0
}
