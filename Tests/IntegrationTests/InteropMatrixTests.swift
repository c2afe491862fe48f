// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 7's interop matrix: the same contract steps (pull, push, renames both ways, deletes
/// both ways, resume) against the five servers of the lab. Where a kind keeps no command log
/// (pure-ftpd, busybox) the results are checked on disk only. Addresses 127.0.2.1–127.0.2.20.
@Suite(.serialized) struct InteropMatrixTests {
    static let contract: [(FTPServer.Kind, String)] = [
        (.pyftpdlib, "127.0.2.1"), (.vsftpd, "127.0.2.2"), (.proftpd, "127.0.2.3"), (.pureFTPd, "127.0.2.4"),
        (.busybox, "127.0.2.5"),
    ]
    static let resume: [(FTPServer.Kind, String)] = [
        (.pyftpdlib, "127.0.2.11"), (.vsftpd, "127.0.2.12"), (.proftpd, "127.0.2.13"),
        (.pureFTPd, "127.0.2.14"), (.busybox, "127.0.2.15"),
    ]

    /// Whether `json` (a `--json` run) reports `files_transferred` as `count`.
    static func transferred(_ json: String, _ count: Int) -> Bool {
        json.contains("\"files_transferred\" : \(count)") || json.contains("\"files_transferred\":\(count)")
    }

