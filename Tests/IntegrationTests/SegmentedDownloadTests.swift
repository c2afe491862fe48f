import Foundation
import Testing

/// Issue 20: a large file fetched in segments (`segments`, `--segments`): each range over its
/// own connection (REST + RETR, cut once the range is in), written into one partial, resumed
/// range by range after a kill or a cut connection, placed byte-identical. Real servers on
/// 127.0.55.1 to 127.0.55.9, the built binary.
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

    @Test(arguments: [(FTPServer.Kind.pyftpdlib, "127.0.55.1"), (.vsftpd, "127.0.55.2")])
    func aLargeFileIsFetchedInRangesOverSeveralConnections(kind: FTPServer.Kind, address: String) throws {
        let (work, server, config) = try Self.setUp(kind, address: address)
        defer { server.stop() }
        let run = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/clip.mov") == Data(Self.content(7)))
        // Four ranges of 1.5 MB: three start with REST, each over its own connection.
        #expect(Self.rests(server) == [1_500_000, 3_000_000, 4_500_000], "\(server.commands())")
        #expect(server.count("RETR") == 4)
        #expect(server.count("USER") >= 4)
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
        // The ranges' own starts, and one REST a megabyte further for each cut.
        let rests = Self.rests(server)
        for start in [1_500_000, 3_000_000, 4_500_000] { #expect(rests.contains(start), "\(rests)") }
        for cut in [1_048_576, 1_500_000 + 1_048_576, 3_000_000 + 1_048_576, 4_500_000 + 1_048_576] {
            #expect(rests.contains(cut), "\(rests)")
        }
    }

    /// Killed midway (SIGKILL): the next run resumes each range where its last checkpoint was,
    /// never from a range's start again once it got a checkpoint, and the file is whole.
    @Test func aKilledDownloadResumesRangeByRange() throws {
        // 16 MB in four ranges of 4 MB at 300 kB/s each (pyftpdlib lets the first second of a
        // connection through at full speed): some 13 s to fetch.
        let size = 16_000_000
        let (work, server, config) = try Self.setUp(
            .pyftpdlib, address: "127.0.55.5", options: ["--throttle", "300000"], size: size)
        defer { server.stop() }
        let child = try spawn(ftpsyncBinary, ["pull", config, "--no-progress"], output: true)
        let partials = work + "/mirror/.ftpsync/partial/cam"
        let started = waitUntil(60) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
            return names.contains { $0.hasSuffix(".seg") }
        }
        // Past the first checkpoints (one every 4 MiB written in all) after some 3 s.
        Thread.sleep(forTimeInterval: 5)
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 30)
        unlink(child.stdout)
        unlink(child.stderr)
        #expect(started)
        #expect(!FileManager.default.fileExists(atPath: work + "/mirror/cam/clip.mov"))
        let before = Self.rests(server)
        let run = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(
            FileManager.default.contents(atPath: work + "/mirror/cam/clip.mov") == Data(Self.content(7, size: size)))
        let afterKill = Self.rests(server).filter { !before.contains($0) }
        // The second run's RESTs are past the ranges' starts: it went on, it did not start over.
        #expect(afterKill.count == 4, "\(before) then \(afterKill); \(server.commands())")
        #expect(afterKill.allSatisfy { ![0, 4_000_000, 8_000_000, 12_000_000].contains($0) }, "\(afterKill)")
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
}
