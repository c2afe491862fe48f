// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncStore

struct StateStoreTests {
    static func path(_ text: String) -> RelativePath {
        (try? RelativePath(validating: text)) ?? .root
    }

    /// Records covering every optional and granularity, sizes beyond Int64, and odd names.
    static let records: [FileRecord] = [
        FileRecord(
            path: path("a.txt"), remoteSize: 5, remoteModified: FileTime(seconds: 1_700_000_000, granularity: .second),
            localSize: 5, localModified: FileTime(seconds: 1_700_000_000.123456789, granularity: .exact),
            digest: "0123456789abcdef0123456789abcdef"),
        FileRecord(
            path: path("中文/照片 1.jpg"), remoteSize: nil, remoteModified: nil, localSize: 0,
            localModified: FileTime(seconds: -86_400.5, granularity: .exact), digest: nil),
        FileRecord(
            path: path("-dash/semi;colon's \"q\""), remoteSize: UInt64.max,
            remoteModified: FileTime(seconds: 1_600_000_000, granularity: .minute), localSize: UInt64(Int64.max) + 1,
            localModified: FileTime(seconds: 0, granularity: .day), digest: "ffffffffffffffffffffffffffffffff"),
        FileRecord(
            path: path("d/e/f"), remoteSize: 1, remoteModified: FileTime(seconds: 1e9, granularity: .day),
            localSize: 1, localModified: FileTime(seconds: 1e9 + 0.5, granularity: .second), digest: ""),
    ]

