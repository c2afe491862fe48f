// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

#if canImport(Glibc)
    import Glibc
#endif

struct LocalFileSystemTests {
    let fs = LocalFileSystem()

    @Test func makeFoldersMoveAndSetTime() throws {
        let tree = try TempTree()
        try fs.makeFolders(at: tree.url("x/y/z"))
        try fs.makeFolders(at: tree.url("x/y/z"))
        #expect(try fs.status(at: tree.url("x/y/z"))?.kind == .directory)
        try tree.write(".ftpsync/part", "content")
        try fs.setModificationTime(
            FileTime(seconds: 1_500_000_000.25, granularity: .exact), at: tree.url(".ftpsync/part"))
        try fs.move(from: tree.url(".ftpsync/part"), to: tree.url("x/y/z/final.txt"))
        try fs.syncFolder(at: tree.url("x/y/z"))
        let status = try #require(try fs.status(at: tree.url("x/y/z/final.txt")))
        #expect(status.kind == .file)
        #expect(status.identity.size == 7)
        #expect(status.identity.mtimeNanoseconds == 1_500_000_000_250_000_000)
        #expect(try fs.status(at: tree.url(".ftpsync/part")) == nil)
    }

    @Test(arguments: [
        (Int64(0), Int64(0)),
        (Int64(-1), Int64(-1)),
        (Int64(1_700_000_000_999_999_999), Int64(1_700_000_000_999_999_999)),
        (Int64(-1_500_000_000), Int64(-1_500_000_000)),
    ])
    func nanosecondTimesRoundTrip(set: Int64, expected: Int64) throws {
        let tree = try TempTree()
        try tree.write("f", "x")
        try fs.setModificationTime(nanoseconds: set, at: tree.url("f"))
        #expect(try fs.status(at: tree.url("f"))?.identity.mtimeNanoseconds == expected)
    }

    @Test func errorsCarryPathAndCause() throws {
        let tree = try TempTree()
        try tree.write("file", "x")
        do {
            try fs.makeFolders(at: tree.url("file/sub"))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == ENOTDIR)
            #expect(error.description.hasSuffix(": Not a directory"))
        }
        do {
            try fs.move(from: tree.url("nothing"), to: tree.url("else"))
            Issue.record("expected an error")
        } catch {
            #expect(error.isNotFound)
            #expect(
                error.description == "rename \(tree.url("nothing")) -> \(tree.url("else")): No such file or directory")
        }
        #expect(
            LocalFileError(operation: "write", path: "/p", code: ENOSPC).description
                == "write /p: No space left on device")
        #expect(LocalFileError(operation: "open", path: "/p", code: EACCES).description == "open /p: Permission denied")
        #expect(try fs.removeFile(at: tree.url("nothing")) == false)
        #expect(try fs.removeFile(at: tree.url("file")) == true)
    }

    @Test func trashKeepsThePathUnderTimeAndDevice() throws {
        let tree = try TempTree()
        try tree.write("cam/DCIM/a.jpg", "first")
        let date = Date(timeIntervalSince1970: 1_735_787_045)  // 2025-01-02T03:04:05Z
        let path = try RelativePath(validating: "DCIM/a.jpg")
        let first = try fs.moveToTrash(
            tree.url("cam/DCIM/a.jpg"), localRoot: tree.path, device: "cam", path: path, at: date)
        #expect(first == tree.url(".ftpsync/trash/20250102T030405Z/cam/DCIM/a.jpg"))
        #expect(try tree.read(".ftpsync/trash/20250102T030405Z/cam/DCIM/a.jpg") == Array("first".utf8))
        #expect(try fs.status(at: tree.url("cam/DCIM/a.jpg")) == nil)
        try tree.write("cam/DCIM/a.jpg", "second")
        let second = try fs.moveToTrash(
            tree.url("cam/DCIM/a.jpg"), localRoot: tree.path, device: "cam", path: path, at: date)
        #expect(second == first + "~1")
        #expect(throws: LocalFileError.self) {
            try fs.moveToTrash(tree.url("cam"), localRoot: tree.path, device: "../x", path: path, at: date)
        }
    }

    @Test(arguments: [
        ("photo.jpg", "photo.conflict-20250102T030405Z.jpg"),
        ("archive.tar.gz", "archive.tar.conflict-20250102T030405Z.gz"),
        ("README", "README.conflict-20250102T030405Z"),
        (".bashrc", ".bashrc.conflict-20250102T030405Z"),
        ("照片.JPG", "照片.conflict-20250102T030405Z.JPG"),
    ])
    func conflictNames(name: String, expected: String) {
        #expect(LocalFileSystem.conflictName(for: name, at: Date(timeIntervalSince1970: 1_735_787_045.9)) == expected)
    }

    @Test func partialWriterResumesAtTheOffset() throws {
        let tree = try TempTree()
        let path = tree.url("part")
        let first = try fs.openPartial(at: path, offset: 0)
        try first.write(Array("0123456789".utf8))
        #expect(first.size == 10)
        try first.close()
        try first.close()
        #expect(throws: LocalFileError.self) { try first.write([1]) }

        // Resume at 4: the bytes past the offset (not confirmed by the store) are cut.
        let second = try fs.openPartial(at: path, offset: 4)
        #expect(second.startOffset == 4)
        try second.write(Array("abc".utf8))
        try second.sync()
        try second.close()
        #expect(try tree.read("part") == Array("0123abc".utf8))

        do {
            _ = try fs.openPartial(at: path, offset: 8)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("fewer than the offset 8"))
        }
        #expect(throws: LocalFileError.self) { try fs.openPartial(at: tree.url("no/such/folder/part"), offset: 0) }
    }
}
