// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

#if canImport(Glibc)
    import Glibc
#endif

struct LocalScannerTests {
    /// A tree with the names of issue 2, a symlink to a folder, a nested `.ftpsync`, and excludes.
    static func makeTree() throws -> TempTree {
        let tree = try TempTree()
        try tree.write("a/b/c/deep.txt", "deep")
        try tree.write("name with spaces.txt", "spaces")
        try tree.write("中文/照片.jpg", pseudoRandomBytes(5000, seed: 1))
        try tree.write("-leading-dash", "dash")
        try tree.write("semi;colon.txt", "semi")
        try tree.write("zero.bin", [])
        try tree.folder("empty folder")
        try tree.write("outside/secret.txt", "not to be seen through the link")
        #expect(symlink(tree.url("outside"), tree.url("link-to-outside")) == 0)
        #expect(symlink("missing-target", tree.url("dangling")) == 0)
        try tree.write(".ftpsync/state.sqlite", "state")
        try tree.write("a/.ftpsync/kept.txt", "a user file in a nested .ftpsync")
        try tree.write("x.tmp", "tmp")
        try tree.write("a/b/y.tmp", "tmp")
        try tree.write("DCIM/.thumbnails/t.jpg", "thumb")
        try tree.write(".thumbnails", "a file, not a folder")
        try tree.write("DCIM/keep.jpg", "keep")
        try tree.write("DCIM/sub/keep.jpg", "keep")
        return tree
    }

    @Test func scansEveryKindWithoutFollowingLinks() throws {
        let tree = try Self.makeTree()
        let scan = try LocalScanner().scan(root: tree.path)
        let byPath = Dictionary(uniqueKeysWithValues: scan.snapshot.entries.map { ($0.path.string, $0) })
        #expect(byPath["a/b/c/deep.txt"]?.kind == .file)
        #expect(byPath["a/b/c/deep.txt"]?.size == 4)
        #expect(byPath["name with spaces.txt"]?.size == 6)
        #expect(byPath["中文/照片.jpg"]?.size == 5000)
        #expect(byPath["-leading-dash"]?.kind == .file)
        #expect(byPath["semi;colon.txt"]?.kind == .file)
        #expect(byPath["zero.bin"]?.size == 0)
        #expect(byPath["empty folder"]?.kind == .directory)
        #expect(byPath["link-to-outside"]?.kind == .symlink)
        #expect(byPath["link-to-outside/secret.txt"] == nil)
        #expect(byPath["dangling"]?.kind == .symlink)
        #expect(byPath[".ftpsync"] == nil)
        #expect(byPath[".ftpsync/state.sqlite"] == nil)
        #expect(byPath["a/.ftpsync/kept.txt"]?.kind == .file)
        #expect(byPath["a/b/c/deep.txt"]?.digest == nil)
        #expect(scan.notes.isEmpty)
        // Sorted in RelativePath order, and identities for files only.
        #expect(scan.snapshot.entries.map(\.path) == scan.snapshot.entries.map(\.path).sorted())
        #expect(scan.identities.count == scan.snapshot.entries.filter { $0.kind == .file }.count)
    }

    @Test func modificationTimesAreExactToTheNanosecond() throws {
        let tree = try TempTree()
        try tree.write("f", "x")
        try LocalFileSystem().setModificationTime(nanoseconds: 1_700_000_000_123_456_789, at: tree.url("f"))
        let scan = try LocalScanner().scan(root: tree.path)
        let path = try RelativePath(validating: "f")
        #expect(scan.identities[path]?.mtimeNanoseconds == 1_700_000_000_123_456_789)
        #expect(scan.snapshot[path]?.modified?.granularity == .exact)
        let seconds = scan.snapshot[path]?.modified?.seconds ?? 0
        #expect(abs(seconds - 1_700_000_000.123_456_789) < 1e-6)
    }

    @Test func excludesApplyToNamesPathsAndFolders() throws {
        let tree = try Self.makeTree()
        let rules = try FilterRules(excluding: ["*.tmp", ".thumbnails/", "DCIM/sub", "中文/*.jpg"])
        let scan = try LocalScanner(excludes: rules).scan(root: tree.path)
        let paths = Set(scan.snapshot.entries.map(\.path.string))
        #expect(!paths.contains("x.tmp"))
        #expect(!paths.contains("a/b/y.tmp"))
        #expect(!paths.contains("DCIM/.thumbnails"))
        #expect(!paths.contains("DCIM/.thumbnails/t.jpg"))
        #expect(paths.contains(".thumbnails"))  // a file: the trailing slash means folders only
        #expect(paths.contains("DCIM/keep.jpg"))
        #expect(!paths.contains("DCIM/sub"))
        #expect(!paths.contains("DCIM/sub/keep.jpg"))
        #expect(paths.contains("中文"))
        #expect(!paths.contains("中文/照片.jpg"))
    }

    @Test func invalidUTF8NameBecomesANote() throws {
        let tree = try TempTree()
        try tree.write("good.txt", "ok")
        let bad: [CChar] = Array((tree.path + "/bad-").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF), 0x2E, 0]
        let fd = bad.withUnsafeBufferPointer { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        close(fd)
        let scan = try LocalScanner().scan(root: tree.path)
        #expect(scan.snapshot.entries.map(\.path.string) == ["good.txt"])
        #expect(scan.notes == ["bad-\\xff.: name is not valid UTF-8; skipped"])
    }

    @Test func missingRootThrowsAndFileRootThrows() throws {
        let tree = try TempTree()
        try tree.write("file", "x")
        #expect(throws: LocalFileError.self) { try LocalScanner().scan(root: tree.url("nope")) }
        do {
            _ = try LocalScanner().scan(root: tree.url("file"))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == ENOTDIR)
        }
    }
}
