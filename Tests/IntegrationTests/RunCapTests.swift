// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// `--max-transfer` and `--max-duration` (issue 19) with the built binary against pyftpdlib
/// and vsftpd: the run stops starting transfers once a cap is reached, exits 5, says what is
/// left, and the next run does the rest; a transfer still moving 10 s after the cap is cut and
/// resumed by the next run (REST), not fetched again. Addresses 127.0.54.1 to 127.0.54.6;
/// the suites beside it, `RunCapConnectionTests` and `RunCapPushTests`, 127.0.54.7 to 127.0.54.13.
@Suite(.serialized) struct RunCapTests: RunCapLab {
    /// One connection, files of known size in name order: `--max-transfer 250000` moves a, b
    /// and c (c crosses the cap and finishes), starts neither d nor e; exit 5 with what is left;
    /// the next run fetches d and e only, exit 0.
    @Test(arguments: [(FTPServer.Kind.pyftpdlib, "127.0.54.1"), (.vsftpd, "127.0.54.2")])
    func maxTransferStopsAfterTheFileThatCrossesIt(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("cap-transfer")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        try writeTree(
            Self.names.map { SampleFile(path: $0, content: Self.content($0), modified: modified) }, at: served)
        let server = try FTPServer(kind, root: served, address: address)
        defer { server.stop() }
        let path = try config([server.deviceYAML(name: "cam")], mirror: mirror, at: work)
        let options = ["--parallel", "1", "--order", "name", "--no-progress"]

        let first = try ftpsync(["pull", path, "--max-transfer", "250000", "--json"] + options)
        #expect(first.status == 5, "\(first.stdout)\(first.stderr)")
        let json = try document(first)
        #expect(json["stopped_by"] as? String == "max_transfer")
        #expect(json["exit_code"] as? Int == 5)
        let device = try #require(devices(json).first)
        #expect(device["status"] as? String == "stopped")
        let left = try #require(device["left"] as? [String: Any])
        #expect(left["files"] as? Int == 2 && left["bytes"] as? Int == 2 * Self.size && left["cut"] as? Int == 0)
        let actions = device["actions"] as? [[String: Any]] ?? []
        #expect(actions.map { $0["path"] as? String ?? "" } == Self.names)
        #expect(actions.map { $0["status"] as? String ?? "" } == ["done", "done", "done", "deferred", "deferred"])
        #expect(retrieved(server) == ["a.bin", "b.bin", "c.bin"])
        for name in Self.names {
            #expect(Push.bytes(mirror + "/cam/" + name) == (name < "d" ? Self.content(name) : nil), "\(name)")
        }
        // d and e never began: nothing waits to resume.
        #expect(try partialsInStatus(path) == 0)

        // The text report of the next capped run says it in one line; then the rest, exit 0.
        let text = try ftpsync(["pull", path, "--max-transfer", "1"] + options)
        #expect(text.status == 5, "\(text.stdout)\(text.stderr)")
        #expect(
            text.stdout.contains("cam: stopped — --max-transfer was reached; the next run continues"), "\(text.stdout)")
        #expect(
            text.stdout.contains("  left for the next run: 1 file (97.7 KiB) not transferred\n"), "\(text.stdout)")
        let rest = try ftpsync(["pull", path, "--json"] + options)
        #expect(rest.status == 0, "\(rest.stdout)\(rest.stderr)")
        #expect(devices(try document(rest)).first?["left"] is NSNull)
        #expect(retrieved(server) == Self.names)
        for name in Self.names { #expect(Push.bytes(mirror + "/cam/" + name) == Self.content(name)) }
    }

    /// A transfer throttled to 150 kB/s under `--max-duration 2s`: still moving at the cap, it
    /// is cut about 10 s later (the grace) and kept under `.ftpsync/partial/`; the file after it
    /// is not started. The next run resumes it with REST from the bytes kept.
    @Test(arguments: [(FTPServer.Kind.pyftpdlib, "127.0.54.3"), (.vsftpd, "127.0.54.4")])
    func maxDurationCutsASlowTransferAfterTheGraceAndTheNextRunResumesIt(kind: FTPServer.Kind, address: String)
        throws
    {
        let work = try makeTemporaryFolder("cap-duration")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        let big = pseudoRandomBytes(3_000_000, seed: 54)
        try writeTree(
            [
                SampleFile(path: "a-big.bin", content: big, modified: modified),
                SampleFile(path: "b-small.txt", content: Array("small\n".utf8), modified: modified),
            ], at: served)
        let server = try FTPServer(kind, root: served, address: address, options: ["--throttle", "150000"])
        defer { server.stop() }
        let path = try config([server.deviceYAML(name: "cam")], mirror: mirror, at: work)
        let options = ["--parallel", "1", "--order", "name", "--no-progress", "--json"]

        let began = Date()
        let first = try ftpsync(["pull", path, "--max-duration", "2s"] + options)
        let seconds = Date().timeIntervalSince(began)
        #expect(first.status == 5, "\(first.stdout)\(first.stderr)")
        // Cut at the cap and its grace, not at the end of the file (20 s at this rate).
        #expect(seconds >= 11 && seconds < 19, "\(seconds)")
        let json = try document(first)
        #expect(json["stopped_by"] as? String == "max_duration")
        let device = try #require(devices(json).first)
        #expect(device["status"] as? String == "stopped")
        let actions = device["actions"] as? [[String: Any]] ?? []
        #expect(actions.map { $0["status"] as? String ?? "" } == ["deferred", "deferred"])
        #expect(
            actions.first?["error"] as? String
                == "cut 10 s after --max-duration was reached; the next run resumes from here")
        let left = try #require(device["left"] as? [String: Any])
        #expect(left["files"] as? Int == 2 && left["cut"] as? Int == 1 && left["actions"] as? Int == 2)
        let partials = mirror + "/.ftpsync/partial/cam"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
        #expect(names.count == 1, "\(names)")
        let kept =
            ((try? FileManager.default.attributesOfItem(atPath: partials + "/" + (names.first ?? "-")))?[.size]
                as? Int) ?? 0
        #expect(kept > 1_000_000 && kept < big.count, "\(kept)")
        #expect(!FileManager.default.fileExists(atPath: mirror + "/cam/a-big.bin"))
        #expect(retrieved(server) == ["a-big.bin"])
        // What the cut download moved counts as moved.
        let moved = (device["stats"] as? [String: Any])?["bytes_transferred"] as? Int ?? 0
        #expect(moved >= kept && moved < big.count, "\(moved) \(kept)")
        // The cut download waits to resume; b-small.txt, never begun, does not.
        #expect(try partialsInStatus(path) == 1)

        let next = try ftpsync(["pull", path] + options)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        let resumed = devices(try document(next)).first?["actions"] as? [[String: Any]] ?? []
        #expect(resumed.first?["path"] as? String == "a-big.bin")
        #expect(resumed.first?["offset"] as? Int == kept, "\(resumed)")
        #expect(server.commands().contains { $0.uppercased() == "REST \(kept)" }, "\(server.commands())")
        #expect(Push.bytes(mirror + "/cam/a-big.bin") == big)
        #expect(Push.bytes(mirror + "/cam/b-small.txt") == Array("small\n".utf8))
    }

    /// Two devices, one at a time: the cap is reached on the first, so the second is not
    /// started (no login on its server) and is reported so. Exit 5, which the metrics file, the
    /// log and the hooks get; `-q` prints nothing; nothing counts as a failure. The next run
    /// completes both.
    @Test func twoDevicesTheCapReachedOnTheFirstLeavesTheSecondUnstarted() throws {
        let work = try makeTemporaryFolder("cap-two")
        let mirror = work + "/mirror"
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        var servers: [FTPServer] = []
        defer { for server in servers { server.stop() } }
        for (index, address) in ["127.0.54.5", "127.0.54.6"].enumerated() {
            let served = work + "/served\(index)"
            try writeTree(
                Self.names.prefix(3).map { SampleFile(path: $0, content: Self.content($0), modified: modified) },
                at: served)
            servers.append(try FTPServer(.pyftpdlib, root: served, address: address))
        }
        let metrics = work + "/ftpsync.prom"
        let hookOutput = work + "/hook.txt"
        let path = try config(
            [servers[0].deviceYAML(name: "first"), servers[1].deviceYAML(name: "second")], mirror: mirror, at: work,
            top: "on_failure: echo \"$FTPSYNC_EXIT_CODE\" > \(hookOutput)\n")
        let log = work + "/run.log"
        let options = ["--parallel", "1", "--jobs", "1", "--order", "name", "--no-progress"]

        let quiet = try ftpsync(
            ["pull", path, "--max-transfer", "150000", "-q", "--metrics-file", metrics, "--log", log]
                + ["--log-format", "json"] + options)
        #expect(quiet.status == 5, "\(quiet.stderr)")
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        #expect(servers[1].count("USER") == 0)
        #expect(retrieved(servers[0]) == ["a.bin", "b.bin"])
        let scraped = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(scraped.contains("\nftpsync_run_exit_code 5\n"), "\(scraped)")
        #expect(scraped.contains(#"ftpsync_device_up{device="first"} 1"#), "\(scraped)")
        #expect(scraped.contains(#"ftpsync_device_refused{device="first"} 0"#), "\(scraped)")
        #expect(scraped.contains(#"ftpsync_device_consecutive_failures{device="first"} 0"#), "\(scraped)")
        #expect(!scraped.contains(#"ftpsync_device_up{device="second"} 1"#), "\(scraped)")
        #expect((try? String(contentsOfFile: hookOutput, encoding: .utf8)) == "5\n")
        let events = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let stops = events.filter { $0["event"] as? String == "device_stopped" }
        #expect(stops.map { $0["device"] as? String ?? "" } == ["first", "second"])
        #expect(stops.first?["files"] as? Int == 1 && stops.last?["files"] is NSNull)
        #expect(events.contains { $0["event"] as? String == "cap_reached" && $0["cap"] as? String == "max_transfer" })

        // Again with --json: the second one's `left` says it was not started.
        let capped = try ftpsync(["pull", path, "--max-transfer", "1", "--json"] + options)
        #expect(capped.status == 5, "\(capped.stderr)")
        let second = try #require(devices(try document(capped)).last)
        #expect(second["status"] as? String == "stopped")
        #expect((second["error"] as? String)?.hasPrefix("not started: --max-transfer was reached") == true)
        #expect((second["left"] as? [String: Any])?["started"] as? Bool == false)
        #expect(servers[1].count("USER") == 0)

        let status = try ftpsync(["status", path, "--json"])
        let known = (try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8))) as? [String: Any]
        let first = (known?["devices"] as? [[String: Any]])?.first { $0["name"] as? String == "first" }
        #expect(first?["consecutive_failures"] as? Int == 0, "\(status.stdout)")

        let rest = try ftpsync(["pull", path] + options)
        #expect(rest.status == 0, "\(rest.stdout)\(rest.stderr)")
        for device in ["first", "second"] {
            for name in Self.names.prefix(3) {
                #expect(Push.bytes(mirror + "/\(device)/" + name) == Self.content(name), "\(device)/\(name)")
            }
        }
    }

}
