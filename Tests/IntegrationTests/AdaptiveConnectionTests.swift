// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 20: connections that fit the link. Through a relay with a round trip every transfer
/// waits for, a device starting with 2 connections opens more while they make the run faster,
/// up to its `max_connections`; a server that refuses one (421) sets a limit later runs keep
/// to. Addresses 127.0.56.1 to 127.0.56.9, passive ports 46300-46379.
@Suite(.serialized) struct AdaptiveConnectionTests {
    static func tree(_ folder: String, files: Int) throws {
        for index in 0..<files {
            try writeFile(
                "\(folder)/d\(index % 4)/f\(index).bin", pseudoRandomBytes(4_096, seed: UInt64(index)),
                modified: 1_700_000_000)
        }
    }

    static func notes(_ stdout: String) -> [String] {
        let document = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
        let device = (document?["devices"] as? [[String: Any]])?.first
        return device?["notes"] as? [String] ?? []
    }

    @Test(arguments: [(8, true), (2, false)])
    func connectionsGrowWhileTheyHelpUpToTheMaximum(maximum: Int, grows: Bool) throws {
        let work = try makeTemporaryFolder("grow")
        try Self.tree(work + "/served", files: 160)
        let server = try FTPServer(
            .vsftpd, root: work + "/served", address: "127.0.56.1", options: ["--pasv-ports", "46300-46339"])
        defer { server.stop() }
        let relay = try IdleDropRelay(
            address: "127.0.56.2", target: "127.0.56.1", port: server.port, passivePorts: 46300...46339, idleDrop: 0,
            rttMilliseconds: 40)
        defer { relay.stop() }
        let keys = "    connections: 2\n    max_connections: \(maximum)\n"
        let config = work + "/device.yaml"
        try
            ("local: \(work)/mirror\ndevices:\n"
            + server.deviceYAML(name: "cam", extra: keys).replacingOccurrences(of: "127.0.56.1", with: "127.0.56.2"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(treeListing(work + "/mirror/cam").count == 164, "160 files in 4 folders")
        let grew = Self.notes(run.stdout).first { $0.contains("connections: more than the 2 to start with") }
        if grows {
            let count = Int(grew?.prefix { $0.isNumber } ?? "") ?? 0
            #expect(count > 2 && count <= maximum, "\(Self.notes(run.stdout))")
        } else {
            #expect(grew == nil, "\(Self.notes(run.stdout))")
        }
    }

    /// vsftpd taking 3 sessions at most (`max_clients`): the fourth gets 421; the limit is
    /// kept, the next run opens no more than 3 and says nothing of it again.
    @Test func aServersConnectionLimitIsLearnedAndKept() throws {
        let work = try makeTemporaryFolder("limit")
        try Self.tree(work + "/served", files: 40)
        let server = try FTPServer(
            .vsftpd, root: work + "/served", address: "127.0.56.3", options: ["--max-cons", "3"])
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam", extra: "    connections: 4\n"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let first = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(treeListing(work + "/mirror/cam").count == 44, "40 files in 4 folders")
        #expect(Self.notes(first.stdout).contains { $0.contains("the server took 3 connections at once") })
        try FileManager.default.removeItem(atPath: work + "/mirror/cam")
        // The second run keeps to 3 at once (listing and transfers): the server refuses none.
        let second = try ftpsync(["pull", config, "--no-progress", "--json"])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(treeListing(work + "/mirror/cam").count == 44)
        #expect(
            !Self.notes(second.stdout).contains { $0.contains("refused") || $0.contains("connections at once") },
            "\(Self.notes(second.stdout))")
    }
}
