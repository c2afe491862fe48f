// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 20: a large file fetched in segments (`segments`, `--segments`): each range over its
/// own connection (REST + RETR, cut once the range is in), written into one partial, resumed
/// range by range after a kill or a cut connection, placed byte-identical. Real servers on
/// 127.0.55.1 to 127.0.55.10, the built binary.
@Suite(.serialized) struct SegmentedDownloadTests {
    static let size = 6_000_000

    static func content(_ seed: UInt64, size: Int = size) -> [UInt8] { pseudoRandomBytes(size, seed: seed) }

    static func setUp(
        _ kind: FTPServer.Kind, address: String, options: [String] = [], extra: String = "", size: Int = size
    ) throws -> (work: String, server: FTPServer, config: String) {
        let work = try makeTemporaryFolder("segments")
        try writeFile(work + "/served/clip.mov", content(7, size: size), modified: 1_700_000_000)
        let server = try FTPServer(kind, root: work + "/served", address: address, options: options)
        let config = work + "/device.yaml"
        let keys = "    segments: 4\n    segment_threshold: 1M\n" + extra
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam", extra: keys))
            .write(toFile: config, atomically: true, encoding: .utf8)
        return (work, server, config)
    }

    static func rests(_ server: FTPServer) -> [Int] {
        server.commands().filter { $0.hasPrefix("REST ") }.compactMap { Int($0.dropFirst(5)) }.sorted()
    }

    /// Both servers throttled to 1 MB/s a connection: one connection alone would take 6 s, so the
    /// others come online before the first is through.
    @Test(arguments: [(FTPServer.Kind.pyftpdlib, "127.0.55.1"), (.vsftpd, "127.0.55.2")])
    func aLargeFileIsFetchedInRangesOverSeveralConnections(kind: FTPServer.Kind, address: String) throws {
        let (work, server, config) = try Self.setUp(kind, address: address, options: ["--throttle", "1000000"])
        defer { server.stop() }
        let run = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/clip.mov") == Data(Self.content(7)))
        // The first connection starts at byte 0, each other one on half of what is left of the
        // largest range once logged in (and a connection done with its range halves another):
        // several ranges, each but the first starting with REST. (Four or more when the siblings
        // log in within a second or so; on a loaded machine a late one finds no range of 2 MiB
        // left to halve.)
        #expect(server.count("RETR") >= 2, "\(server.commands())")
        #expect(Self.rests(server).count == server.count("RETR") - 1, "\(server.commands())")
        #expect(Self.rests(server).allSatisfy { $0 > 0 }, "\(server.commands())")
        // Over several sessions; a session done with its range may take half of another, so one
        // session can send two RETRs (a CI run saw 4 sessions and 5 ranges).
        #expect(server.count("USER") >= 2, "\(server.commands())")
        // Nothing is left under .ftpsync: the partial was placed, its row dropped.
        let partials =
            (try? FileManager.default.contentsOfDirectory(atPath: work + "/mirror/.ftpsync/partial/cam")) ?? []
        #expect(partials.isEmpty, "\(partials)")
        // A second run has nothing to do.
        let again = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(again.status == 0 && !again.stdout.contains("\"download\""), "\(again.stdout)")
    }

