// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Helpers shared by the push, rename, delete and conflict tests.
enum Push {
    static func config(_ server: FTPServer, local: String, at folder: String) throws -> String {
        let text = "local: \(local)\ndevices:\n" + server.deviceYAML(name: "cam")
        let path = folder + "/device.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The actions of the one device of a `--json` run, as (kind, path, status).
    static func actions(_ json: String) -> [(kind: String, path: String, status: String)] {
        guard let data = json.data(using: .utf8),
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let devices = document["devices"] as? [[String: Any]],
            let actions = devices.first?["actions"] as? [[String: Any]]
        else { return [] }
        return actions.map {
            ($0["kind"] as? String ?? "", $0["path"] as? String ?? "", $0["status"] as? String ?? "")
        }
    }

    static func deviceStatus(_ json: String) -> String? {
        guard let data = json.data(using: .utf8),
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let devices = document["devices"] as? [[String: Any]]
        else { return nil }
        return devices.first?["status"] as? String
    }

    /// Commands the server received that change something.
    static let changing = ["STOR", "APPE", "MKD", "DELE", "RMD", "RNFR", "RNTO", "MFMT", "SITE"]

    static func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }

    static func size(_ path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_size) : 0
    }

    /// A recent whole minute, `daysAgo` days back (LIST then gives hours and minutes).
    /// Starts `ftpsync push CONFIG` and SIGKILLs it once the upload's `temporary` file on the
    /// server holds `bytes` bytes (or after 30 s).
    static func killWhenSent(_ config: String, temporary: String, bytes: UInt64) throws {
        let child = try spawn(ftpsyncBinary, ["push", config, "-q"], output: false)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && size(temporary) < bytes { usleep(50_000) }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 10)
        usleep(300_000)
    }

    static func minute(daysAgo: Double = 2) -> Double {
        (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - daysAgo * 86_400
    }
}

/// Issue 4's push against real servers: pyftpdlib (MLSD, MFMT) and vsftpd (LIST only, MDTM).
@Suite(.serialized) struct PushEndToEndTests {
    static let servers: [(FTPServer.Kind, String)] = [(.pyftpdlib, "127.0.0.41"), (.vsftpd, "127.0.0.42")]

