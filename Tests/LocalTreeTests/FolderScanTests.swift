// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

#if canImport(Glibc)
    import Glibc
#endif

/// `LocalScanner.scan(root:folder:)`: one folder, no recursion, the same entries, notes,
/// skipped names, leftovers, identities and unreadable folders as the whole scan has there.
struct FolderScanTests {
    /// Every folder of `scan`'s tree, scanned one by one from the root down, joined.
    private func scannedFolderByFolder(_ scanner: LocalScanner, root: String) throws -> LocalScan {
        var entries: [SnapshotEntry] = []
        var identities: [RelativePath: FileIdentity] = [:]
        var notes: [String] = []
        var skipped: [SkippedEntry] = []
        var leftovers: [RelativePath] = []
        var unreadable: [RelativePath: String] = [:]
        var pending: [RelativePath] = [.root]
        while let folder = pending.popLast() {
            let one = try scanner.scan(root: root, folder: folder)
            // Nothing below the folder itself.
            #expect(one.snapshot.entries.allSatisfy { $0.path.parent == folder })
            entries += one.snapshot.entries
            for (path, identity) in one.identities.pairs where identities[path] == nil { identities[path] = identity }
            notes += one.notes
            skipped += one.skipped
            leftovers += one.leftovers
            unreadable.merge(one.unreadable) { first, _ in first }
            pending += one.snapshot.entries.filter { $0.kind == .directory }.map(\.path)
        }
        var joined = LocalScan(
            snapshot: Snapshot(entries, unknown: Set(unreadable.keys)),
            identities: PathTable(identities.map { ($0.key, $0.value) }), notes: notes,
            unreadable: unreadable)
        joined.skipped = skipped
        joined.leftovers = leftovers
        return joined
    }

    private func expectSame(_ one: LocalScan, _ whole: LocalScan) {
        #expect(one.snapshot.entries == whole.snapshot.entries)
        #expect(one.snapshot.unknown == whole.snapshot.unknown)
        #expect(one.identities == whole.identities)
        #expect(one.notes.sorted() == whole.notes.sorted())
        #expect(Set(one.skipped) == Set(whole.skipped))
        #expect(one.leftovers.sorted() == whole.leftovers.sorted())
        #expect(one.unreadable == whole.unreadable)
    }

    @Test func folderByFolderFindsWhatTheWholeScanFinds() throws {
        let tree = try LocalScannerTests.makeTree()
        try tree.write("a/b/photo.jpg.ftpsync-part", "a leftover")
        try tree.write("中文/e\u{301}.txt", "nfd")
        try tree.write("中文/\u{e9}.txt", "nfc twin")
        let bad: [CChar] = Array((tree.path + "/a/bad-").utf8CString.dropLast()) + [CChar(bitPattern: 0xFE), 0]
        let fd = bad.withUnsafeBufferPointer { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        close(fd)
        for scanner in [
            LocalScanner(), LocalScanner(skipsStateFolder: false),
            LocalScanner(excludes: try FilterRules(excluding: ["*.tmp", ".thumbnails/", "DCIM/sub"])),
        ] {
            let whole = try scanner.scan(root: tree.path)
            expectSame(try scannedFolderByFolder(scanner, root: tree.path), whole)
        }
    }

    @Test func anUnreadableFolderIsUnknownInItsOwnScan() throws {
        guard getuid() != 0 else { return }  // root reads every folder
        let tree = try TempTree()
        try tree.write("open/file", "x")
        try tree.write("closed/file", "y")
        #expect(chmod(tree.url("closed"), 0) == 0)
        defer { chmod(tree.url("closed"), 0o755) }
        let scanner = LocalScanner()
        let whole = try scanner.scan(root: tree.path)
        #expect(whole.unreadable.keys.map(\.string) == ["closed"])
        expectSame(try scannedFolderByFolder(scanner, root: tree.path), whole)
        let closed = try scanner.scan(root: tree.path, folder: RelativePath(validating: "closed"))
        #expect(closed.snapshot.entries.isEmpty)
        #expect(closed.snapshot.unknown.map(\.string) == ["closed"])
    }

    @Test func theRootMustBeAFolder() throws {
        let tree = try TempTree()
        try tree.write("file", "x")
        #expect(throws: LocalFileError.self) { try LocalScanner().scan(root: tree.url("nope"), folder: .root) }
        #expect(throws: LocalFileError.self) { try LocalScanner().scan(root: tree.url("file"), folder: .root) }
    }
}
