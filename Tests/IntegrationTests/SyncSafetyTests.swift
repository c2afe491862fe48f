// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 23: what a breaker found `ftpsync sync` doing wrong, each against a real server: edits
/// of one size and one time on both sides, a device edit in the minute of the last sync (LIST),
/// filtered files in a folder the device deleted, size bounds, a one-run folder exclude, a
/// device change during an upload, and a first sync of identical files with other times.
/// Addresses 127.0.25.5–11.
@Suite(.serialized) struct SyncSafetyTests {
    /// A device `cam` served by a fresh `kind` server at `address`, its folders and config.
    struct Setup {
        let work: String
        let served: String
        let mirror: String
        var here: String { mirror + "/cam" }
        let server: FTPServer
        let config: String

        init(
            _ label: String, _ kind: FTPServer.Kind, _ address: String, remote: String = "/", extra: String = "",
            options: [String] = []
        ) throws {
            work = try makeTemporaryFolder(label)
            served = work + "/served"
            mirror = work + "/mirror"
            try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: mirror + "/cam", withIntermediateDirectories: true)
            server = try FTPServer(kind, root: served, address: address, options: options)
            config = work + "/device.yaml"
            try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam", remote: remote, extra: extra)).write(
                toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o600)
        }
    }

    /// Two edits of the same size with the same time are not taken for one: both versions stay.
    @Test func sameSizeSameTimeEditsOnBothSidesAreAConflict() throws {
        let s = try Setup("sync-same-size", .pyftpdlib, "127.0.25.5")
        defer { s.server.stop() }
        try TwoWay.write(s.served, "a.txt", "base", minutesAgo: 60)
        #expect(try ftpsync(["sync", s.config]).status == 0)
        let time = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 120
        try writeFile(s.served + "/a.txt", Array("device edit".utf8), modified: time)
        try writeFile(s.here + "/a.txt", Array("local edit!".utf8), modified: time)
        let run = try ftpsync(["sync", s.config, "--json"])
        #expect(run.status == 0, "\(run.stdout)")
        let local = TwoWay.texts(s.here)
        #expect(local["a.txt"] == "local edit!")
        #expect(local.contains { $0.key.hasPrefix("a.conflict-") && $0.value == "device edit" }, "\(local)")
        #expect(local == TwoWay.texts(s.served))
    }

    /// LIST gives minutes: a device edit of the same size in the minute of the last sync is
    /// still seen (its time asked with MDTM), never lost to a later upload.
    @Test func aDeviceEditInTheMinuteOfTheLastSyncIsSeen() throws {
        let s = try Setup("sync-same-minute", .vsftpd, "127.0.25.6")
        defer { s.server.stop() }
        // Seconds in the past: a time in the future lists with its year, as `ls` shows it.
        let now = Date().timeIntervalSince1970
        try writeFile(s.served + "/n.txt", Array("version-A".utf8), modified: now - 6)
        #expect(try ftpsync(["sync", s.config]).status == 0)
        try writeFile(s.served + "/n.txt", Array("version-B".utf8), modified: now - 3)
        let run = try ftpsync(["sync", s.config])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(TwoWay.texts(s.here)["n.txt"] == "version-B")
    }

    /// A folder the device deleted keeps, here, what the filters leave out of it; a file outside
    /// `max_size` is left alone on both sides.
    @Test func filtersAndBoundsAreKept() throws {
        let s = try Setup(
            "sync-filters", .pyftpdlib, "127.0.25.7", extra: "    exclude: ['*.tmp']\n    max_size: 100")
        defer { s.server.stop() }
        try TwoWay.write(s.served, "a/1.txt", "one", minutesAgo: 60)
        try TwoWay.write(s.served, "small.txt", "small", minutesAgo: 60)
        #expect(try ftpsync(["sync", s.config]).status == 0)
        try TwoWay.write(s.here, "a/notes.tmp", "work", minutesAgo: 5)
        try FileManager.default.removeItem(atPath: s.served + "/a")
        try TwoWay.write(s.served, "small.txt", String(repeating: "x", count: 500), minutesAgo: 5)
        try TwoWay.write(s.here, "big-here.txt", String(repeating: "y", count: 500), minutesAgo: 5)
        let run = try ftpsync(["sync", s.config, "--delete"])
        #expect(run.status == 0, "\(run.stdout)")
        let local = TwoWay.texts(s.here)
        #expect(local["a/notes.tmp"] == "work", "a left-out file goes nowhere")
        #expect(local["a/1.txt"] == nil)
        #expect(local["small.txt"] == "small", "500 B on the device is over max_size: not downloaded")
        #expect(TwoWay.texts(s.served)["big-here.txt"] == nil)
    }

    /// A folder excluded for one run keeps its records: afterwards a delete here is carried
    /// over and a device edit is downloaded, not taken for a conflict.
    @Test func aOneRunFolderExcludeKeepsTheRecords() throws {
        let s = try Setup("sync-one-run-exclude", .pyftpdlib, "127.0.25.8")
        defer { s.server.stop() }
        try TwoWay.write(s.served, "sub/a.txt", "a", minutesAgo: 60)
        try TwoWay.write(s.served, "sub/b.txt", "b", minutesAgo: 60)
        #expect(try ftpsync(["sync", s.config]).status == 0)
        #expect(try ftpsync(["sync", s.config, "--exclude", "sub/"]).status == 0)
        try FileManager.default.removeItem(atPath: s.here + "/sub/a.txt")
        try TwoWay.write(s.served, "sub/b.txt", "b changed there", minutesAgo: 5)
        let run = try ftpsync(["sync", s.config, "--delete", "--json"])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(TwoWay.texts(s.served)["sub/a.txt"] == nil)
        #expect(TwoWay.texts(s.here) == ["sub/b.txt": "b changed there"])
        #expect(!Push.actions(run.stdout).contains { $0.kind == "conflict" })
    }

    /// Syncs `big.bin` (a short device version), changes it here (1.5 MB of `seed`), starts a
    /// sync and runs `edit` on the device once its upload has begun.
    /// - Returns: the exit status of that sync.
    static func editDuringTheUpload(_ s: Setup, seed: UInt64, _ edit: () throws -> Void) throws -> Int32 {
        try TwoWay.write(s.served, "big.bin", "the device's first version", minutesAgo: 60)
        #expect(try ftpsync(["sync", s.config]).status == 0)
        try writeFile(s.here + "/big.bin", pseudoRandomBytes(1_500_000, seed: seed), modified: Push.minute(daysAgo: 0))
        let child = try spawn(ftpsyncBinary, ["sync", s.config, "-q"], output: false)
        #expect(waitUntil(30) { FileManager.default.fileExists(atPath: s.served + "/.big.bin.ftpsync-part") })
        try edit()
        return waitForExit(child.pid, timeout: 60)
    }

    /// A device file changed while its replacement uploads is not overwritten; the next sync
    /// keeps both versions.
    @Test func aDeviceChangeDuringTheUploadIsNotOverwritten() throws {
        let s = try Setup("sync-race", .pyftpdlib, "127.0.25.9", options: ["--throttle", "400000"])
        defer { s.server.stop() }
        let status = try Self.editDuringTheUpload(s, seed: 7) {
            try TwoWay.write(s.served, "big.bin", "edited on the device meanwhile", minutesAgo: 0)
        }
        #expect(status == 1, "the upload fails: the device's file changed")
        #expect(TwoWay.texts(s.served)["big.bin"] == "edited on the device meanwhile")
        let next = try ftpsync(["sync", s.config])
        #expect(next.status == 0, "\(next.stdout)")
        let there = TwoWay.texts(s.served)
        #expect(there.contains { $0.key.hasPrefix("big.conflict-") && $0.value == "edited on the device meanwhile" })
        #expect(Push.bytes(s.served + "/big.bin") == pseudoRandomBytes(1_500_000, seed: 7))
    }

    /// The same during an upload, at the same size: the second the device lists (MDTM) tells.
    @Test func aSameSizeDeviceChangeDuringTheUploadIsNotOverwritten() throws {
        let s = try Setup("sync-race-size", .pyftpdlib, "127.0.25.15", options: ["--throttle", "400000"])
        defer { s.server.stop() }
        let status = try Self.editDuringTheUpload(s, seed: 8) {
            // Half a minute off the first version's time (whole minutes apart would read as a zone).
            try writeFile(
                s.served + "/big.bin", Array("the device's other version".utf8), modified: Push.minute(daysAgo: 0) - 150
            )
        }
        #expect(status == 1, "the upload fails: the device's file changed")
        #expect(TwoWay.texts(s.served)["big.bin"] == "the device's other version")
    }

    /// LIST gives minutes: a file this sync uploaded is recorded to the second (MDTM), so a
    /// device edit of the same size later in that minute is seen, never lost.
    @Test func anUploadIsRecordedToTheSecond() throws {
        let s = try Setup("sync-upload-second", .vsftpd, "127.0.25.16")
        defer { s.server.stop() }
        var now = Date().timeIntervalSince1970
        if now - (now / 60).rounded(.down) * 60 < 5 {
            sleep(5)
            now = Date().timeIntervalSince1970
        }
        let minute = (now / 60).rounded(.down) * 60
        try writeFile(s.here + "/q.txt", Array("ours, uploaded".utf8), modified: minute + 1)
        #expect(try ftpsync(["sync", s.config]).status == 0)
        try writeFile(s.served + "/q.txt", Array("theirs, edited".utf8), modified: minute + 3)
        let run = try ftpsync(["sync", s.config])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(TwoWay.texts(s.here)["q.txt"] == "theirs, edited")
    }

    /// The device's remote folder is made on a first sync; gone after a sync (a card not
    /// mounted, `remote:` mistyped), it fails the device and nothing is made or deleted.
    @Test func aRemoteFolderGoneAfterASyncFailsTheDevice() throws {
        let s = try Setup("sync-root", .pyftpdlib, "127.0.25.11", remote: "/DCIM")
        defer { s.server.stop() }
        try TwoWay.write(s.here, "a.txt", "ours", minutesAgo: 30)
        let first = try ftpsync(["sync", s.config, "--json"])
        #expect(first.status == 0, "\(first.stdout)")
        #expect(TwoWay.texts(s.served + "/DCIM") == ["a.txt": "ours"])
        try FileManager.default.removeItem(atPath: s.served + "/DCIM")
        let gone = try ftpsync(["sync", s.config, "--delete", "--json"])
        #expect(gone.status == 1, "\(gone.stdout)")
        #expect(gone.stdout.contains("remote folder /DCIM does not exist on the device"))
        #expect(!FileManager.default.fileExists(atPath: s.served + "/DCIM"))
        #expect(TwoWay.texts(s.here) == ["a.txt": "ours"])
    }

    /// The first sync of files copied without their times (`cp` without `-p`): the same bytes
    /// are recorded, not doubled as conflicts.
    @Test func identicalFilesWithOtherTimesAreRecorded() throws {
        let s = try Setup("sync-copied", .pyftpdlib, "127.0.25.10")
        defer { s.server.stop() }
        for n in 0..<3 {
            let bytes = pseudoRandomBytes(20_000 * (n + 1), seed: UInt64(n + 1))
            try writeFile(s.served + "/f\(n).bin", bytes, modified: Push.minute(daysAgo: 5))
            try writeFile(s.here + "/f\(n).bin", bytes, modified: Push.minute(daysAgo: 0))
        }
        try TwoWay.write(s.served, "other.txt", "device", minutesAgo: 300)
        try TwoWay.write(s.here, "other.txt", "local!", minutesAgo: 10)
        let run = try ftpsync(["sync", s.config, "--json"])
        #expect(run.status == 0, "\(run.stdout)")
        let conflicts = Push.actions(run.stdout).filter { $0.kind == "conflict" }.map(\.path)
        #expect(conflicts == ["other.txt"])
        #expect(TwoWay.texts(s.here).count == 5)
        #expect(try ftpsync(["sync", s.config, "--json"]).stdout.contains("\"actions\" : [\n\n      ]"))
    }
}
