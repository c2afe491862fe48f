// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

/// `LocalScanner.scan(root:folder:cache:cachePrefix:needsDigest:)`: one folder's files get the
/// digests the whole scan gives them, through a cache holding that folder's rows only.
struct FolderDigestTests {
    @Test func aFolderGetsTheDigestsOfTheWholeScan() throws {
        let tree = try TempTree()
        try tree.write("top.txt", "top")
        try tree.write("a/one.jpg", "one")
        try tree.write("a/two.jpg", "two")
        try tree.write("a/b/deep.mov", "deep")
        var wholeCache = HashCache()
        let whole = try LocalScanner().scan(root: tree.path, cache: &wholeCache, cachePrefix: "cam")
        var cache = HashCache()
        let folder = try RelativePath(validating: "a")
        let one = try LocalScanner().scan(
            root: tree.path, folder: folder, cache: &cache, cachePrefix: "cam", needsDigest: { _ in true })
        #expect(one.snapshot.entries.map(\.path.string) == ["a/b", "a/one.jpg", "a/two.jpg"])
        for entry in one.snapshot.entries where entry.kind == .file {
            #expect(entry.digest != nil)
            #expect(entry.digest == whole.snapshot[entry.path]?.digest)
        }
        #expect(one.hashedFiles == 2)
        #expect(Set(cache.pendingUpserts.map(\.path)) == ["cam/a/one.jpg", "cam/a/two.jpg"])
    }

    @Test func cachedDigestsAreReusedAndTheFolderGoneFilesForgotten() throws {
        let tree = try TempTree()
        try tree.write("a/one.jpg", "one")
        let folder = try RelativePath(validating: "a")
        var cache = HashCache()
        let first = try LocalScanner().scan(
            root: tree.path, folder: folder, cache: &cache, cachePrefix: "", needsDigest: { _ in true })
        var rows = cache.allEntries
        rows.append(CachedDigest(path: "a/gone.jpg", size: 1, mtimeNanoseconds: 1, inode: 1, digest: "00"))
        var again = HashCache(rows)
        let second = try LocalScanner().scan(
            root: tree.path, folder: folder, cache: &again, cachePrefix: "", needsDigest: { _ in true })
        #expect(second.hashedFiles == 0)
        #expect(second.cachedFiles == 1)
        #expect(second.snapshot.entries.first?.digest == first.snapshot.entries.first?.digest)
        #expect(again.pendingRemovals == ["a/gone.jpg"])
        #expect(again.pendingUpserts.isEmpty)
    }

    @Test func aFileNotNeededIsLeftUnhashed() throws {
        let tree = try TempTree()
        try tree.write("new.jpg", "new")
        var cache = HashCache()
        let scan = try LocalScanner().scan(
            root: tree.path, folder: .root, cache: &cache, cachePrefix: "", needsDigest: { _ in false })
        #expect(scan.snapshot.entries.first?.digest == nil)
        #expect(scan.hashedFiles == 0)
        #expect(!cache.hasPendingChanges)
    }
}
