// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 5: many devices in one run, each with its own connections, against five servers at
/// once. Addresses 127.0.1.21–127.0.1.60 belong to this suite.
@Suite(.serialized) struct FleetTests {
    /// Writes `count` small files (plus one of `bigBytes` when > 0) under `root`, in folders.
    private func makeDeviceTree(_ root: String, label: String, count: Int, bigBytes: Int = 0) throws {
        var files: [SampleFile] = []
        for index in 0..<count {
            let folder = index % 3 == 0 ? "" : "DCIM/\(100 + index % 3)/"
            files.append(
                SampleFile(
                    path: "\(folder)\(label)-\(index).jpg",
                    content: pseudoRandomBytes(500 + index * 37, seed: UInt64(index + label.count * 1000)),
                    modified: 1_700_000_000 + Double(index * 60)))
        }
        if bigBytes > 0 {
            files.append(
                SampleFile(
                    path: "video/\(label).mp4", content: pseudoRandomBytes(bigBytes, seed: 7), modified: 1_700_000_000))
        }
        try writeTree(files, at: root)
    }

    private func device(_ name: String, _ server: FTPServer, user: String, password: String) -> String {
        """
          - name: \(name)
            host: \(server.address)
            port: \(server.port)
            user: \(user)
            password: \(password)

        """
    }