    /// Every file and folder of `served` and `local` agree, files byte for byte.
    static func expectSameTree(_ served: String, _ local: String, _ label: String) {
        let remote = treeListing(served)
        let mirrored = treeListing(local)
        #expect(
            Set(remote.keys) == Set(mirrored.keys), "\(label): \(remote.keys.sorted()) vs \(mirrored.keys.sorted())")
        for (path, facts) in remote where !facts.isFolder {
            #expect(mirrored[path]?.content == facts.content, "\(label): content of \(path)")
        }
    }

    @Test(arguments: contract)
    func contractSuite(kind: FTPServer.Kind, address: String) throws {
        let fm = FileManager.default
        let work = try makeTemporaryFolder("interop-\(kind.rawValue)")
        let served = work + "/served"
        let when = Push.minute()
        let tree = [
            SampleFile(path: "DCIM/100CAM/deep/nested.txt", content: Array("nested\n".utf8), modified: when),
            SampleFile(path: "name with space.txt", content: Array("spaced\n".utf8), modified: when - 60),
            SampleFile(path: "zero.bin", content: [], modified: when - 120),
            SampleFile(path: "DCIM/big-300k.bin", content: pseudoRandomBytes(300_000, seed: 71), modified: when - 180),
            SampleFile(path: "moved-on-device.jpg", content: pseudoRandomBytes(5000, seed: 72), modified: when - 240),
            SampleFile(path: "gone-on-device.jpg", content: pseudoRandomBytes(4000, seed: 73), modified: when - 300),
        ]
        try writeTree(tree, at: served)
        let server = try FTPServer(kind, root: served, address: address)
        defer { server.stop() }
        let mirror = work + "/mirror"
        let local = mirror + "/cam"
        let configPath = try Push.config(server, local: mirror, at: work)

        // Pull: byte-identical; a second pull transfers nothing.
        let first = try ftpsync(["pull", configPath, "--json"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        Self.expectSameTree(served, local, "\(kind) first pull")
        let again = try ftpsync(["pull", configPath, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.transferred(again.stdout, 0), "\(kind) second pull: \(again.stdout)")

        // Push a new file and a changed one.
        try writeFile(local + "/new here.txt", Array("made locally\n".utf8), modified: Push.minute(daysAgo: 1))
        try writeFile(
            local + "/name with space.txt", Array("changed locally\n".utf8), modified: Push.minute(daysAgo: 1))
        let push = try ftpsync(["push", configPath, "--json"])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(Push.bytes(served + "/new here.txt") == Array("made locally\n".utf8), "\(kind) new file")
        #expect(Push.bytes(served + "/name with space.txt") == Array("changed locally\n".utf8), "\(kind) changed")

        // A local rename is pushed as a rename: no upload of the content again.
        let stores = server.count("STOR")
        try fm.moveItem(atPath: local + "/DCIM/big-300k.bin", toPath: local + "/DCIM/big renamed.bin")
        let rename = try ftpsync(["push", configPath, "--json"])
        #expect(rename.status == 0, "\(rename.stdout)\(rename.stderr)")
        #expect(Push.actions(rename.stdout).map(\.kind) == ["rename_remote"], "\(kind): \(rename.stdout)")
        #expect(Push.bytes(served + "/DCIM/big renamed.bin") == Push.bytes(local + "/DCIM/big renamed.bin"))
        #expect(!fm.fileExists(atPath: served + "/DCIM/big-300k.bin"))
        if kind.logsCommands {
            let commands = server.commands()
            #expect(commands.contains("RNFR /DCIM/big-300k.bin"), "\(kind): \(commands.suffix(20))")
            #expect(commands.contains("RNTO /DCIM/big renamed.bin"), "\(kind): \(commands.suffix(20))")
            #expect(server.count("STOR") == stores)
        }

        // A rename on the device is pulled as a local rename.
        try fm.moveItem(atPath: served + "/moved-on-device.jpg", toPath: served + "/DCIM/moved here.jpg")
        let pulledRename = try ftpsync(["pull", configPath, "--json"])
        #expect(pulledRename.status == 0, "\(pulledRename.stdout)\(pulledRename.stderr)")
        #expect(Push.actions(pulledRename.stdout).map(\.kind) == ["rename_local"], "\(kind): \(pulledRename.stdout)")
        #expect(Self.transferred(pulledRename.stdout, 0), "\(kind): \(pulledRename.stdout)")
        #expect(Push.bytes(local + "/DCIM/moved here.jpg") == Push.bytes(served + "/DCIM/moved here.jpg"))
        #expect(!fm.fileExists(atPath: local + "/moved-on-device.jpg"))

        // --delete on pull: a file the device no longer has goes to the trash.
        try fm.removeItem(atPath: served + "/gone-on-device.jpg")
        let pullDelete = try ftpsync(["pull", configPath, "--delete", "--json"])
        #expect(pullDelete.status == 0, "\(pullDelete.stdout)\(pullDelete.stderr)")
        #expect(Push.actions(pullDelete.stdout).map(\.kind) == ["delete_local"], "\(kind): \(pullDelete.stdout)")
        #expect(!fm.fileExists(atPath: local + "/gone-on-device.jpg"))
        let trash = mirror + "/.ftpsync/trash"
        let stamps = (try? fm.contentsOfDirectory(atPath: trash)) ?? []
        #expect(stamps.count == 1 && fm.fileExists(atPath: "\(trash)/\(stamps.first ?? "")/cam/gone-on-device.jpg"))

        // --delete on push: a file deleted here is deleted on the device.
        try fm.removeItem(atPath: local + "/new here.txt")
        let pushDelete = try ftpsync(["push", configPath, "--delete", "--json"])
        #expect(pushDelete.status == 0, "\(pushDelete.stdout)\(pushDelete.stderr)")
        #expect(Push.actions(pushDelete.stdout).map(\.kind) == ["delete_remote"], "\(kind): \(pushDelete.stdout)")
        #expect(!fm.fileExists(atPath: served + "/new here.txt"))

        // After all of it both sides agree and nothing is left to do either way.
        Self.expectSameTree(served, local, "\(kind) at the end")
        let settledPull = try ftpsync(["pull", configPath, "--delete", "--json"])
        #expect(Push.actions(settledPull.stdout).isEmpty, "\(kind): \(settledPull.stdout)")
        let settledPush = try ftpsync(["push", configPath, "--delete", "--json"])
        #expect(Push.actions(settledPush.stdout).isEmpty, "\(kind): \(settledPush.stdout)")
    }

    /// A pull killed (SIGKILL) once more than 1 MB of a 20 MB file has arrived, then completed
    /// by the next pull — with REST where the server keeps a log to show it.
    @Test(arguments: resume)
    func killedPullResumes(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("interop-resume-\(kind.rawValue)")
        let served = work + "/served"
        let content = pseudoRandomBytes(20_000_000, seed: 74)
        try writeFile(served + "/video 20MB.bin", content, modified: Push.minute())
        // 5 MB/s where the lab can throttle: the kill lands well inside the transfer. The
        // other kinds serve loopback at full speed, so the transfer may end before the kill.
        let server = try FTPServer(
            kind, root: served, address: address, options: kind.throttles ? ["--throttle", "5000000"] : [])
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)

        let child = try spawn(ftpsyncBinary, ["pull", configPath, "--no-progress", "--parallel", "1"], output: false)
        let partials = mirror + "/.ftpsync/partial/cam"
        func partialSize() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
            guard let name = names.first else { return 0 }
            return ((try? FileManager.default.attributesOfItem(atPath: partials + "/" + name))?[.size] as? Int) ?? 0
        }
        var caught = false
        var reaped = false
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if partialSize() > 1_000_000 {
                caught = kill(child.pid, SIGKILL) == 0
                break
            }
            var raw: Int32 = 0
            if waitpid(child.pid, &raw, WNOHANG) == child.pid {
                reaped = true
                break
            }
            usleep(5_000)
        }
        if !reaped {
            kill(child.pid, SIGKILL)
            _ = waitForExit(child.pid, timeout: 30)
        }
        if kind.throttles { #expect(caught, "\(kind): the throttled transfer is caught midway") }

        let next = try ftpsync(["pull", configPath, "--json"])
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(Push.bytes(mirror + "/cam/video 20MB.bin") == content, "\(kind): byte-identical after the resume")
        if caught && kind.logsCommands {
            #expect(server.commands().contains { $0.hasPrefix("REST ") }, "\(kind): the second pull resumes with REST")
        }
    }
}
