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
        try FileManager.default.createDirectory(atPath: folder.path + "/.ftpsync", withIntermediateDirectories: true)
        let connection = try SQLiteConnection(path: folder.path + "/.ftpsync/state.sqlite")
        try connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for version in 0..<6 {
            for sql in StateStore.migrations[version] { try connection.execute(sql) }
        }
        try connection.execute("INSERT INTO schema_version (version) VALUES (6)")
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
}