    @Test(arguments: servers)
    func dryRunThenPushThenNothingThenAMoveIsARename(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("push-\(kind.rawValue)")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let tree = sampleTree()
        try writeTree(tree.files, emptyFolders: tree.emptyFolders, at: mirror + "/cam")
        let big = pseudoRandomBytes(2 * 1_048_576, seed: 11)
        try writeFile(mirror + "/cam/video/clip.mp4", big, modified: Push.minute())
        let server = try FTPServer(kind, root: served, address: address)
        defer { server.stop() }
        let configPath = try Push.config(server, local: mirror, at: work)

        // A dry run sends nothing that changes the server and creates nothing locally.
        let dry = try ftpsync(["push", configPath, "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(Push.actions(dry.stdout).contains { $0.kind == "upload" && $0.path == "video/clip.mp4" })
        #expect(Push.actions(dry.stdout).allSatisfy { $0.status == "planned" })
        for verb in Push.changing { #expect(server.count(verb) == 0, "\(verb) in a dry run") }
        #expect(!FileManager.default.fileExists(atPath: mirror + "/.ftpsync"))

        // The push makes the device byte-identical, folders (empty ones too) included.
        let first = try ftpsync(["push", configPath, "--json"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let local = treeListing(mirror + "/cam")
        let remote = treeListing(served)
        #expect(Set(local.keys) == Set(remote.keys))
        for (path, facts) in local where !facts.isFolder {
            #expect(remote[path]?.content == facts.content, "content of \(path)")
        }
        #expect(!remote.keys.contains { $0.hasSuffix(".ftpsync-part") })
        let stores = server.count("STOR")
        // The remote time is set: MFMT where FEAT offers it, else vsftpd's two-argument MDTM.
        let timeVerb = kind == .pyftpdlib ? "MFMT " : "MDTM "
        let timeSets = server.commands().filter { command in
            let words = command.split(separator: " ", maxSplits: 2)
            return command.uppercased().hasPrefix(timeVerb) && words.count == 3 && words[1].count == 14
                && words[1].allSatisfy(\.isNumber)
        }
        #expect(timeSets.count == tree.files.count + 1, "\(timeSets)")

        // Unchanged: the second push sends nothing, whatever the listing's precision.
        let second = try ftpsync(["push", configPath, "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Push.actions(second.stdout).isEmpty, "\(second.stdout)")

        // A local move of the 2 MB file is one RNFR/RNTO and no STOR.
        try FileManager.default.createDirectory(atPath: mirror + "/cam/kept", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: mirror + "/cam/video/clip.mp4", toPath: mirror + "/cam/kept/clip.mp4")
        let third = try ftpsync(["push", configPath, "--json"])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(Push.actions(third.stdout).map(\.kind) == ["mkdir_remote", "rename_remote"], "\(third.stdout)")
        #expect(server.count("STOR") == stores)
        #expect(server.commands().contains { $0.hasPrefix("RNTO") && $0.hasSuffix("kept/clip.mp4") })
        #expect(Push.bytes(served + "/kept/clip.mp4") == big)
        #expect(!FileManager.default.fileExists(atPath: served + "/video/clip.mp4"))

        let fourth = try ftpsync(["push", configPath, "--json"])
        #expect(Push.actions(fourth.stdout).isEmpty, "\(fourth.stdout)")
    }

    @Test func killedUploadLeavesNoFileUnderItsNameAndResumes() throws {
        let work = try makeTemporaryFolder("push-kill")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let big = pseudoRandomBytes(6 * 1_048_576, seed: 5)
        try writeFile(mirror + "/cam/movies/big.bin", big, modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.0.43", options: ["--throttle", "1048576"])
        defer { server.stop() }
        let configPath = try Push.config(server, local: mirror, at: work)

        let temporary = served + "/movies/.big.bin.ftpsync-part"
        try Push.killWhenSent(configPath, temporary: temporary, bytes: 1_048_576)

        let kept = Push.size(temporary)
        #expect(kept >= 1_048_576 && kept < UInt64(big.count))
        #expect(!FileManager.default.fileExists(atPath: served + "/movies/big.bin"))

        let again = try ftpsync(["push", configPath, "--json"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        let resumed = server.commands().contains {
            $0.uppercased().hasPrefix("APPE ") || $0.uppercased().hasPrefix("REST ")
        }
        #expect(resumed, "APPE or REST after the kill")
        #expect(Push.actions(again.stdout).first?.kind == "upload")
        #expect(Push.bytes(served + "/movies/big.bin") == big)
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    /// A file that changes while it is sent — grows, or is rewritten in place with
    /// its modification time put back — is never sent past its planned size, never renamed
    /// into place, and is reported as changed; the next run sends the new version.
    @Test(arguments: [("grow", "127.0.2.32"), ("rewrite", "127.0.2.33")])
    func aFileChangingWhileSentIsNotPlacedAndIsSentAgain(change: String, address: String) throws {
        let work = try makeTemporaryFolder("push-\(change)")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let first = pseudoRandomBytes(4 * 1_048_576, seed: 8)
        let local = mirror + "/cam/changing.bin"
        let stamp = Push.minute()
        try writeFile(local, first, modified: stamp)
        let server = try FTPServer(.pyftpdlib, root: served, address: address, options: ["--throttle", "1048576"])
        defer { server.stop() }
        let configPath = try Push.config(server, local: mirror, at: work)

        let child = try spawn(ftpsyncBinary, ["push", configPath, "--json"], output: true)
        let temporary = served + "/.changing.bin.ftpsync-part"
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && Push.size(temporary) < 1_048_576 { usleep(20_000) }
        let more = pseudoRandomBytes(1_048_576, seed: 9)
        let handle = try #require(FileHandle(forWritingAtPath: local))
        var expected = first
        if change == "grow" {
            handle.seekToEndOfFile()
            expected += more
        } else {
            // The same size, new bytes at the start, and the old modification time put back.
            handle.seek(toFileOffset: 0)
            expected.replaceSubrange(0..<more.count, with: more)
        }
        handle.write(Data(more))
        try handle.close()
        if change == "rewrite" {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: stamp)], ofItemAtPath: local)
        }
        let status = waitForExit(child.pid, timeout: 60)
        let stdout = (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? ""
        unlink(child.stdout)
        unlink(child.stderr)
        #expect(status == 1, "\(stdout)")
        #expect(stdout.contains("changed here while it was being sent"), "\(stdout)")
        // Dropped, not kept for a resume: its bytes may come from two versions.
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(!FileManager.default.fileExists(atPath: served + "/changing.bin"))

        let again = try ftpsync(["push", configPath, "--json"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(Push.bytes(served + "/changing.bin") == expected)
    }

    /// An upload killed midway whose local file then moves is never resumed: its temporary
    /// file is removed from the device and its row from the state; the file goes up under its
    /// new name.
    @Test func anInterruptedUploadWhoseFileMovedLeavesNothingBehind() throws {
        let work = try makeTemporaryFolder("push-abandoned")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let big = pseudoRandomBytes(6 * 1_048_576, seed: 12)
        try writeFile(mirror + "/cam/big.bin", big, modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.2.34", options: ["--throttle", "1048576"])
        defer { server.stop() }
        let configPath = try Push.config(server, local: mirror, at: work)

        let temporary = served + "/.big.bin.ftpsync-part"
        try Push.killWhenSent(configPath, temporary: temporary, bytes: 1_048_576)
        #expect(Push.size(temporary) >= 1_048_576)

        try FileManager.default.moveItem(atPath: mirror + "/cam/big.bin", toPath: mirror + "/cam/moved.bin")
        let again = try ftpsync(["push", configPath, "--json"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(Push.bytes(served + "/moved.bin") == big)
        #expect(!FileManager.default.fileExists(atPath: temporary))
        let status = try ftpsync(["status", configPath, "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let device = (document?["devices"] as? [[String: Any]])?.first
        #expect(device?["partials"] as? Int == 0, "\(status.stdout)")
    }

    @Test func pushNeverOverwritesADeviceFileChangedSinceTheLastSync() throws {
        let work = try makeTemporaryFolder("push-conflict")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        try writeFile(mirror + "/cam/notes.txt", Array("version 1\n".utf8), modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.0.44")
        defer { server.stop() }
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["push", configPath]).status == 0)

        try writeFile(served + "/notes.txt", Array("changed on the device\n".utf8), modified: Push.minute(daysAgo: 1))
        try writeFile(
            mirror + "/cam/notes.txt", Array("changed here, longer\n".utf8), modified: Push.minute(daysAgo: 0.5))
        let run = try ftpsync(["push", configPath, "--json"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(Push.actions(run.stdout).map(\.kind) == ["conflict"])
        #expect(Push.bytes(served + "/notes.txt") == Array("changed on the device\n".utf8))
        #expect(Push.bytes(mirror + "/cam/notes.txt") == Array("changed here, longer\n".utf8))
    }
}
