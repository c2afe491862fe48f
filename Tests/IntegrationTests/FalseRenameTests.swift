// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 13 item 5: a camera without a clock writes clips of one size, all dated 2000-01-01.
/// Size and time then say nothing: a clip deleted and another added on the device must never
/// turn into a rename of the old clip's bytes to the new name. A true move (same bytes) is still
/// a rename, proven by the server's hash (proftpd with mod_digest) or by sampled ranges
/// (pyftpdlib: REST + short RETRs, never the whole file).
@Suite(.serialized) struct FalseRenameTests {
    /// A server of the lab and how it proves content: `hashCommand` (proftpd with mod_digest:
    /// HASH, or XSHA256 where HASH is denied), else sampled ranges (pyftpdlib with MLSD, vsftpd
    /// with LIST: a day for a time this old).
    struct Lab: Sendable, CustomStringConvertible {
        var kind: FTPServer.Kind
        var address: String
        var options: [String] = []
        var hashCommand: String?
        var description: String { "\(kind.rawValue) \(options.joined(separator: " "))" }
    }

    static let servers: [Lab] = [
        Lab(kind: .pyftpdlib, address: "127.0.4.1"),
        Lab(kind: .proftpd, address: "127.0.4.2", options: ["--digest"], hashCommand: "HASH"),
        Lab(kind: .vsftpd, address: "127.0.4.3"),
        Lab(kind: .proftpd, address: "127.0.4.7", options: ["--digest", "--deny", "HASH"], hashCommand: "XSHA256"),
    ]
    /// 2000-01-01T00:00:00Z: what a camera whose clock was never set stamps on every clip.
    static let noClock: Double = 946_684_800
    /// A time a clock set: 2023-11-14T22:13:20Z.
    static let clock: Double = 1_700_000_000
    static let clipSize = 1_048_576

    static func start(_ lab: Lab, root: String) throws -> FTPServer {
        try FTPServer(lab.kind, root: root, address: lab.address, options: lab.options)
    }

    /// Pulls clips A and C; then the device deletes A and gets B (same size and time, other
    /// bytes). After the pull, B has B's bytes; A is kept (no `--delete`) or in the trash
    /// (`--delete`); a dry run before plans the same and changes nothing.
    @Test(arguments: servers, [false, true])
    func aNewClipWithTheSizeAndTimeOfADeletedOneIsDownloaded(server lab: Lab, delete: Bool) throws {
        let work = try makeTemporaryFolder("false-rename-\(lab.kind.rawValue)")
        let served = work + "/served"
        let clipA = pseudoRandomBytes(Self.clipSize, seed: 51)
        let clipB = pseudoRandomBytes(Self.clipSize, seed: 52)
        try writeFile(served + "/DCIM/A.MP4", clipA, modified: Self.noClock)
        try writeFile(served + "/DCIM/C.MP4", pseudoRandomBytes(Self.clipSize, seed: 53), modified: Self.noClock)
        let server = try Self.start(lab, root: served)
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        let first = try ftpsync(["pull", configPath])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Push.bytes(mirror + "/cam/DCIM/A.MP4") == clipA)

        try FileManager.default.removeItem(atPath: served + "/DCIM/A.MP4")
        try writeFile(served + "/DCIM/B.MP4", clipB, modified: Self.noClock)
        let options = delete ? ["--delete"] : []
        let dry = try ftpsync(["pull", configPath, "--dry-run", "--json"] + options)
        #expect(dry.status == 0, "\(dry.stderr)")
        let expected = ["download DCIM/B.MP4"] + (delete ? ["delete_local DCIM/A.MP4"] : [])
        #expect(Push.actions(dry.stdout).map { "\($0.kind) \($0.path)" } == expected, "\(dry.stdout)")
        #expect(!FileManager.default.fileExists(atPath: mirror + "/cam/DCIM/B.MP4"))
        // The report says why: the server's hash differs, or with no hash a default time is no
        // proof whatever sampled bytes say.
        let why = lab.hashCommand != nil ? "the server's SHA-256 differs" : "sampled bytes prove nothing here"
        let text = try ftpsync(["pull", configPath, "--dry-run"] + options).stdout
        #expect(text.contains("DCIM/B.MP4: same size and time") && text.contains(why), "\(text)")