    private func write(_ text: String, to path: String) throws -> String {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    private func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    private func devices(_ document: [String: Any]) -> [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for device in document["devices"] as? [[String: Any]] ?? [] {
            if let name = device["name"] as? String { result[name] = device }
        }
        return result
    }

    /// Same paths and bytes on both sides.
    private func expectMirror(_ local: String, _ served: String, _ label: String) {
        let mine = treeListing(local)
        let theirs = treeListing(served)
        #expect(Set(mine.keys) == Set(theirs.keys), "\(label): paths")
        for (path, facts) in theirs where !facts.isFolder {
            let same = mine[path]?.content == facts.content
            #expect(same, "\(label): content of \(path)")
        }
    }

    @Test func fiveServersOneRunOfflineDeviceFailsAloneAndTheLockHoldsOneTree() throws {
        let work = try makeTemporaryFolder("fleet")
        let rootA1 = work + "/served/a1"
        let rootA2 = work + "/served/a2"
        let rootB = work + "/served/b"
        let rootC = work + "/served/c"
        let rootD = work + "/served/d"
        try makeDeviceTree(rootA1, label: "cam1", count: 40)
        try makeDeviceTree(rootA2, label: "cam2", count: 30)
        try makeDeviceTree(rootB, label: "nas", count: 20, bigBytes: 500_000)
        try makeDeviceTree(rootC, label: "nat", count: 20)
        try makeDeviceTree(rootD, label: "old", count: 20)

        // Two users of one server: two devices at the same address and port.
        let serverA = try FTPServer(
            .pyftpdlib, root: rootA1, address: "127.0.1.21", user: "cam1", password: "pw-cam1",
            options: ["--extra-user", "cam2:pw-cam2:\(rootA2)"])
        defer { serverA.stop() }
        // Another address, the same port number, slow enough to hold the lock for a while.
        let serverB = try FTPServer(
            .pyftpdlib, root: rootB, address: "127.0.1.22", port: serverA.port, options: ["--throttle", "100000"])
        defer { serverB.stop() }
        // A 227 reply naming an address where nothing listens, and no EPSV.
        let serverC = try FTPServer(
            .pyftpdlib, root: rootC, address: "127.0.1.23", options: ["--masquerade", "127.0.1.59", "--no-epsv-mlsd"])
        defer { serverC.stop() }
        // An old server: LIST only, PASV only.
        let serverD = try FTPServer(.pyftpdlib, root: rootD, address: "127.0.1.24", options: ["--no-epsv-mlsd"])
        defer { serverD.stop() }

        let mirror = work + "/mirror"
        let config = try write(
            "local: \(mirror)\ndevices:\n"
                + device("cam1", serverA, user: "cam1", password: "pw-cam1")
                + device("cam2", serverA, user: "cam2", password: "pw-cam2")
                + device("nas", serverB, user: serverB.user, password: serverB.password)
                + device("nat", serverC, user: serverC.user, password: serverC.password)
                + device("old", serverD, user: serverD.user, password: serverD.password)
                + "  - {name: offline, host: 127.0.1.25, port: \(serverA.port), user: x, password: y, timeout: 5}\n",
            to: work + "/device.yaml")

        let first = try spawn(ftpsyncBinary, ["pull", config, "--json", "--jobs", "6"], output: true)
        // Wait until the run holds the lock (its pid is written into the lock file).
        let lockFile = mirror + "/.ftpsync/lock"
        let deadline = Date().addingTimeInterval(60)
        while (try? String(contentsOfFile: lockFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            != String(first.pid), Date() < deadline
        {
            usleep(20_000)
        }
        // A second run on the same local tree exits 3 and does nothing.
        let second = try ftpsync(["pull", config, "--json"])
        #expect(second.status == 3, "\(second.stdout)\(second.stderr)")
        // A run on another local tree is not blocked.
        let otherConfig = try write(
            "local: \(work)/other\ndevices:\n" + device("cam1", serverA, user: "cam1", password: "pw-cam1"),
            to: work + "/other.yaml")
        #expect(kill(first.pid, 0) == 0, "the first run should still be running (throttled)")
        let other = try ftpsync(["pull", otherConfig, "-q"])
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")
        expectMirror(work + "/other/cam1", rootA1, "other tree")

        let status = waitForExit(first.pid, timeout: 120)
        let output = (try? String(contentsOfFile: first.stdout, encoding: .utf8)) ?? ""
        #expect(status == 1, "\(output)")
        let report = devices(json(output))
        for name in ["cam1", "cam2", "nas", "nat", "old"] {
            #expect(report[name]?["status"] as? String == "ok", "\(name): \(report[name] ?? [:])")
        }
        #expect(report["offline"]?["status"] as? String == "failed")
        let reason = report["offline"]?["error"] as? String ?? ""
        #expect(reason.contains("127.0.1.25"), "\(reason)")

        // Each device's files land in its own folder only, exactly.
        expectMirror(mirror + "/cam1", rootA1, "cam1")
        expectMirror(mirror + "/cam2", rootA2, "cam2")
        expectMirror(mirror + "/nas", rootB, "nas")
        expectMirror(mirror + "/nat", rootC, "nat")
        expectMirror(mirror + "/old", rootD, "old")

        // Every login ends with QUIT.
        for server in [serverA, serverB, serverC, serverD] {
            let users = server.count("USER")
            #expect(users > 0)
            #expect(users == server.count("QUIT"), "\(server.address): \(users) USER")
        }
        // The old and the NAT server were never sent MLSD or EPSV twice (LIST and PASV after the first refusal).
        #expect(serverD.count("LIST") > 0)
        #expect(serverC.count("PASV") > 0)
    }

    @Test func connectionLimitLeavesTheDeviceWithFewerConnections() throws {
        let work = try makeTemporaryFolder("fleet-limit")
        let served = work + "/served"
        try makeDeviceTree(served, label: "lim", count: 30)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.26", options: ["--max-cons", "1"])
        defer { server.stop() }
        let config = try write(
            "local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "small"), to: work + "/device.yaml")
        // The text report shows the note (the JSON schema has no notes).
        let result = try ftpsync(["pull", config, "--parallel", "4"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("the server refused an extra connection"), "\(result.stdout)")
        expectMirror(work + "/mirror/small", served, "small")
        #expect(server.count("USER") == server.count("QUIT"))
    }

    @Test func parallelTransfersKeepThePlanOrderAndUseSeveralConnections() throws {
        let work = try makeTemporaryFolder("fleet-parallel")
        let served = work + "/served"
        try makeDeviceTree(served, label: "par", count: 60)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.27")
        defer { server.stop() }
        let config = try write(
            "local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "par"), to: work + "/device.yaml")
        let dry = try ftpsync(["pull", config, "--json", "--dry-run"])
        let planned = (devices(json(dry.stdout))["par"]?["actions"] as? [[String: Any]] ?? []).map {
            "\($0["kind"] ?? "") \($0["path"] ?? "")"
        }
        let result = try ftpsync(["pull", config, "--json", "--parallel", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let done = (devices(json(result.stdout))["par"]?["actions"] as? [[String: Any]] ?? []).map {
            "\($0["kind"] ?? "") \($0["path"] ?? "")"
        }
        #expect(done == planned)
        #expect(done.count == 63)  // 60 files; DCIM, DCIM/101, DCIM/102
        expectMirror(work + "/mirror/par", served, "par")
        // The dry run's connection, then three for the pull.
        #expect(server.count("USER") == 4)
        #expect(server.count("QUIT") == 4)

        // Push the same way: a change on every third file goes up over three connections.
        for index in stride(from: 0, to: 60, by: 3) {
            try writeFile(
                work + "/mirror/par/par-\(index).jpg", Array("changed \(index)\n".utf8), modified: 1_800_000_000)
        }
        let push = try ftpsync(["push", config, "--json", "--parallel", "3"])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        expectMirror(work + "/mirror/par", served, "par after push")
        #expect(server.count("USER") == server.count("QUIT"))
    }

    @Test func changedIdentityRefusesTheDeviceUntilAccepted() throws {
        let work = try makeTemporaryFolder("fleet-identity")
        let served = work + "/served"
        try makeDeviceTree(served, label: "id", count: 5)
        let config: String
        let port: Int
        do {
            let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.28")
            defer { server.stop() }
            port = server.port
            config = try write(
                "local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam"), to: work + "/device.yaml")
            let before = try ftpsync(["status", config, "--json"])
            #expect(
                before.stdout.contains("\"identity_known\":false")
                    || before.stdout.contains("\"identity_known\" : false"))
            #expect(try ftpsync(["pull", config, "-q"]).status == 0)
            let after = try ftpsync(["status", config, "--json"])
            #expect(
                after.stdout.contains("\"identity_known\":true") || after.stdout.contains("\"identity_known\" : true"))
        }
        // Another server answers at the same address and port: another FEAT (no MLSD, no EPSV).
        try FileManager.default.removeItem(atPath: served + "/id-0.jpg")
        let other = try FTPServer(
            .pyftpdlib, root: served, address: "127.0.1.28", port: port, options: ["--no-epsv-mlsd"])
        defer { other.stop() }
        let retrievedBefore = other.count("RETR")
        let listedBefore = other.count("MLSD")
        let refused = try ftpsync(["pull", config, "--json", "--delete"])
        #expect(refused.status == 4, "\(refused.stdout)\(refused.stderr)")
        let device = devices(json(refused.stdout))["cam"] ?? [:]
        #expect(device["status"] as? String == "refused")
        #expect((device["error"] as? String ?? "").contains("FEAT lost"), "\(device)")
        #expect(FileManager.default.fileExists(atPath: work + "/mirror/cam/id-0.jpg"))
        // Both servers write one command log (root + ".log"): nothing was listed or fetched since.
        #expect(other.count("RETR") == retrievedBefore && other.count("MLSD") == listedBefore)

        // Accepted: the run goes on and the new identity is kept for the next run.
        let accepted = try ftpsync(["pull", config, "--json", "--delete", "--accept-new-identity"])
        #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/mirror/cam/id-0.jpg"))
        #expect(try ftpsync(["pull", config, "-q"]).status == 0)
    }

    @Test(arguments: [
        (FTPServer.Kind.pyftpdlib, "127.0.1.29", [String](), "EPRT"),
        (FTPServer.Kind.pyftpdlib, "127.0.1.30", ["--no-eprt"], "PORT"),
        (FTPServer.Kind.vsftpd, "127.0.1.31", [String](), "EPRT"),
    ])
    func activeMode(kind: FTPServer.Kind, address: String, options: [String], verb: String) throws {
        let work = try makeTemporaryFolder("fleet-active")
        let served = work + "/served"
        try makeDeviceTree(served, label: "act", count: 6, bigBytes: 300_000)
        let server = try FTPServer(kind, root: served, address: address, options: options)
        defer { server.stop() }
        let config = try write(
            "local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "act", extra: "    passive: false"),
            to: work + "/device.yaml")
        // pyftpdlib stalls now and then when two sessions open active data connections at the
        // same time (Python's ftplib hits it too): one connection for it, two for vsftpd.
        let parallel = kind == .pyftpdlib ? "1" : "2"
        let result = try ftpsync(["pull", config, "-q", "--parallel", parallel])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        expectMirror(work + "/mirror/act", served, "active")
        #expect(server.count(verb) > 0)
        #expect(server.count("PASV") == 0 && server.count("EPSV") == 0)
    }
}