    @Test func createsTheDatabaseInWALModeWithTheSchemaVersion() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path + "/new/local")
        #expect(store.path == folder.path + "/new/local/.ftpsync/state.sqlite")
        #expect(FileManager.default.fileExists(atPath: store.path))
        #expect(try store.journalMode() == "wal")
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
    }

    @Test func recordsRoundTripEveryField() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        for record in Self.records { try store.upsertRecord(record, device: "cam") }
        try store.upsertRecord(Self.records[0], device: "other")
        store.close()

        let reopened = try StateStore.open(localRoot: folder.path)
        let loaded = try reopened.records(device: "cam")
        #expect(loaded.count == Self.records.count)
        for record in Self.records {
            #expect(loaded[record.path] == record)
            #expect(try reopened.record(path: record.path, device: "cam") == record)
        }
        #expect(try reopened.records(device: "other").count == 1)
        #expect(try reopened.records(device: "nobody").isEmpty)

        var changed = Self.records[0]
        changed.remoteSize = 99
        changed.digest = nil
        try reopened.upsertRecord(changed, device: "cam")
        try reopened.deleteRecord(path: Self.records[1].path, device: "cam")
        try reopened.deleteRecord(path: Self.path("never/there"), device: "cam")
        let after = try reopened.records(device: "cam")
        #expect(after[changed.path] == changed)
        #expect(after[Self.records[1].path] == nil)
        #expect(after.count == Self.records.count - 1)
    }

    @Test func partialsRoundTripPerDirection() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        let download = StoredPartial(
            transfer: PartialTransfer(
                path: Self.path("big/video.mp4"), remoteSize: 500_000_000,
                remoteModified: FileTime(seconds: 1_700_000_123, granularity: .minute), bytesDone: 123_456_789),
            tempName: "partial/cam/1a2b3c")
        let upload = StoredPartial(
            transfer: PartialTransfer(
                path: Self.path("big/video.mp4"), remoteSize: nil, remoteModified: nil, bytesDone: 7),
            direction: .push, tempName: ".video.mp4.ftpsync-part", localSize: 9_000,
            localModified: FileTime(seconds: 1_700_000_000.25, granularity: .exact))
        try store.setPartial(download, device: "cam")
        try store.setPartial(upload, device: "cam")
        #expect(try store.partials(device: "cam") == [download.transfer.path: download])
        #expect(try store.partials(device: "cam", direction: .push) == [upload.transfer.path: upload])
        #expect(try store.partialTransfers(device: "cam") == [download.transfer.path: download.transfer])
        #expect(try store.allPartialTempNames() == ["partial/cam/1a2b3c", ".video.mp4.ftpsync-part"])

        #expect(try store.updatePartialProgress(path: download.transfer.path, device: "cam", bytesDone: 200_000_000))
        #expect(!(try store.updatePartialProgress(path: Self.path("nope"), device: "cam", bytesDone: 1)))
        #expect(try store.partials(device: "cam")[download.transfer.path]?.transfer.bytesDone == 200_000_000)

        try store.removePartial(path: download.transfer.path, device: "cam")
        #expect(try store.partials(device: "cam").isEmpty)
        #expect(try store.partials(device: "cam", direction: .push).count == 1)
    }

    @Test func devicesLastSyncIdentityAndStats() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        #expect(try store.lastSync(device: "cam") == nil)
        #expect(try store.stats(device: "cam") == DeviceStats(files: 0, bytes: 0, partials: 0))
        let when = Date(timeIntervalSince1970: 1_735_787_045.25)
        try store.markSynced(device: "cam", at: when)
        try store.setIdentity("ftp://127.0.0.1:2121/DCIM", device: "cam")
        try store.markSynced(device: "cam", at: when.addingTimeInterval(60))
        try store.setIdentity("ftp://127.0.0.1:2121/", device: "door")
        #expect(try store.lastSync(device: "cam") == when.addingTimeInterval(60))
        #expect(try store.identity(device: "cam") == "ftp://127.0.0.1:2121/DCIM")
        #expect(try store.lastSync(device: "door") == nil)
        #expect(try store.devices().map(\.name) == ["cam", "door"])

        try store.upsertRecords(Array(Self.records[0...1]), device: "cam")
        try store.setPartial(
            StoredPartial(
                transfer: PartialTransfer(path: Self.path("x"), remoteSize: 1, remoteModified: nil, bytesDone: 0),
                tempName: "t"), device: "cam")
        #expect(try store.stats(device: "cam") == DeviceStats(files: 2, bytes: 5, partials: 1))

        try store.forgetDevice("cam")
        #expect(try store.stats(device: "cam") == DeviceStats(files: 0, bytes: 0, partials: 0))
        #expect(try store.deviceState("cam") == nil)
        #expect(try store.deviceState("door") != nil)
    }

    @Test func hashCacheSavesInBatchesAndReplaces() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        let rows = (0..<1000).map {
            CachedDigest(
                path: "cam/d\($0 % 10)/f\($0)", size: UInt64($0),
                mtimeNanoseconds: 1_700_000_000_000_000_000 + Int64($0),
                inode: UInt64.max - UInt64($0), digest: String(repeating: "a", count: 32))
        }
        try store.saveHashCache(upserts: rows)
        #expect(Set(try store.loadHashCache()) == Set(rows))
        var changed = rows[5]
        changed.digest = String(repeating: "b", count: 32)
        try store.saveHashCache(upserts: [changed], removals: [rows[6].path, "not/there"])
        let loaded = Set(try store.loadHashCache())
        #expect(loaded.count == 999)
        #expect(loaded.contains(changed))
        #expect(!loaded.contains(rows[6]))
        try store.replaceHashCache(Array(rows[0..<3]))
        #expect(Set(try store.loadHashCache()) == Set(rows[0..<3]))
    }

    @Test func transactionRollsBackOnThrowAndCommitsOtherwise() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        #expect(throws: Boom.self) {
            try store.transaction {
                try store.upsertRecord(Self.records[0], device: "cam")
                try store.markSynced(device: "cam", at: Date(timeIntervalSince1970: 5))
                throw Boom()
            }
        }
        #expect(try store.records(device: "cam").isEmpty)
        #expect(try store.lastSync(device: "cam") == nil)

        // A nested failure rolls back only its own part.
        try store.transaction {
            try store.upsertRecord(Self.records[0], device: "cam")
            do {
                try store.transaction {
                    try store.upsertRecord(Self.records[1], device: "cam")
                    throw Boom()
                }
            } catch is Boom {}
            try store.upsertRecord(Self.records[2], device: "cam")
        }
        #expect(Set(try store.records(device: "cam").keys) == [Self.records[0].path, Self.records[2].path])
        let value = try store.transaction { 42 }
        #expect(value == 42)
    }

    @Test func manyThreadsShareOneStore() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<50 {
                let record = FileRecord(
                    path: Self.path("w\(worker)/f\(i)"), remoteSize: UInt64(i), remoteModified: nil,
                    localSize: UInt64(i),
                    localModified: FileTime(seconds: Double(i), granularity: .exact), digest: nil)
                try? store.transaction { try store.upsertRecord(record, device: "cam") }
            }
        }
        #expect(try store.records(device: "cam").count == 200)
    }

    @Test func closedStoreAndBadFilesGiveTypedErrors() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        store.close()
        store.close()
        #expect(throws: StoreError.closed) { try store.records(device: "cam") }

        try Data("this is not a database, just text that is long enough to be a header".utf8)
            .write(to: URL(fileURLWithPath: folder.path + "/junk.sqlite"))
        do {
            _ = try StateStore(file: folder.path + "/junk.sqlite")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("file is not a database"))
        }
        // A folder where .ftpsync should be made: a file is in the way.
        try Data().write(to: URL(fileURLWithPath: folder.path + "/blocked"))
        #expect(throws: StoreError.self) { try StateStore.open(localRoot: folder.path + "/blocked") }
    }

    @Test func newerSchemaIsRefused() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        try store.transaction {
            try store.connection.execute("UPDATE schema_version SET version = 99")
        }
        store.close()
        #expect(throws: StoreError.newerSchema(found: 99, supported: StateStore.schemaVersion)) {
            try StateStore.open(localRoot: folder.path)
        }
    }
}