    /// `--segments 1` on the command line fetches the same file whole.
    @Test func theOptionWinsOverTheKey() throws {
        let (work, server, config) = try Self.setUp(.pyftpdlib, address: "127.0.55.3")
        defer { server.stop() }
        let run = try ftpsync(["pull", config, "--no-progress", "--segments", "1"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/clip.mov") == Data(Self.content(7)))
        #expect(Self.rests(server).isEmpty && server.count("RETR") == 1)
    }

    /// A server that cuts every data connection after 1 MB: each range goes on with REST from
    /// where it stopped, in the same run.
    @Test func aCutRangeGoesOnWhereItStopped() throws {
        let (work, server, config) = try Self.setUp(
            .pyftpdlib, address: "127.0.55.4", options: ["--drop-after", "1048576"])
        defer { server.stop() }
        let run = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/clip.mov") == Data(Self.content(7)))
        // Every RETR but the first is a range going on where it stopped (REST), never from byte 0
        // again: the server cut each one after 1 MB, so 6 MB took at least six.
        #expect(server.count("RETR") >= 6, "\(server.commands())")
        #expect(Self.rests(server).count == server.count("RETR") - 1, "\(server.commands())")
        #expect(Self.rests(server).allSatisfy { $0 > 0 })
    }

    /// Killed midway (SIGKILL): the next run resumes each range where its last checkpoint was,
    /// never from a range's start again once it got a checkpoint, and the file is whole.
    @Test func aKilledDownloadResumesRangeByRange() throws {
        // 16 MB in four ranges of 4 MB at 400 kB/s each (pyftpdlib lets the first second of a
        // connection through at full speed): some 10 s to fetch.
        let size = 16_000_000
        let (work, server, config) = try Self.setUp(
            .pyftpdlib, address: "127.0.55.5", options: ["--throttle", "400000"], size: size)
        defer { server.stop() }
        let child = try spawn(ftpsyncBinary, ["pull", config, "--no-progress"], output: true)
        let partials = work + "/mirror/.ftpsync/partial/cam"
        let started = waitUntil(60) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
            return names.contains { $0.hasSuffix(".seg") }
        }
        // Past the first checkpoint (one every 8 MiB written in all) after some 5 s.
        Thread.sleep(forTimeInterval: 6.5)
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 30)
        unlink(child.stdout)
        unlink(child.stderr)
        #expect(started)
        #expect(!FileManager.default.fileExists(atPath: work + "/mirror/cam/clip.mov"))
        let (restsBefore, retrsBefore) = (Self.rests(server).count, server.count("RETR"))
        let run = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(
            FileManager.default.contents(atPath: work + "/mirror/cam/clip.mov") == Data(Self.content(7, size: size)))
        // The second run went on where each range's checkpoint was: every RETR it sent follows
        // a REST (none starts the file over from byte 0).
        let (rests, retrs) = (Self.rests(server).count - restsBefore, server.count("RETR") - retrsBefore)
        #expect(retrs > 0 && rests == retrs, "\(server.commands())")
        // Its report says so: the offset is what the ranges held, not 0.
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let device = (document["devices"] as? [[String: Any]])?.first
        let action = (device?["actions"] as? [[String: Any]])?.first
        let offset = action?["offset"] as? Int ?? 0
        #expect(offset > 0 && offset < size, "\(action ?? [:])")
    }