        let pulled = try ftpsync(["pull", configPath, "--json"] + options)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(Push.actions(pulled.stdout).map { "\($0.kind) \($0.path)" } == expected, "\(pulled.stdout)")
        #expect(Push.bytes(mirror + "/cam/DCIM/B.MP4") == clipB)
        let trash = mirror + "/.ftpsync/trash"
        if delete {
            #expect(!FileManager.default.fileExists(atPath: mirror + "/cam/DCIM/A.MP4"))
            let stamps = (try? FileManager.default.contentsOfDirectory(atPath: trash)) ?? []
            #expect(stamps.count == 1)
            #expect(Push.bytes(trash + "/\(stamps.first ?? "")/cam/DCIM/A.MP4") == clipA)
        } else {
            #expect(Push.bytes(mirror + "/cam/DCIM/A.MP4") == clipA)
            #expect(!FileManager.default.fileExists(atPath: trash))
        }
        // Nothing left to do: B is recorded with its own bytes.
        let again = try ftpsync(["pull", configPath, "--json"] + options)
        #expect(Push.actions(again.stdout).isEmpty, "\(again.stdout)")
    }

    /// A clip moved on the device (same bytes, same time) is still a local rename: the
    /// local file keeps its inode, and the device is only asked for evidence — HASH or XSHA256 on
    /// proftpd (no RETR at all), three short REST + RETR ranges on pyftpdlib and vsftpd.
    @Test(arguments: servers)
    func aTrueMoveIsStillARenameProvenWithoutFetchingTheFile(server lab: Lab) throws {
        let work = try makeTemporaryFolder("true-move-\(lab.kind.rawValue)")
        let served = work + "/served"
        let clip = pseudoRandomBytes(Self.clipSize, seed: 54)
        try writeFile(served + "/DCIM/C.MP4", clip, modified: Self.clock)
        try writeFile(served + "/DCIM/D.MP4", pseudoRandomBytes(Self.clipSize, seed: 55), modified: Self.clock + 60)
        let server = try Self.start(lab, root: served)
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)
        let inode = Self.inode(mirror + "/cam/DCIM/C.MP4")
        let before = server.commands().count

        try FileManager.default.createDirectory(atPath: served + "/moved", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: served + "/DCIM/C.MP4", toPath: served + "/moved/C.MP4")
        let moved = try ftpsync(["pull", configPath, "--json"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(Push.actions(moved.stdout).map(\.kind) == ["mkdir_local", "rename_local"], "\(moved.stdout)")
        #expect(Push.bytes(mirror + "/cam/moved/C.MP4") == clip)
        #expect(Self.inode(mirror + "/cam/moved/C.MP4") == inode)
        #expect(!FileManager.default.fileExists(atPath: mirror + "/cam/DCIM/C.MP4"))

        let sent = Array(server.commands().dropFirst(before)).map { $0.uppercased() }
        let retrieved = sent.filter { $0.hasPrefix("RETR ") }
        if let command = lab.hashCommand {
            #expect(sent.contains { $0.hasPrefix(command + " ") && $0.hasSuffix("C.MP4") }, "\(sent)")
            #expect(retrieved.isEmpty, "\(sent)")
        } else {
            // Head, middle and tail: the middle and the tail after REST; never the whole file.
            #expect(retrieved.count == 3, "\(sent)")
            #expect(Set(sent.filter { $0.hasPrefix("REST ") }) == ["REST 522240", "REST 1044480"], "\(sent)")
        }
    }

    /// A device that answers REST with 350 but sends every file from byte 0: the sampled middle
    /// and tail are not the file's, so even a true move is not proven — it is downloaded, and the
    /// old copy kept. Evidence that cannot be trusted never moves a file.
    @Test func aDeviceThatIgnoresRESTProvesNothing() throws {
        let work = try makeTemporaryFolder("ignore-rest")
        let served = work + "/served"
        let clip = pseudoRandomBytes(Self.clipSize, seed: 56)
        try writeFile(served + "/DCIM/C.MP4", clip, modified: Self.clock)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.4.4", options: ["--ignore-rest"])
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)

        try FileManager.default.createDirectory(atPath: served + "/moved", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: served + "/DCIM/C.MP4", toPath: served + "/moved/C.MP4")
        let pulled = try ftpsync(["pull", configPath, "--json"])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(
            Push.actions(pulled.stdout).map { "\($0.kind) \($0.path)" } == [
                "mkdir_local moved", "download moved/C.MP4",
            ],
            "\(pulled.stdout)")
        #expect(Push.bytes(mirror + "/cam/moved/C.MP4") == clip)
        #expect(Push.bytes(mirror + "/cam/DCIM/C.MP4") == clip)
    }

    /// Clips of one bitrate share most bytes: three clips dated 2000-01-01 that differ only
    /// between the sampled head, middle and tail. One is deleted and another such clip added: on a
    /// device with no server hash this is no proof of a move, so the new clip is downloaded and
    /// the old copy kept.
    @Test func clipsThatDifferOnlyBetweenTheSamplesAreNoMove() throws {
        let work = try makeTemporaryFolder("sample-gap")
        let served = work + "/served"
        let base = pseudoRandomBytes(100_000, seed: 57)
        func clip(_ seed: UInt64) -> [UInt8] {
            var bytes = base
            let patch = pseudoRandomBytes(10_000, seed: seed)
            bytes.replaceSubrange(20_000..<30_000, with: patch)
            return bytes
        }
        for index in 1...3 {
            try writeFile(served + "/DCIM/CLIP000\(index).MP4", clip(UInt64(60 + index)), modified: Self.noClock)
        }
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.4.5")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)

        let newClip = clip(70)
        try FileManager.default.removeItem(atPath: served + "/DCIM/CLIP0001.MP4")
        try writeFile(served + "/DCIM/CLIP0004.MP4", newClip, modified: Self.noClock)
        let pulled = try ftpsync(["pull", configPath, "--json"])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(
            Push.actions(pulled.stdout).map { "\($0.kind) \($0.path)" } == ["download DCIM/CLIP0004.MP4"],
            "\(pulled.stdout)")
        #expect(Push.bytes(mirror + "/cam/DCIM/CLIP0004.MP4") == newClip)
        #expect(Push.bytes(mirror + "/cam/DCIM/CLIP0001.MP4") == clip(61), "the old copy is kept")
    }

    static func inode(_ path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }
}
