// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 8: a pull (and a push) lists the device's folders over several control connections
/// when the device has more than one (`--parallel N` / `connections`), and the result does not
/// depend on it: the same plan, in the same order, and a byte-identical mirror.
@Suite(.serialized) struct ParallelListingTests {
    static let servers: [(FTPServer.Kind, String)] = [(.pyftpdlib, "127.0.3.21"), (.vsftpd, "127.0.3.22")]

    /// 12 folders of 3 files, 4 of them with a subfolder of 2 files, and one folder whose name
    /// the server spells in NFD (a name an extra connection must send back as the server spells it).
    private func makeTree(_ root: String) throws {
        var files: [SampleFile] = []
        for folder in 0..<12 {
            let name = folder == 5 ? "Cafe\u{301}-\(folder)" : "folder-\(folder)"
            for index in 0..<3 {
                files.append(
                    SampleFile(
                        path: "\(name)/f\(index).jpg", content: pseudoRandomBytes(300 + folder * 11 + index, seed: 7),
                        modified: 1_700_000_000 + Double(folder * 60)))
            }
            if folder % 3 == 0 {
                for index in 0..<2 {
                    files.append(
                        SampleFile(
                            path: "\(name)/sub/g\(index).raw", content: pseudoRandomBytes(100 + index, seed: 9),
                            modified: 1_700_000_600))
                }
            }
        }
        files.append(SampleFile(path: "top.txt", content: Array("top\n".utf8), modified: 1_700_000_000))
        try writeTree(files, at: root)
    }

    /// The sessions (vsftpd: process id; pyftpdlib: session number) that sent each listing
    /// command, from the server's command log.
    private func listingSessions(_ server: FTPServer) -> [String: Int] {
        let text = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
        var sessions: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            let session: Substring?
            if let pid = line.range(of: "[pid ") {
                let rest = line[pid.upperBound...]
                session = rest.prefix { $0 != "]" }
                guard line.contains("FTP command:"), line.contains("\"LIST") || line.contains("\"MLSD") else {
                    continue
                }
            } else if words.count >= 4, words[2] == "CMD", words[3] == "LIST" || words[3] == "MLSD" {
                session = words[1]
            } else {
                continue
            }
            if let session { sessions[String(session), default: 0] += 1 }
        }
        return sessions
    }

    private func actions(_ stdout: String) -> [String] {
        let document = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
        let device = (document["devices"] as? [[String: Any]])?.first ?? [:]
        return (device["actions"] as? [[String: Any]] ?? []).map { "\($0["kind"] ?? "") \($0["path"] ?? "")" }
    }

    @Test(arguments: servers)
    func listingsGoOverSeveralConnectionsWithTheSameResult(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("parallel-list-\(kind.rawValue)")
        let served = work + "/served"
        try makeTree(served)
        // Data connections at 2,000 bytes/s: a listing takes a good part of a second, so the
        // tree outlasts the extra connections' logins (unthrottled on loopback, one connection
        // lists these 17 folders before another has logged in).
        let server = try FTPServer(kind, root: served, address: address, options: ["--throttle", "2000"])
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)

        // One connection: the reference plan, every folder listed on one session.
        let alone = try ftpsync(["pull", config, "--json", "--dry-run", "--parallel", "1"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(listingSessions(server).count == 1)
        let reference = actions(alone.stdout)
        let expectedActions = 61  // 12 folders, 4 subfolders, 36 + 8 + 1 files
        #expect(reference.count == expectedActions)

        // Three connections: the same plan in the same order, the listings spread out.
        let before = listingSessions(server)
        let spread = try ftpsync(["pull", config, "--json", "--dry-run", "--parallel", "3"])
        #expect(spread.status == 0, "\(spread.stderr)")
        #expect(actions(spread.stdout) == reference)
        let during = listingSessions(server).filter { before[$0.key] == nil }
        #expect(during.count > 1, "listing sessions: \(during)")
        let listings = during.values.reduce(0, +)
        #expect(listings == 17)  // the root, 12 folders, 4 subfolders

        // The pull itself: byte-identical, every session ended with QUIT.
        let pull = try ftpsync(["pull", config, "--json", "--parallel", "3"])
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        let mine = treeListing(work + "/mirror/cam")
        let theirs = treeListing(served)
        #expect(Set(mine.keys) == Set(theirs.keys))
        for (path, facts) in theirs where !facts.isFolder {
            #expect(mine[path]?.content == facts.content, "content of \(path)")
        }
        // Then nothing to do, over several connections too.
        let retrieved = server.count("RETR")
        let again = try ftpsync(["pull", config, "--json", "--parallel", "3"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(actions(again.stdout).isEmpty)
        #expect(server.count("RETR") == retrieved)

        // A push lists over several connections too, and sends a changed file back into the
        // folder the server spells in NFD (a spelling an extra connection learned).
        let folder = try #require(
            try FileManager.default.contentsOfDirectory(atPath: work + "/mirror/cam").first { $0.hasPrefix("Caf") })
        let changed = Array("changed on this side\n".utf8)
        try Data(changed).write(to: URL(fileURLWithPath: work + "/mirror/cam/\(folder)/f1.jpg"))
        let beforePush = listingSessions(server)
        let push = try ftpsync(["push", config, "--json", "--parallel", "3"])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(actions(push.stdout) == ["upload \(folder.precomposedStringWithCanonicalMapping)/f1.jpg"])
        #expect(listingSessions(server).filter { beforePush[$0.key] == nil }.count > 1)
        let onServer = FileManager.default.contents(atPath: served + "/Cafe\u{301}-5/f1.jpg")
        #expect(onServer.map(Array.init) == changed)
        #expect(server.count("USER") == server.count("QUIT"))
    }
}
