// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// `keepalive` (issue 19): NOOPs on the control connection while a data connection moves keep
/// it through a NAT that forgets connections idle for 6 s (`IdleDropRelay`). A transfer of
/// about 8 s fails without them (`keepalive: 0`: the 226 never arrives; a download is then
/// resumed over a new login, an upload fails) and succeeds at once with
/// `keepalive: 2`, against vsftpd (answers the NOOPs after the 226) and pyftpdlib (during
/// the transfer), for downloads and uploads. A server that answers NOOP during a transfer with
/// 500, or with a reply out of step, gets no more of them, remembered for later runs.
/// Addresses 127.0.53.10 to 127.0.53.29.
@Suite(.serialized) struct KeepaliveTests {
    static let bytes = 2_400_000

    /// The server, its relay and a config of one device `cam` through the relay.
    struct Link {
        let server: FTPServer
        let relay: IdleDropRelay

        func config(_ work: String, mirror: String, keepalive: Int, extra: String = "") throws -> String {
            let path = work + "/\(mirror).yaml"
            let device = """
                  - name: cam
                    host: \(relay.address)
                    port: \(server.port)
                    user: \(server.user)
                    password: \(server.password)
                    retries: 0
                    keepalive: \(keepalive)
                \(extra)
                """
            try ("local: \(work)/\(mirror)\ndevices:\n" + device).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    static func link(
        _ kind: FTPServer.Kind, root: String, server: String, relay: String, ports: ClosedRange<Int>, throttle: Int?
    )
        throws -> Link
    {
        let options =
            ["--pasv-ports", "\(ports.lowerBound)-\(ports.upperBound)"]
            + (throttle.map { ["--throttle", String($0)] } ?? [])
        let ftp = try FTPServer(kind, root: root, address: server, options: options)
        let relay = try IdleDropRelay(address: relay, target: server, port: ftp.port, passivePorts: ports, idleDrop: 6)
        return Link(server: ftp, relay: relay)
    }

    /// A download the server sends slowly (its throttle: about 8 s): without keepalive the
    /// control connection is lost, with it the download is whole at once.
    @Test(arguments: [
        // pyftpdlib's throttle lets more through at first: a lower rate, for about 8 s too.
        (FTPServer.Kind.vsftpd, "127.0.53.10", "127.0.53.11", 45_310...45_319, 300_000),
        (FTPServer.Kind.pyftpdlib, "127.0.53.12", "127.0.53.13", 45_320...45_329, 200_000),
    ])
    func downloadThroughAForgetfulNATNeedsKeepalive(
        kind: FTPServer.Kind, server: String, relay: String, ports: ClosedRange<Int>, throttle: Int
    ) throws {
        let work = try makeTemporaryFolder("keepalive-pull")
        let content = (0..<Self.bytes).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try writeFile(work + "/served/clip.mov", content, modified: 1_700_000_000)
        let link = try Self.link(
            kind, root: work + "/served", server: server, relay: relay, ports: ports, throttle: throttle)
        defer {
            link.relay.stop()
            link.server.stop()
        }

        // Without NOOPs the NAT forgets the control connection: the 226 never comes, the
        // device is logged in again and the download tried again (a resume: bytes had moved).
        let silent = try ftpsync(["pull", try link.config(work, mirror: "silent", keepalive: 0), "--no-progress"])
        let silentCommands = link.server.commands()
        let retrieved = { (commands: ArraySlice<String>) in commands.filter { $0.uppercased().hasPrefix("RETR") }.count
        }
        let logins = { (commands: ArraySlice<String>) in commands.filter { $0.uppercased().hasPrefix("USER") }.count }
        #expect(retrieved(silentCommands[...]) >= 2, "the control connection was lost: \(silentCommands)")
        #expect(logins(silentCommands[...]) >= 2, "\(silentCommands)")
        print(
            "keepalive 0 through the NAT (\(kind.rawValue)): \(retrieved(silentCommands[...])) RETR, "
                + "\(logins(silentCommands[...])) logins, exit \(silent.status)")

        let kept = try ftpsync(["pull", try link.config(work, mirror: "kept", keepalive: 2), "--no-progress"])
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
        #expect(FileManager.default.contents(atPath: work + "/kept/cam/clip.mov") == Data(content))
        let keptCommands = link.server.commands().dropFirst(silentCommands.count)
        #expect(retrieved(keptCommands) == 1, "one RETR, one login: \(keptCommands)")
        #expect(logins(keptCommands) == 1, "\(keptCommands)")
        let noops = keptCommands.filter { $0.uppercased().hasPrefix("NOOP") }
        #expect(noops.count >= 3, "a NOOP every 2 s of the 8 s: \(noops.count)")
        #expect(!kept.stdout.contains("keepalive is off"), "\(kept.stdout)")
    }

    /// An upload capped at 300k by the device's `bwlimit` (8 s) to pyftpdlib: the same.
    @Test func uploadThroughAForgetfulNATNeedsKeepalive() throws {
        let work = try makeTemporaryFolder("keepalive-push")
        let content = (0..<Self.bytes).map { UInt8(truncatingIfNeeded: $0 &* 5) }
        for mirror in ["silent", "kept"] {
            try writeFile(work + "/\(mirror)/cam/\(mirror).mov", content, modified: 1_700_000_000)
        }
        try FileManager.default.createDirectory(atPath: work + "/served", withIntermediateDirectories: true)
        let link = try Self.link(
            .pyftpdlib, root: work + "/served", server: "127.0.53.14", relay: "127.0.53.15", ports: 45_330...45_339,
            throttle: nil)
        defer {
            link.relay.stop()
            link.server.stop()
        }
        let capped = "    bwlimit: 300000\n"
        let silent = try ftpsync([
            "push", try link.config(work, mirror: "silent", keepalive: 0, extra: capped), "--no-progress",
        ])
        #expect(silent.status != 0, "the NAT forgot the control connection: \(silent.stdout)")
        print("keepalive 0 through the NAT (push): exit \(silent.status): \(silent.stdout)")

        let kept = try ftpsync([
            "push", try link.config(work, mirror: "kept", keepalive: 2, extra: capped), "--no-progress",
        ])
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
        #expect(FileManager.default.contents(atPath: work + "/served/kept.mov") == Data(content))
    }

    /// A scripted server that answers NOOP during a transfer with 500 (`refuse`), with a 226
    /// of its own before the transfer's (`misorder`), or cuts the transfer (`abort`: 426, then
    /// 200; the retry resumes it): the download is still whole, the device's keepalive is turned
    /// off with a note, and the next run sends no NOOP.
    @Test(arguments: [("refuse", "127.0.53.16"), ("misorder", "127.0.53.17"), ("abort", "127.0.53.18")])
    func aServerMisbehavingWithNOOPGetsNoneRemembered(mode: String, address: String) throws {
        let work = try makeTemporaryFolder("keepalive-\(mode)")
        let server = try ListingServer(
            [
                "folders": [
                    "/": ["-rw-r--r-- 1 u g 120000 Jan 05 2024 a.mov", "-rw-r--r-- 1 u g 120000 Jan 05 2024 b.mov"]
                ],
                "files": ["/a.mov": 120_000, "/b.mov": 120_000], "rate": 60_000, "noop": mode,
            ], address: address)
        defer { server.stop() }
        func config(exclude: String) throws -> String {
            let text = """
                local: \(work)/mirror
                devices:
                  - name: cam
                    host: \(address)
                    port: \(server.port)
                    user: tester
                    password: secret
                    timezone: UTC
                    retries: 1
                    keepalive: 1
                    connections: 1
                \(exclude)
                """
            try text.write(toFile: work + "/device.yaml", atomically: true, encoding: .utf8)
            return work + "/device.yaml"
        }
        let first = try ftpsync(["pull", try config(exclude: "    exclude: [b.mov]\n"), "--no-progress"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("keepalive is off"), "\(first.stdout)")
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/a.mov")?.count == 120_000)
        let before = server.commands()
        #expect(before.contains { $0.hasPrefix("NOOP") }, "\(before)")

        let second = try ftpsync(["pull", try config(exclude: ""), "--no-progress"])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/b.mov")?.count == 120_000)
        let later = server.commands().dropFirst(before.count)
        #expect(later.contains { $0.hasPrefix("RETR") }, "\(later)")
        #expect(!later.contains { $0.hasPrefix("NOOP") }, "remembered from the state: \(later)")
    }
}
