// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// A device file that became a folder (and the reverse) is followed on the next run, without
/// `--delete`: pull trashes the old local entry (or keeps a changed one as a conflict copy), push
/// removes the device's (or reports a conflict when it changed there). pyftpdlib; addresses
/// 127.0.7.8 (pull) and 127.0.7.9 (push).
@Suite(.serialized) struct TypeChangeTests {
    static let old: Double = 1_700_000_000

    static func config(_ server: FTPServer, local: String, at folder: String) throws -> String {
        let path = folder + "/device.yaml"
        try ("local: \(local)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func isFolder(_ path: String) -> Bool? {
        var folder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &folder) else { return nil }
        return folder.boolValue
    }

    /// Paths below `root` (files and folders), relative.
    static func contents(_ root: String) -> Set<String> {
        Set((FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? [])
    }

    @Test func pullFollowsTypeChanges() throws {
        let work = try makeTemporaryFolder("type-pull")
        let served = work + "/served"
        try writeFile(served + "/clip", Array("a file\n".utf8), modified: Self.old)
        try writeFile(served + "/album/a.jpg", Array("photo\n".utf8), modified: Self.old)
        try writeFile(served + "/notes.txt", Array("notes\n".utf8), modified: Self.old)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.7.8")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = try Self.config(server, local: mirror, at: work)
        let first = try ftpsync(["pull", config])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        let fm = FileManager.default
        try fm.removeItem(atPath: served + "/clip")
        try writeFile(served + "/clip/inside.txt", Array("inside\n".utf8), modified: Self.old + 60)
        try fm.removeItem(atPath: served + "/album")
        try writeFile(served + "/album", Array("now a file\n".utf8), modified: Self.old + 60)
        try fm.removeItem(atPath: served + "/notes.txt")
        try writeFile(served + "/notes.txt/x", Array("x\n".utf8), modified: Self.old + 60)
        // Changed here since the last sync: kept as a conflict copy, not trashed.
        try writeFile(mirror + "/cam/notes.txt", Array("my edit\n".utf8), modified: Self.old + 120)

        let second = try ftpsync(["pull", config, "--json"])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        let cam = mirror + "/cam"
        #expect(Self.isFolder(cam + "/clip") == true)
        #expect((try? String(contentsOfFile: cam + "/clip/inside.txt", encoding: .utf8)) == "inside\n")
        #expect(Self.isFolder(cam + "/album") == false)
        #expect((try? String(contentsOfFile: cam + "/album", encoding: .utf8)) == "now a file\n")
        #expect((try? String(contentsOfFile: cam + "/notes.txt/x", encoding: .utf8)) == "x\n")
        let copies = try fm.contentsOfDirectory(atPath: cam).filter { $0.hasPrefix("notes.conflict-") }
        #expect(copies.count == 1, "\((try? fm.contentsOfDirectory(atPath: cam)) ?? [])")
        let trashed = Self.contents(mirror + "/.ftpsync/trash").map { $0.split(separator: "/").dropFirst(2) }
            .map { $0.joined(separator: "/") }
        #expect(Set(trashed).isSuperset(of: ["clip", "album", "album/a.jpg"]), "\(trashed)")

        let third = try ftpsync(["pull", config, "--json"])
        #expect(third.status == 0, "\(third.stdout)\(third.stderr)")
        #expect(!third.stdout.contains("\"kind\""), "converged: \(third.stdout)")
    }

    @Test func pushFollowsTypeChanges() throws {
        let work = try makeTemporaryFolder("type-push")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.7.9")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let cam = mirror + "/cam"
        try writeFile(cam + "/clip", Array("a file\n".utf8), modified: Self.old)
        try writeFile(cam + "/album/a.jpg", Array("photo\n".utf8), modified: Self.old)
        try writeFile(cam + "/keep", Array("keep\n".utf8), modified: Self.old)
        let config = try Self.config(server, local: mirror, at: work)
        let first = try ftpsync(["push", config])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        let fm = FileManager.default
        try fm.removeItem(atPath: cam + "/clip")
        try writeFile(cam + "/clip/inside.txt", Array("inside\n".utf8), modified: Self.old + 60)
        try fm.removeItem(atPath: cam + "/album")
        try writeFile(cam + "/album", Array("now a file\n".utf8), modified: Self.old + 60)
        try fm.removeItem(atPath: cam + "/keep")
        try writeFile(cam + "/keep/y", Array("y\n".utf8), modified: Self.old + 60)
        // Changed on the device since the last sync: a conflict, not deleted.
        try writeFile(served + "/keep", Array("device edit\n".utf8), modified: Self.old + 600)

        let second = try ftpsync(["push", config, "--json"])
        #expect(second.status == 1, "the conflict: \(second.stdout)\(second.stderr)")
        #expect((try? String(contentsOfFile: served + "/clip/inside.txt", encoding: .utf8)) == "inside\n")
        #expect(Self.isFolder(served + "/album") == false)
        #expect((try? String(contentsOfFile: served + "/album", encoding: .utf8)) == "now a file\n")
        #expect((try? String(contentsOfFile: served + "/keep", encoding: .utf8)) == "device edit\n")
        #expect(second.stdout.contains("\"conflict\""), "\(second.stdout)")
    }
}
