// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

/// Small downloads are written to a file with no name in their folder (`O_TMPFILE`) and linked
/// in when whole: invisible before, nothing left behind when abandoned.
struct AnonymousFileTests {
    private func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func isInvisibleUntilPublishedThenWhole() throws {
        let tree = try TempTree()
        let final = tree.url("photo.jpg")
        let writer = try #require(PartialFileWriter.anonymous(in: tree.url(""), finalPath: final))
        try writer.write(Array(repeating: 0x42, count: 5000))
        #expect(try names(in: tree.url("")).isEmpty)
        try writer.setModificationTime(FileTime(seconds: 1_700_000_000.25, granularity: .exact))
        let identity = try writer.identity()
        try writer.publish()
        try writer.close(sync: false)
        #expect(try names(in: tree.url("")) == ["photo.jpg"])
        #expect(FileManager.default.contents(atPath: final).map(Array.init) == Array(repeating: 0x42, count: 5000))
        let status = try #require(try LocalFileSystem().status(at: final))
        #expect(status.identity == identity)
    }

    @Test func replacesAFileOfTheSameNameWithNoTemporaryLeft() throws {
        let tree = try TempTree()
        try tree.write("a.txt", Array("old".utf8))
        let writer = try #require(PartialFileWriter.anonymous(in: tree.url(""), finalPath: tree.url("a.txt")))
        try writer.write(Array("new content".utf8))
        try writer.publish()
        try writer.close(sync: true)
        #expect(try names(in: tree.url("")) == ["a.txt"])
        #expect(FileManager.default.contents(atPath: tree.url("a.txt")).map(Array.init) == Array("new content".utf8))
    }

    @Test func anAbandonedFileLeavesNothing() throws {
        let tree = try TempTree()
        do {
            let writer = try #require(PartialFileWriter.anonymous(in: tree.url(""), finalPath: tree.url("x.bin")))
            try writer.write(Array(repeating: 1, count: 100_000))
            try writer.close(sync: false)
        }
        #expect(try names(in: tree.url("")).isEmpty)
    }

    /// A folder holding a folder of the final name: the link and the rename fail, the error
    /// names the path, and no temporary stays.
    @Test func aFolderInTheWayFailsCleanly() throws {
        let tree = try TempTree()
        try FileManager.default.createDirectory(atPath: tree.url("clip"), withIntermediateDirectories: true)
        let writer = try #require(PartialFileWriter.anonymous(in: tree.url(""), finalPath: tree.url("clip")))
        try writer.write(Array("data".utf8))
        #expect(throws: LocalFileError.self) { try writer.publish() }
        try writer.close(sync: false)
        #expect(try names(in: tree.url("")) == ["clip"])
    }

    @Test func aMissingFolderGivesNoWriter() throws {
        let tree = try TempTree()
        #expect(PartialFileWriter.anonymous(in: tree.url("missing"), finalPath: tree.url("missing/x")) == nil)
    }
}
