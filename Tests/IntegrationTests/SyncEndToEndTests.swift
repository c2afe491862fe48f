// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Helpers of the two-way sync tests.
enum TwoWay {
    /// The config of one device `cam` served by `server`, its local folder `<mirror>/cam`.
    static func config(_ server: FTPServer, mirror: String, at folder: String) throws -> String {
        let path = folder + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// The text of each file below `root` (`.ftpsync` left out), by relative path.
    static func texts(_ root: String) -> [String: String] {
        treeListing(root).compactMapValues { facts in
            facts.isFolder ? nil : facts.content.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Writes `text` to `root/path` with the modification time `minutes` minutes ago (whole minutes).
    static func write(_ root: String, _ path: String, _ text: String, minutesAgo minutes: Double) throws {
        let now = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60
        try writeFile(root + "/" + path, Array(text.utf8), modified: now - minutes * 60)
    }

    /// The folders below `root`, relative.
    static func folders(_ root: String) -> [String] {
        treeListing(root).filter { $0.value.isFolder }.keys.sorted()
    }
}

/// Issue 23: `ftpsync sync` against real servers, pyftpdlib (MLSD) and vsftpd (LIST only), with
/// bisync's `test_changes` table: every change on either side, a first sync, `--dry-run`,
/// `--delete`, moves, folders, a type change and `--resync`. Addresses 127.0.25.1–2.
@Suite(.serialized) struct SyncEndToEndTests {
    static let servers: [(FTPServer.Kind, String)] = [(.pyftpdlib, "127.0.25.1"), (.vsftpd, "127.0.25.2")]

    @Test(arguments: servers)
    func everyChangeOnEitherSideEndsTheSameOnBoth(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("sync-\(kind.rawValue)")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let here = mirror + "/cam"
        // The first sync: each side has its own files, one the same on both, one that differs.
        for n in 1...4 { try TwoWay.write(served, "file\(n).txt", "device \(n)", minutesAgo: 300) }
        for n in 5...8 { try TwoWay.write(here, "file\(n).txt", "local \(n)", minutesAgo: 300) }
        try TwoWay.write(served, "same.txt", "same", minutesAgo: 200)
        try TwoWay.write(here, "same.txt", "same", minutesAgo: 200)
        try TwoWay.write(served, "differs.txt", "the device's", minutesAgo: 200)
        try TwoWay.write(here, "differs.txt", "ours!", minutesAgo: 100)
        try FileManager.default.createDirectory(atPath: served + "/empty-there", withIntermediateDirectories: true)
        let server = try FTPServer(kind, root: served, address: address)
        defer { server.stop() }
        let config = try TwoWay.config(server, mirror: mirror, at: work)

        let first = try ftpsync(["sync", config, "--json"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let copy = try #require(TwoWay.texts(here).keys.first { $0.hasPrefix("differs.conflict-") })
        #expect(TwoWay.texts(here) == TwoWay.texts(served), "after the first sync")
        #expect(TwoWay.texts(here)["differs.txt"] == "ours!")
        #expect(TwoWay.texts(here)[copy] == "the device's")
        #expect(TwoWay.texts(here).count == 11)
        #expect(TwoWay.folders(here) == ["empty-there"])

        // bisync's test_changes, here (Path1) and on the device (Path2).
        try TwoWay.write(served, "file1.txt", "device 1, changed there", minutesAgo: 50)
        try TwoWay.write(here, "file2.txt", "device 2, changed here", minutesAgo: 50)
        try FileManager.default.removeItem(atPath: served + "/file3.txt")
        try FileManager.default.removeItem(atPath: here + "/file4.txt")
        try TwoWay.write(served, "file5.txt", "local 5, changed there", minutesAgo: 40)
        try TwoWay.write(here, "file5.txt", "local 5, changed here too", minutesAgo: 30)
        try TwoWay.write(served, "file6.txt", "local 6, changed there and deleted here", minutesAgo: 40)
        try FileManager.default.removeItem(atPath: here + "/file6.txt")
        try TwoWay.write(here, "file7.txt", "local 7, changed here and deleted there", minutesAgo: 40)
        try FileManager.default.removeItem(atPath: served + "/file7.txt")
        try FileManager.default.removeItem(atPath: served + "/file8.txt")
        try FileManager.default.removeItem(atPath: here + "/file8.txt")
        try TwoWay.write(served, "new/file10.txt", "new there", minutesAgo: 20)
        try TwoWay.write(here, "file11.txt", "new here", minutesAgo: 20)
        #expect(rename(here + "/same.txt", here + "/moved-here.txt") == 0)

        // A dry run changes nothing on either side.
        let before = (TwoWay.texts(here), TwoWay.texts(served), server.commands().count)
        let dry = try ftpsync(["sync", config, "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        #expect(TwoWay.texts(here) == before.0 && TwoWay.texts(served) == before.1)
        let sent = server.commands().dropFirst(before.2)
        #expect(!sent.contains { line in Push.changing.contains { line.uppercased().hasPrefix($0 + " ") } }, "\(sent)")
        let planned = Push.actions(dry.stdout)
        #expect(planned.allSatisfy { $0.status == "planned" })
        #expect(planned.contains { $0.kind == "rename_remote" && $0.path == "same.txt" })

        let second = try ftpsync(["sync", config, "--json"])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        let local = TwoWay.texts(here)
        let there = TwoWay.texts(served)
        // The same on both sides but the one-sided deletes, which wait for --delete.
        #expect(
            local.filter { $0.key != "file3.txt" } == there.filter { $0.key != "file4.txt" }, "both sides the same")
        #expect(local["file1.txt"] == "device 1, changed there")
        #expect(local["file2.txt"] == "device 2, changed here")
        #expect(local["file3.txt"] == "device 3", "deleted there, kept here without --delete")
        #expect(there["file4.txt"] == "device 4", "deleted here, kept there without --delete")
        #expect(second.stdout.contains("1 file deleted here since the last sync is kept on the device"))
        #expect(local["file5.txt"] == "local 5, changed here too")
        #expect(local.contains { $0.key.hasPrefix("file5.conflict-") && $0.value == "local 5, changed there" })
        #expect(local["file6.txt"] == "local 6, changed there and deleted here")
        #expect(local["file7.txt"] == "local 7, changed here and deleted there")
        #expect(local["file8.txt"] == nil)
        #expect(local["new/file10.txt"] == "new there")
        #expect(local["file11.txt"] == "new here")
        #expect(local["moved-here.txt"] == "same" && local["same.txt"] == nil)
        if kind.logsCommands { #expect(server.count("RNFR") >= 2, "the move and the conflict copy are renames") }

        // With --delete the one-sided deletes go over: file3 to the trash here, file4 off the device.
        let deleting = try ftpsync(["sync", config, "--delete", "--json"])
        #expect(deleting.status == 0, "\(deleting.stdout)\(deleting.stderr)")
        #expect(TwoWay.texts(here)["file3.txt"] == nil && TwoWay.texts(served)["file4.txt"] == nil)
        #expect(TwoWay.texts(here) == TwoWay.texts(served))
        let trash = treeListing(mirror + "/.ftpsync/trash")
        #expect(trash.contains { $0.key.hasSuffix("cam/file3.txt") })

        // And then nothing is left to do.
        let last = try ftpsync(["sync", config, "--delete", "--json"])
        #expect(last.status == 0)
        #expect(Push.actions(last.stdout).isEmpty, "\(last.stdout)")
    }

    /// A file here where the device has a folder is skipped (exit 1), nothing lost; new folders
    /// go both ways; `--resync` starts over from the union and deletes nothing.
    @Test func typeChangesFoldersAndResync() throws {
        let work = try makeTemporaryFolder("sync-types")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let here = mirror + "/cam"
        try TwoWay.write(served, "keep.txt", "kept", minutesAgo: 100)
        try TwoWay.write(here, "keep.txt", "kept", minutesAgo: 100)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.25.3")
        defer { server.stop() }
        let config = try TwoWay.config(server, mirror: mirror, at: work)
        #expect(try ftpsync(["sync", config]).status == 0)

        try TwoWay.write(served, "x/inside.txt", "a folder there", minutesAgo: 10)
        try TwoWay.write(here, "x", "a file here", minutesAgo: 10)
        try FileManager.default.createDirectory(atPath: here + "/made/here", withIntermediateDirectories: true)
        let typed = try ftpsync(["sync", config, "--json"])
        #expect(typed.status == 1, "\(typed.stdout)")
        #expect(typed.stdout.contains("a folder on the device and a file here"))
        #expect(TwoWay.texts(here)["x"] == "a file here" && TwoWay.texts(served)["x/inside.txt"] == "a folder there")
        #expect(TwoWay.folders(served).contains("made/here"))

        // --resync: the records go; files that now differ on both sides are both kept.
        try FileManager.default.removeItem(atPath: here + "/x")
        try TwoWay.write(here, "keep.txt", "changed here, resynced", minutesAgo: 5)
        try FileManager.default.removeItem(atPath: served + "/keep.txt")
        try TwoWay.write(served, "keep.txt", "changed there", minutesAgo: 4)
        let resync = try ftpsync(["sync", config, "--resync", "--delete", "--json"])
        #expect(resync.status == 0, "\(resync.stdout)")
        let local = TwoWay.texts(here)
        #expect(local == TwoWay.texts(served))
        #expect(local["keep.txt"] == "changed here, resynced")
        #expect(local.contains { $0.key.hasPrefix("keep.conflict-") && $0.value == "changed there" })
        #expect(local["x/inside.txt"] == "a folder there")
        #expect(Push.actions(resync.stdout).allSatisfy { !$0.kind.hasPrefix("delete") })
        let usage = try ftpsync(["pull", config, "--resync"])
        #expect(usage.status == 2 && usage.stderr.contains("--resync is for sync only"))
    }
}
