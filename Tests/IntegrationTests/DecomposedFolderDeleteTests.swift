// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// A local folder spelled in NFD (a mirror copied from a Mac: "e" + U+0301) whose device
/// folder, spelled in NFC, is gone: a pull with `--delete` keeps it whole, conflict copy
/// included, since the walk reads it under the records' spelling and cannot (it moved the
/// whole folder to the trash, the conflict copy with it, counting no file, while saying
/// nothing in it was deleted). vsftpd; addresses 127.0.41.10 and 127.0.41.12.
@Suite(.serialized) struct DecomposedFolderDeleteTests {
    @Test func aFolderInNFDIsNotTrashedWithAConflictCopyInIt() throws {
        let work = try makeTemporaryFolder("nfd-folder")
        let served = work + "/served"
        for index in 1...3 {
            try writeFile(served + "/\u{E9}/f\(index).jpg", Array("\(index)\n".utf8), modified: 1_700_000_000)
            try writeFile(served + "/f/h\(index)", Array("\(index)\n".utf8), modified: 1_700_000_000)
        }
        let server = try FTPServer(.vsftpd, root: served, address: "127.0.41.10")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let cam = mirror + "/cam"
        let first = try ftpsync(["pull", config])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        // The folder's name in NFD here, a conflict copy in it; the device's folder gone.
        try FileManager.default.moveItem(atPath: cam + "/\u{E9}", toPath: cam + "/e\u{301}")
        let copy = cam + "/e\u{301}/mine.conflict-20261201T112233Z.jpg"
        try writeFile(copy, Array("my edit\n".utf8), modified: 1_700_000_100)
        try FileManager.default.removeItem(atPath: served + "/\u{E9}")

        let second = try ftpsync(["pull", config, "--delete"])
        #expect(FileManager.default.fileExists(atPath: copy), "\(second.stdout)\(second.stderr)")
        #expect(!second.stdout.contains("delete_local"), "\(second.stdout)")
    }

    /// Known issue (not fixed): the walk reads a local folder under the device's spelling, so a
    /// local folder in NFD ("e" + U+0301) beside the device's NFC one cannot be read: every
    /// pull ends partial (exit 1) and a new device file in it is never downloaded. Address
    /// 127.0.41.12.
    @Test func aNewFileInAFolderSpelledInNFDHereIsPulled() throws {
        let work = try makeTemporaryFolder("nfd-pull")
        let served = work + "/served"
        try writeFile(served + "/\u{E9}/f1.jpg", Array("1\n".utf8), modified: 1_700_000_000)
        let server = try FTPServer(.vsftpd, root: served, address: "127.0.41.12")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let cam = mirror + "/cam"
        #expect(try ftpsync(["pull", config]).status == 0)
        try FileManager.default.moveItem(atPath: cam + "/\u{E9}", toPath: cam + "/e\u{301}")
        try writeFile(served + "/\u{E9}/new.jpg", Array("new\n".utf8), modified: 1_700_000_100)
        let second = try ftpsync(["pull", config])
        withKnownIssue("the walk scans a local folder under the device's spelling") {
            #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
            let names = (try? FileManager.default.subpathsOfDirectory(atPath: cam)) ?? []
            #expect(names.contains { $0.hasSuffix("new.jpg") }, "\(names)")
        }
    }
}
