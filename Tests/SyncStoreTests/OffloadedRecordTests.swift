// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncStore

/// Issue 19, offload: a record marked offloaded stays so across runs, and a new download of
/// its path (a new record) clears the mark.
struct OffloadedRecordTests {
    private func record(_ path: String) throws -> FileRecord {
        FileRecord(
            path: try RelativePath(validating: path), remoteSize: 10,
            remoteModified: FileTime(seconds: 600, granularity: .minute), localSize: 10,
            localModified: FileTime(seconds: 1000, granularity: .exact), digest: nil)
    }

    @Test func theOffloadedMarkIsKeptUntilTheRecordIsReplaced() throws {
        let folder = try TempFolder()
        var store = try StateStore.open(localRoot: folder.path)
        let a = try record("DCIM/a.jpg")
        try store.upsertRecords([a, try record("DCIM/b.jpg")], device: "cam")
        try store.markOffloaded(path: a.path, device: "cam")
        try store.markOffloaded(path: a.path, device: "other")
        store.close()

        store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.record(path: a.path, device: "cam")?.offloaded == true)
        #expect(try store.records(device: "cam")[try RelativePath(validating: "DCIM/b.jpg")]?.offloaded == false)
        let folderRecords = try store.records(device: "cam", folder: a.path.parent)
        #expect(folderRecords.filter(\.offloaded).map(\.path) == [a.path] && folderRecords.count == 2)
        try store.upsertRecord(a, device: "cam")
        #expect(try store.record(path: a.path, device: "cam")?.offloaded == false)
    }

    @Test func anOlderStateGainsTheColumnUnmarked() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(12, in: folder.path)  // before `records.offloaded` (13)
        try connection.execute(
            """
            INSERT INTO records (device, path, remote_size, remote_mtime, remote_precision, local_size, local_mtime,
                local_precision, parent) VALUES ('cam', 'a.jpg', 10, 600, 2, 10, 1000, 3, '')
            """)
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.record(path: try RelativePath(validating: "a.jpg"), device: "cam")?.offloaded == false)
    }
}
