// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncStore

/// Schema 7: the digest cache read and pruned one folder at a time, and the records asked by
/// local size (issue 17: a push plans folder by folder).
struct FolderDigestStoreTests {
    private static func row(_ path: String) -> CachedDigest {
        CachedDigest(path: path, size: 1, mtimeNanoseconds: 2, inode: 3, digest: "d-" + path)
    }

    private static let paths = ["top", "cam/1", "cam/2", "cam/a/3", "cam/a/b/4", "cam!/5", "camera/6", "other/7"]

    @Test func theDigestsOfOneFolderAreThoseDirectlyInIt() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        try store.saveHashCache(upserts: Self.paths.map(Self.row))
        #expect(try store.cachedDigests(inFolder: "cam").map(\.path).sorted() == ["cam/1", "cam/2"])
        #expect(try store.cachedDigests(inFolder: "cam/a").map(\.path) == ["cam/a/3"])
        #expect(try store.cachedDigests(inFolder: "").map(\.path) == ["top"])
        #expect(try store.cachedDigests(inFolder: "cam/a/b").first == Self.row("cam/a/b/4"))
        #expect(try store.cachedDigests(inFolder: "nope").isEmpty)
    }

    @Test func theFoldersNotSeenArePrunedBelowThePrefixOnly() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        try store.saveHashCache(upserts: Self.paths.map(Self.row))
        let removed = try store.pruneCachedDigests(below: "cam") { $0 == "cam" || $0 == "cam/a/b" }
        #expect(removed == 1)
        #expect(
            try store.loadHashCache().map(\.path).sorted() == [
                "cam!/5", "cam/1", "cam/2", "cam/a/b/4", "camera/6", "other/7", "top",
            ])
        #expect(try store.pruneCachedDigests(below: "") { $0 == "" } == 6)
        #expect(try store.loadHashCache().map(\.path) == ["top"])
    }

    @Test func aNewLocalFileCanBeAMoveOnlyWhenARecordWithADigestHasItsSize() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        let time = FileTime(seconds: 1e9, granularity: .exact)
        for (path, size, digest) in [("a", UInt64(10), "d"), ("b", 20, nil), ("c", UInt64.max, "e")] {
            try store.upsertRecord(
                FileRecord(
                    path: try RelativePath(validating: path), remoteSize: size, remoteModified: time, localSize: size,
                    localModified: time, digest: digest), device: "cam")
        }
        #expect(try store.hasRecord(device: "cam", localSize: 10))
        #expect(try !store.hasRecord(device: "cam", localSize: 20))
        #expect(try store.hasRecord(device: "cam", localSize: UInt64.max))
        #expect(try !store.hasRecord(device: "cam", localSize: 11))
        #expect(try !store.hasRecord(device: "other", localSize: 10))
    }

    @Test func aVersionSixStateGetsTheFolderOfEveryCachedDigest() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(6, in: folder.path)
        for path in Self.paths {
            try connection.query(
                "INSERT INTO hash_cache (path, size, mtime_ns, inode, digest) VALUES (?1, 1, 2, 3, 'x')", [.text(path)])
        }
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
        #expect(try store.cachedDigests(inFolder: "cam").map(\.path).sorted() == ["cam/1", "cam/2"])
        #expect(try store.cachedDigests(inFolder: "cam/a/b").map(\.path) == ["cam/a/b/4"])
        #expect(try store.cachedDigests(inFolder: "").map(\.path) == ["top"])
    }

    @Test func aVersionSevenStateKeepsOnlyTheRecordsWithADigestInItsSizeIndex() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(7, in: folder.path)
        for (path, digest) in [("a/1", "'x'"), ("a/2", "NULL")] {
            try connection.query(
                """
                INSERT INTO records (device, path, remote_size, remote_mtime, remote_precision, local_size,
                    local_mtime, local_precision, digest, parent) VALUES ('cam', ?1, 1, 1e9, 2, ?2, 1e9, 3, \(digest), 'a')
                """, [.text(path), .integer(path == "a/1" ? 10 : 20)])
        }
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
        var indexes: [String] = []
        try store.locked { () throws(StoreError) in
            try store.connection.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records'") {
                indexes.append($0.text(0))
            }
        }
        #expect(indexes.contains("records_with_digest_by_local_size") && !indexes.contains("records_by_local_size"))
        #expect(try store.hasRecord(device: "cam", localSize: 10))
        #expect(try !store.hasRecord(device: "cam", localSize: 20))
    }
}
