// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore
import Testing

@testable import SyncEngine

/// The plan on disk: actions come back per section in order, counted as appended; the files
/// leave nothing behind; a damaged file is a typed error.
@Suite struct PlanSpoolTests {
    /// A tree root of its own for one test, removed at the end.
    final class Tree {
        let root = NSTemporaryDirectory() + "spool-test-\(UUID().uuidString.prefix(8))"
        init() throws { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: root) }
        var spoolFolder: String { root + "/.ftpsync/spool/cam" }
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: spoolFolder) }
    }

    static func all(_ spool: PlanSpool) throws -> [Action] {
        var reader = try spool.actions()
        var actions: [Action] = []
        while let action = try reader.next() { actions.append(action) }
        return actions
    }

    @Test func sectionsComeBackInOrderEachInTheOrderAdded() throws {
        let tree = try Tree()
        let spool = try PlanSpool.open(treeRoot: tree.root, device: "cam")
        defer { spool.close() }
        let added: [(PlanSection, String)] = [
            (.deletes, "old/b"), (.transfers, "d/1"), (.prepare, "d"), (.renames, "r"), (.deletes, "old"),
            (.transfers, "d/2"), (.prepare, "d/e"),
        ]
        for (section, path) in added {
            let kind: ActionKind = section == .transfers ? .download : .mkdirLocal
            try spool.append(Action(kind: kind, path: try RelativePath(validating: path), reason: ""), to: section)
        }
        #expect(try Self.all(spool).map(\.path.string) == ["d", "d/e", "r", "d/1", "d/2", "old/b", "old"])
        // Each reading starts again from the first action.
        #expect(try Self.all(spool).count == added.count)
    }

    /// Many actions cross the write and read buffers; the counts and bytes are kept on the way.
    @Test func manyActionsComeBackWholeAndCounted() throws {
        let tree = try Tree()
        let spool = try PlanSpool.open(treeRoot: tree.root, device: "cam")
        defer { spool.close() }
        var expected: [Action] = []
        for index in 0..<20_000 {
            let kinds: [ActionKind] = [.download, .upload, .mkdirLocal, .renameLocal]
            var action = Action(
                kind: kinds[index % 4],
                path: try RelativePath(validating: "f/\(index)-" + String(repeating: "x", count: index % 300)),
                bytes: UInt64(index), reason: "r\(index)")
            action.seen = FileIdentity(size: UInt64(index), mtimeNanoseconds: Int64(index), inode: 1, device: 2)
            try spool.append(action, to: .transfers)
            expected.append(action)
        }
        #expect(try Self.all(spool) == expected)
        #expect(spool.count == 20_000)
        #expect(spool.transfers == 10_000)
        #expect(
            spool.bytesToTransfer
                == expected.filter { $0.kind == .download || $0.kind == .upload }.reduce(0) { $0 + $1.bytes })
    }

    @Test func theBytesToTransferSaturate() throws {
        let tree = try Tree()
        let spool = try PlanSpool.open(treeRoot: tree.root, device: "cam")
        defer { spool.close() }
        let path = try RelativePath(validating: "a.jpg")
        try spool.append(Action(kind: .download, path: path, bytes: .max, reason: ""), to: .transfers)
        try spool.append(Action(kind: .upload, path: path, bytes: 5, reason: ""), to: .transfers)
        try spool.append(Action(kind: .mkdirLocal, path: path, bytes: 9, reason: ""), to: .prepare)
        #expect(spool.bytesToTransfer == .max)
        #expect(spool.transfers == 2)
    }

    /// The files have no name on disk: nothing is left however the run ends, and what a run
    /// killed between making a file and removing its name left is removed by the next.
    @Test func nothingIsLeftOnDiskAndLeftoversAreRemoved() throws {
        let tree = try Tree()
        try FileManager.default.createDirectory(atPath: tree.spoolFolder, withIntermediateDirectories: true)
        for name in ["transfers", "deletes"] {
            _ = FileManager.default.createFile(atPath: tree.spoolFolder + "/" + name, contents: Data([1, 2, 3]))
        }
        let spool = try PlanSpool.open(treeRoot: tree.root, device: "cam")
        try spool.append(Action(kind: .mkdirLocal, path: .root, reason: ""), to: .prepare)
        #expect(try tree.names() == [])
        #expect(try Self.all(spool).count == 1)
        spool.close()
    }

    /// A symlink in place of `.ftpsync/spool` is not followed: nothing is made where it points.
    @Test func aSymlinkInTheWayIsNotFollowed() throws {
        let tree = try Tree()
        let elsewhere = try Tree()
        try FileManager.default.createDirectory(atPath: tree.root + "/.ftpsync", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: tree.root + "/.ftpsync/spool", withDestinationPath: elsewhere.root)
        #expect(throws: LocalFileError.self) { try PlanSpool.open(treeRoot: tree.root, device: "cam") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.root) == [])
    }

    @Test func anActionTooLargeIsRefused() throws {
        let tree = try Tree()
        let spool = try PlanSpool.open(treeRoot: tree.root, device: "cam")
        defer { spool.close() }
        let reason = String(repeating: "x", count: ActionCoding.maxEncodedSize)
        #expect(throws: SpoolError.self) {
            try spool.append(Action(kind: .mkdirLocal, path: .root, reason: reason), to: .prepare)
        }
        #expect(spool.count == 0)
    }

    /// A reader over a section file holding `bytes` after one whole action.
    static func read(after bytes: [UInt8]) throws -> [Action] {
        let tree = try Tree()
        let folder = try TreeFolder.openRoot(tree.root, create: false)
        let file = try ScratchFile(in: folder, name: "transfers")
        var whole: [UInt8] = []
        ActionCoding.encode(Action(kind: .download, path: try RelativePath(validating: "a"), reason: "r"), into: &whole)
        try file.append([UInt8(whole.count), 0, 0, 0] + whole + bytes)
        var reader = PlanSpool.Reader(files: [file], names: ["the transfers section"]) { bytes throws(SpoolError) in
            try ActionCoding.decode(bytes)
        }
        var actions: [Action] = []
        while let action = try reader.next() { actions.append(action) }
        return actions
    }

    /// (what is wrong, the bytes after a whole action): each is `damaged`.
    @Test(
        arguments: [
            ("a length cut short", [7, 0]),
            ("an action cut short", [40, 0, 0, 0, 0, 0]),
            ("a length beyond the limit", [0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0]),
            ("an action that is not one", [2, 0, 0, 0, 0xEE, 0xEE]),
        ] as [(String, [UInt8])])
    func aDamagedFileIsAnError(what: String, bytes: [UInt8]) throws {
        #expect(try Self.read(after: []).count == 1)
        #expect(throws: SpoolError.self, "\(what)") { try Self.read(after: bytes) }
    }

    /// The pairs found in sync and the records to drop come back whole, in the order kept,
    /// however many there are (issue 17: a walk holds none of them).
    @Test func adoptionsAndRecordsToDropComeBackInOrder() throws {
        let tree = try Tree()
        let spool = try PlanSpool.open(treeRoot: tree.root, device: "cam")
        defer { spool.close() }
        let count = 20_000
        for index in 0..<count {
            let path = try RelativePath(validating: "d\(index / 1000)/f\(index).jpg")
            let time = FileTime(seconds: 1_700_000_000 + Double(index), granularity: .second)
            try spool.adopt(
                Adoption(
                    remote: SnapshotEntry(path: path, kind: .file, size: UInt64(index), modified: time),
                    local: SnapshotEntry(
                        path: path, kind: .file, size: UInt64(index), modified: time,
                        digest: index % 2 == 0 ? "ab" : nil)
                ))
            try spool.forget(path)
        }
        #expect(spool.adoptionCount == count && spool.forgottenCount == count && spool.count == 0)
        var adoptions = try spool.adoptions()
        var index = 0
        while let adoption = try adoptions.next() {
            #expect(adoption.remote.size == UInt64(index) && adoption.local.path == adoption.remote.path)
            #expect(adoption.local.digest == (index % 2 == 0 ? "ab" : nil))
            index += 1
        }
        #expect(index == count)
        var forgotten = try spool.forgotten()
        var paths: [RelativePath] = []
        while let path = try forgotten.next() { paths.append(path) }
        #expect(paths.count == count && paths.last?.string == "d19/f19999.jpg")
        var actions = try spool.actions()
        #expect(try actions.next() == nil)
    }

    @Test func aDamagedAdoptionIsAnError() throws {
        #expect(throws: SpoolError.self) { try ActionCoding.decodeAdoption([1, 0, 0, 0, 0x41]) }
        #expect(throws: SpoolError.self) { try ActionCoding.decodePath([2, 0, 0, 0, 0x2E, 0x2E]) }
    }
}
