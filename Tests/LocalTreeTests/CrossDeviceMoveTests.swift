// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

#if canImport(Glibc)
    import Glibc
#endif

/// A move across file systems (a tmpfs mounted in the tree) never names a copy in the user's
/// folder: the names created there (watched with inotify) are the final one only; and the
/// leftovers 0.1.0 made (`NAME.ftpsync-copy`) are never taken for the user's files.
@Suite(.serialized) struct CrossDeviceMoveTests {
    /// A tmpfs mounted at `path` for the test (nil when mounting is not allowed: not root).
    final class Mount {
        let path: String
        init?(at path: String) {
            self.path = path
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            guard mount("tmpfs", path, "tmpfs", 0, "size=16m") == 0 else { return nil }
        }
        deinit { umount2(path, 2) }  // MNT_DETACH
    }

    /// The names created or moved into `folder` while `body` runs.
    private func namesCreated(in folder: String, during body: () throws -> Void) throws -> [String] {
        let fd = inotify_init1(Int32(IN_NONBLOCK))
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(inotify_add_watch(fd, folder, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0)
        try body()
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        var offset = 0
        while count > 0 && offset + 16 <= count {
            let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
            let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
            names.append(String(decoding: nameBytes, as: UTF8.self))
            offset += 16 + length
        }
        return names
    }

    @Test func aMoveOntoAnotherFileSystemNamesNoTemporaryInTheTree() throws {
        let tree = try TempTree()
        guard getuid() == 0 else { return }  // mounting needs root
        let mounted = try #require(Mount(at: tree.url("mnt")))
        let content = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try tree.write("src.bin", content)
        let files = LocalFileSystem()
        try files.setModificationTime(nanoseconds: 1_700_000_000_123_456_789, at: tree.url("src.bin"))
        try tree.write("mnt/dst.bin", "old")
        var renamed = true
        let created = try namesCreated(in: mounted.path) {
            renamed = try files.move(from: tree.url("src.bin"), to: tree.url("mnt/dst.bin"))
        }
        #expect(!renamed)
        #expect(created.allSatisfy { $0 == "dst.bin" || $0.hasPrefix(".ftpsync-link-") }, "\(created)")
        #expect(!created.contains { $0.hasSuffix(".ftpsync-copy") }, "\(created)")
        #expect(try tree.read("mnt/dst.bin") == content)
        #expect(try files.status(at: tree.url("mnt/dst.bin"))?.identity.mtimeNanoseconds == 1_700_000_000_123_456_789)
        #expect(try files.status(at: tree.url("src.bin")) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mounted.path) == ["dst.bin"])
    }

    @Test func aFreeNameIsLinkedInDirectlyAndAStagingFolderThereIsUsed() throws {
        let tree = try TempTree()
        guard getuid() == 0 else { return }  // mounting needs root
        let mounted = try #require(Mount(at: tree.url("mnt")))
        try tree.write("src.bin", Array(repeating: 7, count: 5000))
        try tree.write("second.bin", Array(repeating: 8, count: 5000))
        try tree.folder("mnt/cam")
        try tree.folder("mnt/.ftpsync/tmp")
        let source = try TreeFolder.openRoot(tree.path, create: false)
        let target = try TreeFolder.openRoot(tree.url("mnt/cam"), create: false)
        let staging = try TreeFolder.openRoot(tree.url("mnt/.ftpsync/tmp"), create: false)
        var renamed = [true, true]
        let created = try namesCreated(in: tree.url("mnt/cam")) {
            renamed[0] = try source.move("src.bin", to: target, as: "a.bin", replace: false, staging: nil)
            renamed[1] = try source.move("second.bin", to: target, as: "b.bin", replace: false, staging: staging)
        }
        #expect(renamed == [false, false])
        #expect(created == ["a.bin", "b.bin"])
        #expect(try tree.read("mnt/cam/b.bin") == Array(repeating: 8, count: 5000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.url("mnt/.ftpsync/tmp")).isEmpty)
        _ = mounted
    }

    @Test func stagedCopiesLeftByAKillAreSwept() throws {
        let tree = try TempTree()
        try tree.write(".ftpsync/tmp/copy-123-1", "half a copy")
        try tree.write(".ftpsync/tmp/other", "not ours")
        try tree.write(".ftpsync/tmp/copy-\(getpid())-7", "this process's copy in progress")
        let staging = try TreeFolder.openRoot(tree.url(".ftpsync/tmp"), create: false)
        #expect(TreeFolder.sweepStaging(staging) == 1)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: tree.url(".ftpsync/tmp")).sorted()
                == ["copy-\(getpid())-7", "other"])
    }

    @Test func leftoversOfOldCopiesAreNotTheUsersFiles() throws {
        let tree = try TempTree()
        try tree.write("DCIM/a.jpg", "photo")
        try tree.write("DCIM/a.jpg.ftpsync-copy", "half a copy")
        try tree.write("DCIM/.ftpsync-link-77-3.ftpsync-part", "a link before its rename")
        try tree.write("DCIM/.ftpsync-copy", "a user's odd name")
        let scan = try LocalScanner().scan(root: tree.path)
        #expect(scan.snapshot.entries.map(\.path.string) == ["DCIM", "DCIM/.ftpsync-copy", "DCIM/a.jpg"])
    }

    @Test func leftoversAreReportedForThePullToSweep() throws {
        let tree = try TempTree()
        try tree.write("DCIM/a.jpg.ftpsync-copy", "half a copy")
        try tree.write("DCIM/.ftpsync-link-77-3.ftpsync-part", "a link before its rename")
        let scan = try LocalScanner().scan(root: tree.path)
        #expect(
            Set(scan.leftovers.map(\.string)) == ["DCIM/a.jpg.ftpsync-copy", "DCIM/.ftpsync-link-77-3.ftpsync-part"])
    }
}
