// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

struct PartialFileWriterTests {
    let fs = LocalFileSystem()

    /// (bytes already in the file, resume offset, bytes written, size at the end)
    @Test(arguments: [
        (10, UInt64(0), 4, UInt64(4)),  // a fresh download cuts what was there (O_TRUNC)
        (10, UInt64(6), 3, UInt64(9)),  // a resume cuts to the offset, then appends
        (0, UInt64(0), 0, UInt64(0)),
    ])
    func writesFromTheOffset(existing: Int, offset: UInt64, written: Int, size: UInt64) throws {
        let tree = try TempTree()
        try tree.write("p", Array(repeating: 0x41, count: existing))
        let writer = try fs.openPartial(at: tree.url("p"), offset: offset)
        try writer.write(Array(repeating: 0x42, count: written))
        #expect(writer.size == size)
        try writer.close(sync: false)
        let bytes = try #require(FileManager.default.contents(atPath: tree.url("p")))
        #expect(
            Array(bytes)
                == Array(repeating: 0x41, count: Int(offset)) + Array(repeating: 0x42, count: written))
    }

    @Test func timeAndIdentityThroughTheOpenFileMatchLstatAfterTheRename() throws {
        let tree = try TempTree()
        let writer = try fs.openPartial(at: tree.url("p"), offset: 0)
        try writer.write(Array("hello".utf8))
        try writer.setModificationTime(FileTime(seconds: 1_600_000_000.5, granularity: .exact))
        let identity = try writer.identity()
        try writer.close(sync: false)
        #expect(identity.size == 5)
        #expect(identity.mtimeNanoseconds == 1_600_000_000_500_000_000)
        #expect(try fs.move(from: tree.url("p"), to: tree.url("final")))
        #expect(try fs.status(at: tree.url("final"))?.identity == identity)
    }

    @Test func aClosedWriterRefusesWork() throws {
        let tree = try TempTree()
        let writer = try fs.openPartial(at: tree.url("p"), offset: 0)
        try writer.close()
        try writer.close()
        #expect(throws: LocalFileError.self) { try writer.identity() }
        #expect(throws: LocalFileError.self) {
            try writer.setModificationTime(FileTime(seconds: 0, granularity: .exact))
        }
    }

    @Test func syncFileSystemWorksOnAFolderAndFailsOnAMissingOne() throws {
        let tree = try TempTree()
        try fs.syncFileSystem(holding: tree.path)
        #expect(throws: LocalFileError.self) { try fs.syncFileSystem(holding: tree.url("missing")) }
    }
}
