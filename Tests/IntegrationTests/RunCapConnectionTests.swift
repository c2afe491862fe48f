// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Run caps with several connections, an offload and a listing cut short (issue 19), with the
/// built binary against pyftpdlib: what a cap leaves is the last of the order, transfers sent
/// ahead count as started, a device stopped while listed is stopped, not failed. Addresses
/// 127.0.54.9 to 127.0.54.14.
@Suite(.serialized) struct RunCapConnectionTests: RunCapLab {
    /// Two connections, transfers throttled to 200 kB/s each, one file (c) six times the others:
    /// while c moves on one connection, the other gets through a, b and then e, before the cap;
    /// d, handed out to c's connection while c went on, comes after the cap and still starts, so
    /// what the cap leaves is only the last of the order (f), never a file in the middle.
    @Test func withTwoConnectionsACapLeavesOnlyTheLastOfTheOrder() throws {
        let work = try makeTemporaryFolder("cap-two-connections")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        let names = ["a.bin", "b.bin", "c.bin", "d.bin", "e.bin", "f.bin"]
        func content(_ name: String) -> [UInt8] {
            pseudoRandomBytes(name == "c.bin" ? 1_200_000 : 200_000, seed: UInt64(name.utf8.first ?? 0))
        }
        try writeTree(names.map { SampleFile(path: $0, content: content($0), modified: modified) }, at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.54.9", options: ["--throttle", "200000"])
        defer { server.stop() }
        let path = try config(
            [server.deviceYAML(name: "cam", extra: "    max_connections: 2\n")], mirror: mirror, at: work)

        let run = try ftpsync(
            [
                "pull", path, "--max-transfer", "1000000", "--parallel", "2", "--order", "name", "--no-progress",
                "--json",
            ])
        #expect(run.status == 5, "\(run.stdout)\(run.stderr)")
        let actions = devices(try document(run)).first?["actions"] as? [[String: Any]] ?? []
        #expect(actions.map { $0["path"] as? String ?? "" } == names)
        let statuses = actions.map { $0["status"] as? String ?? "" }
        // As timed here, e starts before the cap and f is left; on a slower machine the cap may
        // come before e starts, and then d and e are left too: never d alone.
        let done = statuses.prefix { $0 == "done" }.count
        #expect(done >= 3 && statuses.dropFirst(done).allSatisfy { $0 == "deferred" }, "\(statuses)")
        #expect(statuses.last == "deferred", "\(statuses)")
        #expect(Set(retrieved(server)) == Set(names.prefix(done)))
        for name in names.prefix(done) {
            let fetched = Push.bytes(mirror + "/cam/" + name) == content(name)
            #expect(fetched, "\(name)")
        }
        #expect(try partialsInStatus(path) == 0)
    }

    /// Two connections, largest first, at 300 kB/s each: the connection fetching the largest
    /// file takes no other ahead of it (it would wait behind), so the second connection takes
    /// the second largest; the cap (900 kB) then leaves the smaller ones, never the second
    /// largest with a smaller one done. (A breaker's case: k3 waited behind k4 and was cut at the
    /// grace while k2, later in the order, was done.)
    @Test func aLargeTransferHoldsNoOtherBehindIt() throws {
        let work = try makeTemporaryFolder("cap-large-ahead")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        let sizes = ["k0.bin": 5_000, "k1.bin": 600_000, "k2.bin": 1_200_000, "k3.bin": 1_800_000, "k4.bin": 2_400_000]
        try writeTree(
            sizes.map { SampleFile(path: $0.key, content: pseudoRandomBytes($0.value, seed: 3), modified: modified) },
            at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.54.10", options: ["--throttle", "300000"])
        defer { server.stop() }
        let path = try config(
            [server.deviceYAML(name: "cam", extra: "    max_connections: 2\n")], mirror: mirror, at: work)

        let run = try ftpsync(
            ["pull", path, "--max-transfer", "900000", "--parallel", "2", "--order", "largest-first"]
                + ["--no-progress", "--json"])
        #expect(run.status == 5, "\(run.stdout)\(run.stderr)")
        let actions = devices(try document(run)).first?["actions"] as? [[String: Any]] ?? []
        let status = Dictionary(
            actions.map { ($0["path"] as? String ?? "", $0["status"] as? String ?? "") },
            uniquingKeysWith: { a, _ in a })
        let order = ["k4.bin", "k3.bin", "k2.bin", "k1.bin", "k0.bin"]
        #expect(order.map { status[$0] ?? "" } == ["done", "done", "deferred", "deferred", "deferred"], "\(status)")
        #expect(Set(retrieved(server)) == ["k4.bin", "k3.bin"])
    }

    /// Four connections and files of 1 MB (each followed by the next one's commands sent ahead):
    /// every file whose RETR went out is reported done, and its bytes counted; none is reported
    /// "not started" after the server sent it (a breaker's case).
    @Test func aTransferSentAheadCountsAsStarted() throws {
        let work = try makeTemporaryFolder("cap-sent-ahead")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        let names = (10..<40).map { "m\($0).bin" }
        try writeTree(
            names.map { SampleFile(path: $0, content: pseudoRandomBytes(1_000_000, seed: 4), modified: modified) },
            at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.54.11")
        defer { server.stop() }
        let path = try config(
            [server.deviceYAML(name: "cam", extra: "    max_connections: 4\n")], mirror: mirror, at: work)
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: mirror)
            let before = retrieved(server).count
            let run = try ftpsync(
                [
                    "pull", path, "--max-transfer", "10M", "--parallel", "4", "--order", "name", "--no-progress",
                    "--json",
                ])
            #expect(run.status == 5, "\(run.stdout)\(run.stderr)")
            let device = try #require(devices(try document(run)).first)
            let actions = device["actions"] as? [[String: Any]] ?? []
            let done = actions.filter { $0["status"] as? String == "done" }.count
            #expect(retrieved(server).count - before == done, "\(actions.map { $0["status"] ?? "" })")
            let bytes = (device["stats"] as? [String: Any])?["bytes_transferred"] as? Int
            #expect(bytes == done * 1_000_000)
        }
    }

    /// A device whose replies each wait 150 ms, with 40 folders: `--max-duration 1s` is reached
    /// while it is listed, and the grace's cut stops the listing. The device is `stopped` (exit
    /// 5), not failed: the folders left unlisted are the cap's doing, and `-q` says nothing.
    @Test func aCapThatCutsTheListingStopsTheDevice() throws {
        let work = try makeTemporaryFolder("cap-listing")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        try writeTree(
            (10..<50).map { SampleFile(path: "d\($0)/f.txt", content: Array("x\n".utf8), modified: modified) },
            at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.54.12", options: ["--latency", "150"])
        defer { server.stop() }
        let path = try config([server.deviceYAML(name: "cam")], mirror: mirror, at: work)

        let quiet = try ftpsync(["pull", path, "--max-duration", "1s", "-q"])
        #expect(quiet.status == 5, "\(quiet.stdout)\(quiet.stderr)")
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        let status = try ftpsync(["status", path, "--json"])
        let state = devices(try document(status)).first ?? [:]
        #expect(state["last_status"] as? String == "stopped", "\(status.stdout)")
        #expect(state["consecutive_failures"] as? Int == 0, "\(status.stdout)")
    }

    /// Offload under a cap: the files moved are deleted on the device; the offloads of the files
    /// the cap left are left too, and counted in what is left (they were only notes).
    @Test func theOffloadsOfFilesACapLeftAreCountedAsLeft() throws {
        let work = try makeTemporaryFolder("cap-offload")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        let names = Array(Self.names.prefix(4))
        try writeTree(names.map { SampleFile(path: $0, content: Self.content($0), modified: modified) }, at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.54.13")
        defer { server.stop() }
        let path = try config([server.deviceYAML(name: "cam")], mirror: mirror, at: work)

        let run = try ftpsync(
            ["pull", path, "--remove-source", "--max-transfer", "150000", "--parallel", "1", "--order", "name"]
                + ["--no-progress", "--json"])
        #expect(run.status == 5, "\(run.stdout)\(run.stderr)")
        let device = try #require(devices(try document(run)).first)
        let left = try #require(device["left"] as? [String: Any])
        #expect(left["files"] as? Int == 2 && left["actions"] as? Int == 4, "\(left)")
        let onDevice = (try? FileManager.default.contentsOfDirectory(atPath: served))?.sorted() ?? []
        #expect(onDevice == ["c.bin", "d.bin"], "\(onDevice)")
        for name in ["a.bin", "b.bin"] { #expect(Push.bytes(mirror + "/cam/" + name) == Self.content(name)) }
    }

    /// A server that accepts the connection and never greets, with a `timeout` of 60 s: the cut
    /// of `--max-duration 1s` (10 s after it) ends the wait for the greeting, and the device is
    /// `stopped` (exit 5), not failed after a minute.
    @Test func aCapsCutEndsTheWaitForASilentServer() throws {
        let work = try makeTemporaryFolder("cap-silent")
        let server = try HostileServer("silent", address: "127.0.54.14")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work, timeout: 60, retries: 0)
        let began = Date()
        let run = try ftpsync(
            ["pull", config, "--max-duration", "1s", "--no-progress", "--json"], environment: ["HOSTILE_PASS": "x"],
            timeout: 120)
        let seconds = Date().timeIntervalSince(began)
        #expect(run.status == 5, "\(run.stdout)\(run.stderr)")
        #expect(seconds < 20, "\(seconds)")
        #expect(devices(try document(run)).first?["status"] as? String == "stopped", "\(run.stdout)")
    }
}
