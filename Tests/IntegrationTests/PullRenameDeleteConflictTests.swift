// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 4's pull semantics against real servers: remote moves become local renames, `--delete`
/// trashes, conflicts keep both versions, and the delete guard stops a run cold.
@Suite(.serialized) struct PullRenameDeleteConflictTests {
    static let servers: [(FTPServer.Kind, String)] = [(.pyftpdlib, "127.0.0.45"), (.vsftpd, "127.0.0.46")]

    @Test(arguments: servers)
    func remoteRenameIsPulledWithoutRETRAndDeleteGoesToTheTrash(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("pull-rename-\(kind.rawValue)")
        let served = work + "/served"
        let clip = pseudoRandomBytes(2 * 1_048_576, seed: 3)
        // Times of their own: one time shared by 3+ files is a default, no evidence of a move.
        try writeFile(served + "/DCIM/clip.mp4", clip, modified: Push.minute())
        try writeFile(served + "/DCIM/old.jpg", pseudoRandomBytes(4000, seed: 4), modified: Push.minute() - 60)
        try writeFile(served + "/DCIM/other.jpg", pseudoRandomBytes(3000, seed: 5), modified: Push.minute() - 120)
        try writeFile(served + "/keep.txt", Array("keep\n".utf8), modified: Push.minute() - 180)
        let server = try FTPServer(kind, root: served, address: address)
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)
        let retrieved = server.count("RETR")

        // Moved on the device (rename keeps the time): a local rename; the only RETRs are the
        // three short sampled ranges that prove the content the same (issue 13 item 5).
        try FileManager.default.createDirectory(atPath: served + "/moved", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: served + "/DCIM/clip.mp4", toPath: served + "/moved/clip.mp4")
        let renamed = try ftpsync(["pull", configPath, "--json"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(Push.actions(renamed.stdout).map(\.kind) == ["mkdir_local", "rename_local"], "\(renamed.stdout)")
        #expect(server.count("RETR") == retrieved + 3)
        #expect(Push.bytes(mirror + "/cam/moved/clip.mp4") == clip)
        #expect(!FileManager.default.fileExists(atPath: mirror + "/cam/DCIM/clip.mp4"))

        // Gone from the device: kept without --delete, moved to the trash with it.
        try FileManager.default.removeItem(atPath: served + "/DCIM/old.jpg")
        let kept = try ftpsync(["pull", configPath, "--json"])
        #expect(Push.actions(kept.stdout).isEmpty, "\(kept.stdout)")
        #expect(FileManager.default.fileExists(atPath: mirror + "/cam/DCIM/old.jpg"))
        let deleted = try ftpsync(["pull", configPath, "--delete", "--json"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(Push.actions(deleted.stdout).map(\.kind) == ["delete_local"])
        #expect(!FileManager.default.fileExists(atPath: mirror + "/cam/DCIM/old.jpg"))
        let trash = mirror + "/.ftpsync/trash"
        let stamps = (try? FileManager.default.contentsOfDirectory(atPath: trash)) ?? []
        #expect(stamps.count == 1)
        #expect(FileManager.default.fileExists(atPath: trash + "/\(stamps.first ?? "")/cam/DCIM/old.jpg"))
        #expect(FileManager.default.fileExists(atPath: mirror + "/cam/keep.txt"))

        // A device folder listed empty although files were synced there deletes nothing.
        try FileManager.default.removeItem(atPath: served + "/DCIM/other.jpg")
        let suspect = try ftpsync(["pull", configPath, "--delete", "--json"])
        #expect(suspect.status == 0, "\(suspect.stderr)")
        #expect(Push.actions(suspect.stdout).isEmpty, "\(suspect.stdout)")
        #expect(FileManager.default.fileExists(atPath: mirror + "/cam/DCIM/other.jpg"))
    }

    @Test func pullConflictKeepsBothVersions() throws {
        let work = try makeTemporaryFolder("pull-conflict")
        let served = work + "/served"
        try writeFile(served + "/notes.txt", Array("version 1\n".utf8), modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.0.47")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)

        try writeFile(served + "/notes.txt", Array("device version\n".utf8), modified: Push.minute(daysAgo: 1))
        try writeFile(mirror + "/cam/notes.txt", Array("local version\n".utf8), modified: Push.minute(daysAgo: 0.5))
        let run = try ftpsync(["pull", configPath, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Push.actions(run.stdout).map(\.kind) == ["conflict", "download"])
        #expect(Push.bytes(mirror + "/cam/notes.txt") == Array("device version\n".utf8))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mirror + "/cam")) ?? []
        let copies = names.filter { $0.hasPrefix("notes.conflict-") && $0.hasSuffix(".txt") }
        #expect(copies.count == 1, "\(names)")
        #expect(Push.bytes(mirror + "/cam/" + (copies.first ?? "")) == Array("local version\n".utf8))
    }

    /// 55 deletes against the default limit of 50: exit 4, device refused, nothing changed —
    /// for a pull and for a push.
    @Test func fiftyFiveDeletesAreRefused() throws {
        let work = try makeTemporaryFolder("guard")
        let served = work + "/served"
        for i in 0..<60 { try writeFile(served + "/f\(i).txt", Array("file \(i)\n".utf8), modified: Push.minute()) }
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.0.48")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)

        for i in 0..<55 { try FileManager.default.removeItem(atPath: served + "/f\(i).txt") }
        let pull = try ftpsync(["pull", configPath, "--delete", "--json"])
        #expect(pull.status == 4, "\(pull.stdout)\(pull.stderr)")
        #expect(Push.deviceStatus(pull.stdout) == "refused")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: mirror + "/cam")) ?? []).count == 60)
        #expect(!FileManager.default.fileExists(atPath: mirror + "/.ftpsync/trash"))
        // With the limit raised the same run goes through, into the trash.
        let allowed = try ftpsync(["pull", configPath, "--delete", "--max-delete", "55", "--json"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: mirror + "/cam")) ?? []).count == 5)

        // Push: 55 files gone here against 60 on the device.
        for i in 0..<55 { try writeFile(served + "/f\(i).txt", Array("file \(i)\n".utf8), modified: Push.minute()) }
        for i in 0..<55 { try writeFile(mirror + "/cam/f\(i).txt", Array("file \(i)\n".utf8), modified: Push.minute()) }
        #expect(try ftpsync(["push", configPath]).status == 0)
        for i in 0..<55 { try FileManager.default.removeItem(atPath: mirror + "/cam/f\(i).txt") }
        let push = try ftpsync(["push", configPath, "--delete", "--json"])
        #expect(push.status == 4, "\(push.stdout)\(push.stderr)")
        #expect(server.count("DELE") == 0)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: served)) ?? []).count == 60)
        let unlimited = try ftpsync(["push", configPath, "--delete", "--max-delete", "-1", "--json"])
        #expect(unlimited.status == 0, "\(unlimited.stderr)")
        #expect(server.count("DELE") == 55)
    }
}
