// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 2's walking skeleton, against real servers: pyftpdlib (MLSD) and vsftpd (LIST only).
@Suite(.serialized) struct PullEndToEndTests {
    static let servers: [(FTPServer.Kind, String)] = [(.pyftpdlib, "127.0.0.21"), (.vsftpd, "127.0.0.22")]

    private func config(_ server: FTPServer, local: String, at folder: String) throws -> String {
        let text = "local: \(local)\ndevices:\n" + server.deviceYAML(name: "cam")
        let path = folder + "/device.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: servers)
    func dryRunThenPullThenNothingThenOnlyTheChanges(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("e2e-\(kind.rawValue)")
        let served = work + "/served"
        let tree = sampleTree()
        try writeTree(tree.files, emptyFolders: tree.emptyFolders, at: served)
        let server = try FTPServer(kind, root: served, address: address)
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try config(server, local: mirror, at: work)

        // A dry run plans one download per file and writes nothing.
        let dry = try ftpsync(["pull", configPath, "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let plan = try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any]
        let devices = plan?["devices"] as? [[String: Any]]
        let actions = devices?.first?["actions"] as? [[String: Any]] ?? []
        let downloads = actions.filter { $0["kind"] as? String == "download" }.compactMap { $0["path"] as? String }
        #expect(Set(downloads) == Set(tree.files.map(\.path)))
        #expect(actions.allSatisfy { $0["status"] as? String == "planned" })
        #expect(!FileManager.default.fileExists(atPath: mirror))
        #expect(server.count("RETR") == 0)

        // The pull makes the local tree byte-identical, with modification times kept.
        let first = try ftpsync(["pull", configPath])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let local = treeListing(mirror + "/cam")
        let remote = treeListing(served)
        #expect(Set(local.keys) == Set(remote.keys))
        for (path, facts) in remote {
            #expect(local[path]?.content == facts.content, "content of \(path)")
            if !facts.isFolder {
                // LIST gives whole minutes; MLSD gives seconds. The samples are whole minutes.
                #expect(local[path]?.modified == facts.modified, "time of \(path)")
            }
        }
        #expect(server.count("RETR") == tree.files.count)

        // A second pull transfers nothing.
        let second = try ftpsync(["pull", configPath, "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(server.count("RETR") == tree.files.count)

        // A changed file and a new one are the only downloads of a third run.
        let later = tree.files[0].modified + 600
        try writeFile(served + "/readme.txt", Array("changed on the device\n".utf8), modified: later)
        try writeFile(served + "/DCIM/2024/new.jpg", pseudoRandomBytes(5000, seed: 9), modified: later)
        let third = try ftpsync(["pull", configPath, "--json"])
        #expect(third.status == 0, "\(third.stderr)")
        let retrieved = server.commands().filter { $0.uppercased().hasPrefix("RETR ") }.suffix(2)
        #expect(server.count("RETR") == tree.files.count + 2)
        #expect(retrieved.contains { $0.hasSuffix("readme.txt") } && retrieved.contains { $0.hasSuffix("new.jpg") })
        #expect(treeListing(mirror + "/cam")["readme.txt"]?.content == Array("changed on the device\n".utf8))
    }

    @Test(arguments: servers)
    func killedDownloadLeavesNoHalfFileAndResumes(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("kill-\(kind.rawValue)")
        let served = work + "/served"
        let big = pseudoRandomBytes(6 * 1_048_576, seed: 7)
        let when = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 86_400
        try writeFile(served + "/movies/big.bin", big, modified: when)
        let server = try FTPServer(kind, root: served, address: address, options: ["--throttle", "1048576"])
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try config(server, local: mirror, at: work)

        let child = try spawn(ftpsyncBinary, ["pull", configPath, "-q"], output: false)
        // Partial downloads wait under .ftpsync/partial/<device>/, named by a digest of the path.
        let partials = mirror + "/.ftpsync/partial/cam"
        func partial() -> String {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
            return partials + "/" + (names.first ?? "none")
        }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && partialSize(partial()) < 1_048_576 { usleep(50_000) }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 10)

        let kept = partialSize(partial())
        #expect(kept >= 1_048_576 && kept < UInt64(big.count))
        #expect(!FileManager.default.fileExists(atPath: mirror + "/cam/movies/big.bin"))

        let again = try ftpsync(["pull", configPath, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(server.commands().contains { $0.uppercased() == "REST \(kept)" }, "REST at \(kept)")
        #expect(FileManager.default.contents(atPath: mirror + "/cam/movies/big.bin").map { [UInt8]($0) } == big)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: partials))?.isEmpty == true)
    }

    private func partialSize(_ path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_size) : 0
    }
}

/// Configuration errors come out as FILE:LINE:COLUMN and exit 2, before any connection.
@Suite struct ConfigErrorTests {
    @Test(arguments: [
        ("local: m\ndevices:\n  - name: a\n    host: 127.0.0.1\n    hots: x\n", ":5:5:"),
        ("local: m\ndevices:\n  - name: a\n    host: 127.0.0.1\n    port: abc\n", ":5:11:"),
        ("local: m\ndevices:\n  - name: a\n    port: 21\n", ":3:5:"),
    ])
    func badConfigGivesPositionAndExit2(text: String, position: String) throws {
        let folder = try makeTemporaryFolder("config")
        let path = folder + "/device.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ftpsync(["pull", path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(path + position), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/m"))
    }
}
