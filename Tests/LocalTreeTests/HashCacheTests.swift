// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

#if canImport(Glibc)
    import Glibc
#endif

struct HashCacheTests {
    /// Overwrites a file in place (same inode) with bytes of the same size, then puts its old
    /// mtime back: only a content read could notice.
    static func rewriteKeepingIdentity(_ path: String, _ bytes: [UInt8]) throws {
        let before = try #require(try LocalFileSystem().status(at: path))
        let fd = open(path, O_WRONLY)
        #expect(fd >= 0)
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        close(fd)
        try LocalFileSystem().setModificationTime(nanoseconds: before.identity.mtimeNanoseconds, at: path)
        let after = try #require(try LocalFileSystem().status(at: path))
        #expect(after.identity == before.identity)
    }

    @Test(arguments: [1, 2])
    func secondScanReadsNothingAndTrustsTheCache(threads: Int) throws {
        let tree = try TempTree()
        for i in 0..<20 { try tree.write("d\(i % 3)/f\(i).bin", pseudoRandomBytes(1000 + i * 5000, seed: UInt64(i))) }
        try tree.write("zero", [])
        let scanner = LocalScanner(hashThreads: threads)
        var cache = HashCache()
        let first = try scanner.scan(root: tree.path, cache: &cache, cachePrefix: "cam")
        #expect(first.hashedFiles == 21)
        #expect(first.cachedFiles == 0)
        #expect(cache.count == 21)
        #expect(cache.pendingUpserts.count == 21)
        for entry in first.snapshot.entries where entry.kind == .file {
            #expect(entry.digest == (try XXH3Hasher.digest(fileAt: tree.url(entry.path.string))))
            #expect(cache.entry(path: "cam/" + entry.path.string)?.digest == entry.digest)
        }
        cache.markSaved()

        // Same size, mtime and inode, different bytes: the cached (now stale) digest proves no read.
        let target = try RelativePath(validating: "d1/f1.bin")
        let oldDigest = first.snapshot[target]?.digest
        try Self.rewriteKeepingIdentity(tree.url("d1/f1.bin"), pseudoRandomBytes(6000, seed: 999))
        let second = try scanner.scan(root: tree.path, cache: &cache, cachePrefix: "cam")
        #expect(second.hashedFiles == 0)
        #expect(second.hashedBytes == 0)
        #expect(second.cachedFiles == 21)
        #expect(second.snapshot[target]?.digest == oldDigest)
        #expect(!cache.hasPendingChanges)

        // A new mtime makes it read again and gives the true digest.
        try LocalFileSystem().setModificationTime(nanoseconds: 1_600_000_000_000_000_001, at: tree.url("d1/f1.bin"))
        let third = try scanner.scan(root: tree.path, cache: &cache, cachePrefix: "cam")
        #expect(third.hashedFiles == 1)
        #expect(third.hashedBytes == 6000)
        #expect(third.snapshot[target]?.digest == (try XXH3Hasher.digest(fileAt: tree.url("d1/f1.bin"))))
        #expect(third.snapshot[target]?.digest != oldDigest)
        #expect(cache.pendingUpserts.map(\.path) == ["cam/d1/f1.bin"])
    }

    @Test func removedFilesLeaveTheCacheOnlyUnderTheScannedPrefix() throws {
        let tree = try TempTree()
        try tree.write("a.txt", "a")
        try tree.write("b.txt", "b")
        var cache = HashCache([
            CachedDigest(path: "other/a.txt", size: 1, mtimeNanoseconds: 1, inode: 1, digest: "x"),
            CachedDigest(path: "cam/gone.txt", size: 1, mtimeNanoseconds: 1, inode: 1, digest: "y"),
            CachedDigest(path: "camera/a.txt", size: 1, mtimeNanoseconds: 1, inode: 1, digest: "z"),
        ])
        _ = try LocalScanner().scan(root: tree.path, cache: &cache, cachePrefix: "cam")
        #expect(cache.pendingRemovals == ["cam/gone.txt"])
        #expect(cache.entry(path: "other/a.txt") != nil)
        #expect(cache.entry(path: "camera/a.txt") != nil)
        #expect(Set(cache.pendingUpserts.map(\.path)) == ["cam/a.txt", "cam/b.txt"])
    }

    @Test func keyFieldsMustAllMatch() {
        let entry = CachedDigest(path: "p", size: 10, mtimeNanoseconds: 20, inode: 30, digest: "d")
        let cache = HashCache([entry])
        #expect(cache.digest(path: "p", size: 10, mtimeNanoseconds: 20, inode: 30) == "d")
        #expect(cache.digest(path: "p", size: 11, mtimeNanoseconds: 20, inode: 30) == nil)
        #expect(cache.digest(path: "p", size: 10, mtimeNanoseconds: 21, inode: 30) == nil)
        #expect(cache.digest(path: "p", size: 10, mtimeNanoseconds: 20, inode: 31) == nil)
        #expect(cache.digest(path: "q", size: 10, mtimeNanoseconds: 20, inode: 30) == nil)
    }

    @Test func unreadableFileKeepsNilDigestWithANote() throws {
        let tree = try TempTree()
        try tree.write("ok", "ok")
        #expect(mkfifo(tree.url("fifo"), 0o644) == 0)
        var cache = HashCache()
        let scan = try LocalScanner().scan(root: tree.path, cache: &cache)
        let fifo = try RelativePath(validating: "fifo")
        #expect(scan.snapshot[fifo]?.kind == .other)
        #expect(scan.hashedFiles == 1)
        #expect(cache.count == 1)
    }
}