    /// Cut by a run cap's grace well before the first checkpoint (every 8 MiB): what each range
    /// holds is saved at the cut, so the next run's first RETR goes on from there (REST past 0),
    /// not from byte 0 (a breaker's case: every capped run started over, and the file never came),
    /// also when the next run asks for no segments.
    @Test func aDownloadCutByTheGraceKeepsItsRanges() throws {
        let size = 20_000_000
        let (work, server, config) = try Self.setUp(
            .pyftpdlib, address: "127.0.55.8", options: ["--throttle", "100000"], size: size)
        defer { server.stop() }
        let capped = try ftpsync(["pull", config, "--no-progress", "--max-duration", "1s"])
        #expect(capped.status == 5, "\(capped.stdout)\(capped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/mirror/cam/clip.mov"))
        let earlier = server.commands().count
        // With `--segments 1` too: the ranges kept go on over the one connection (they were
        // thrown away and the file fetched again from byte 0).
        let child = try spawn(ftpsyncBinary, ["pull", config, "--no-progress", "--segments", "1"], output: true)
        let sent = waitUntil(30) { server.commands().dropFirst(earlier).contains { $0.hasPrefix("RETR ") } }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 30)
        unlink(child.stdout)
        unlink(child.stderr)
        #expect(sent)
        // Every RETR of the next run follows a REST past byte 0 on its session (the sessions'
        // commands interleave in the log: counted, not paired).
        let next = Array(server.commands().dropFirst(earlier))
        let rests = next.filter { $0.hasPrefix("REST ") }.map { Int($0.dropFirst(5)) ?? 0 }
        let retrs = next.filter { $0.hasPrefix("RETR ") }.count
        #expect(retrs > 0 && rests.count >= retrs && rests.allSatisfy { $0 > 0 }, "\(next)")
    }

    /// A download cut at the grace keeps its ranges; the device's file is then written again
    /// with other bytes, the same size and the same time (a card formatted and filled again).
    /// The next run must not go on from the ranges kept: it fetches the new file whole (a
    /// breaker's case: the old ranges were resumed, the mix placed and recorded).
    @Test func rangesKeptFromAnotherVersionOfTheFileAreNotResumed() throws {
        let size = 20_000_000
        let (work, first, config) = try Self.setUp(
            .pyftpdlib, address: "127.0.55.9", options: ["--throttle", "100000"], size: size)
        let port = first.port
        let capped = try ftpsync(["pull", config, "--no-progress", "--max-duration", "1s"])
        first.stop()
        #expect(capped.status == 5, "\(capped.stdout)\(capped.stderr)")
        let other = Self.content(8, size: size)
        try writeFile(work + "/served/clip.mov", other, modified: 1_700_000_000)
        let server = try FTPServer(.pyftpdlib, root: work + "/served", address: "127.0.55.9", port: port)
        defer { server.stop() }
        let run = try ftpsync(["pull", config, "--no-progress"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let same = FileManager.default.contents(atPath: work + "/mirror/cam/clip.mov") == Data(other)
        #expect(same, "ranges of the earlier version were resumed")
    }

    /// vsftpd taking two connections at once, `segments: 4`: the sessions for ranges it refuses
    /// are not tried again and again (the run stalled between attempts), the file comes whole,
    /// the refusal is kept, and a later run opens no session the server refuses (a fresh user's
    /// case: every run was refused 3 to 25 times).
    @Test func aServerThatRefusesSessionsForRangesIsKeptToWhatItTook() throws {
        let (work, server, config) = try Self.setUp(.vsftpd, address: "127.0.55.10", options: ["--max-cons", "2"])
        defer { server.stop() }
        func refusals() -> Int {
            let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
            return log.components(separatedBy: "\"421 ").count - 1
        }
        let first = try ftpsync(["pull", config, "--no-progress"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("later runs open no more than 2"), "\(first.stdout)")
        let clip = work + "/mirror/cam/clip.mov"
        #expect(FileManager.default.contents(atPath: clip) == Data(Self.content(7)))
        try FileManager.default.removeItem(atPath: clip)
        let before = refusals()
        let again = try ftpsync(["pull", config, "--no-progress"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(FileManager.default.contents(atPath: clip) == Data(Self.content(7)))
        #expect(refusals() == before, "\(again.stdout)")
    }

    /// ProFTPD with mod_digest offers HASH: the finished file is checked against the server's
    /// hash before it is placed.
    @Test func theServersHashChecksTheFinishedFile() throws {
        let (work, server, config) = try Self.setUp(.proftpd, address: "127.0.55.6", options: ["--digest"])
        defer { server.stop() }
        let run = try ftpsync(["pull", config, "--no-progress"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/clip.mov") == Data(Self.content(7)))
        #expect(server.commands().contains { $0.hasPrefix("HASH") || $0.hasPrefix("XSHA") }, "\(server.commands())")
    }

    /// A server that answers REST with 350 but sends every range from byte 0 (pyftpdlib
    /// `--ignore-rest`): each range then begins with the file's first bytes. Found, the partial
    /// is dropped and the file fetched whole over one connection: placed byte-identical. (It
    /// was placed with three ranges holding the file's head, reported done, and never fetched
    /// again.)
    @Test func aServerThatIgnoresRESTGetsTheFileWhole() throws {
        let (work, server, config) = try Self.setUp(
            .pyftpdlib, address: "127.0.55.7", options: ["--throttle", "2000000", "--ignore-rest"])
        defer { server.stop() }
        let run = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/clip.mov") == Data(Self.content(7)))
        // The ranges (REST) first, then one whole RETR without REST.
        #expect(server.commands().last { $0.hasPrefix("RETR") || $0.hasPrefix("REST") }?.hasPrefix("RETR") == true)
        let again = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(again.status == 0 && !again.stdout.contains("\"download\""), "\(again.stdout)")
    }

    /// A file still being written (it grows while its ranges are fetched, its time recent) is
    /// held like a file fetched whole: not placed, noted, fetched whole by a later run. (The
    /// ranges stop at the listed size: it was placed cut short and reported done.)
    @Test func aFileThatGrowsWhileItsRangesAreFetchedIsHeld() throws {
        let work = try makeTemporaryFolder("segments-growing")
        let clip = work + "/served/clip.mov"
        try writeFile(clip, Self.content(9), modified: Date().timeIntervalSince1970)
        let server = try FTPServer(
            .pyftpdlib, root: work + "/served", address: "127.0.55.8", options: ["--throttle", "1000000"])
        defer { server.stop() }
        let config = work + "/device.yaml"
        try
            ("local: \(work)/mirror\ndevices:\n"
            + server.deviceYAML(name: "cam", extra: "    segments: 4\n    segment_threshold: 1M\n"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let writer = try startPython(
            "import sys, time\ntime.sleep(1.0)\nf = open(sys.argv[1], 'ab'); f.write(b'x' * 1000000); f.close()",
            on: clip)
        let first = try ftpsync(["pull", config, "--no-progress", "--json"])
        writer.waitUntilExit()
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let here = work + "/mirror/cam/clip.mov"
        #expect(!FileManager.default.fileExists(atPath: here), "a file still being written is not placed")
        #expect(first.stdout.contains("still being written"), "\(first.stdout)")
    }
}
