// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

#if canImport(Glibc)
    import Glibc
#endif

/// `TreeFolder` never follows a symlink below its root: a folder swapped for a link to a folder
/// outside (before the walk, between two of its steps, or before a write) fails the action,
/// and nothing is written outside.
struct TreeFolderTests {
    /// Replaces the folder `relative` of `tree` by a symlink to `outside` (the folder is moved aside).
    private func swap(_ tree: TempTree, _ relative: String, for outside: String) throws {
        try FileManager.default.moveItem(atPath: tree.url(relative), toPath: tree.url(relative + "-aside"))
        #expect(symlink(outside, tree.url(relative)) == 0)
    }

    private func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func aSymlinkBeforeTheWalkFailsItAndNothingIsMadeOutside() throws {
        let tree = try TempTree()
        let outside = try TempTree()
        try tree.folder("root/DCIM/2024")
        let root = try TreeFolder.openRoot(tree.url("root"), create: false)
        try swap(tree, "root/DCIM", for: outside.path)
        for create in [false, true] {
            #expect {
                _ = try root.folder("DCIM/2024/new", create: create)
            } throws: { error in
                let local = error as? LocalFileError
                return (local?.code == ELOOP || local?.code == ENOTDIR)
                    && local?.description.contains("a symbolic link is in the way") == true
            }
        }
        #expect(names(outside.path).isEmpty)
    }

    @Test func aSymlinkSwappedInBetweenTwoStepsFailsTheNextStep() throws {
        let tree = try TempTree()
        let outside = try TempTree()
        try outside.folder("2024")
        try tree.folder("root/DCIM/2024")
        let root = try TreeFolder.openRoot(tree.url("root"), create: false)
        let dcim = try root.folder("DCIM", create: false)
        try swap(tree, "root/DCIM/2024", for: outside.url("2024"))
        #expect(throws: LocalFileError.self) { _ = try dcim.folder("2024", create: true) }
        #expect(throws: LocalFileError.self) { _ = try dcim.openPartial("2024", offset: 0) }
        #expect(names(outside.url("2024")).isEmpty)
    }

    @Test func aFileSwappedForASymlinkIsNotWrittenThroughNorRenamedOver() throws {
        let tree = try TempTree()
        let outside = try TempTree()
        try outside.write("target.txt", "outside")
        try tree.folder("root")
        let root = try TreeFolder.openRoot(tree.url("root"), create: false)
        #expect(symlink(outside.url("target.txt"), tree.url("root/a.txt")) == 0)
        #expect(throws: LocalFileError.self) { _ = try root.openPartial("a.txt", offset: 0) }
        try tree.write("root/new.txt", "new")
        // A rename replaces the link itself, never its target.
        try root.rename("new.txt", to: root, as: "a.txt", replace: true)
        #expect(try outside.read("target.txt") == Array("outside".utf8))
        #expect(try root.status("a.txt")?.kind == .file)
    }

    @Test func aFolderKeptOpenDoesNotReachAFolderMovedOutOfTheTree() throws {
        // Each action walks again from the root: a folder moved out and replaced by a link is
        // found as a link, whatever an earlier walk opened.
        let tree = try TempTree()
        let outside = try TempTree()
        try tree.folder("root/DCIM")
        let root = try TreeFolder.openRoot(tree.url("root"), create: false)
        _ = try root.folder("DCIM", create: false)
        try FileManager.default.moveItem(atPath: tree.url("root/DCIM"), toPath: outside.url("DCIM"))
        #expect(symlink(outside.url("DCIM"), tree.url("root/DCIM")) == 0)
        #expect(throws: LocalFileError.self) { _ = try root.folder("DCIM", create: true) }
        #expect(names(outside.url("DCIM")).isEmpty)
    }

    @Test func dotComponentsAreRefused() throws {
        let tree = try TempTree()
        try tree.folder("root/a")
        let root = try TreeFolder.openRoot(tree.url("root"), create: false)
        for relative in ["..", "a/..", "a/../..", "."] {
            #expect(throws: LocalFileError.self) { _ = try root.folder(relative, create: true) }
        }
    }

    @Test func renameWithoutReplaceNeverOverwrites() throws {
        let tree = try TempTree()
        try tree.write("root/a", "a")
        try tree.write("root/b", "b")
        let root = try TreeFolder.openRoot(tree.url("root"), create: false)
        #expect {
            try root.rename("a", to: root, as: "b", replace: false)
        } throws: { ($0 as? LocalFileError)?.code == EEXIST }
        #expect(try tree.read("root/b") == Array("b".utf8))
    }

    @Test func exchangeSwapsTwoNamesAtomically() throws {
        let tree = try TempTree()
        try tree.write("root/a", "first")
        try tree.write("root/b", "second")
        let root = try TreeFolder.openRoot(tree.url("root"), create: false)
        let before = try #require(try root.status("a"))
        #expect(try root.exchange("a", "b"))
        #expect(try tree.read("root/a") == Array("second".utf8))
        #expect(try tree.read("root/b") == Array("first".utf8))
        #expect(try root.status("b")?.identity == before.identity)
        #expect(throws: LocalFileError.self) { _ = try root.exchange("a", "missing") }
    }
}
