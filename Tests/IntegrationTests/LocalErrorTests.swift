// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 7: local errors (read-only folder, full disk, a name too long) fail only their own
/// files, with the path and the cause; nothing half-written stays in the tree; the rest goes on.
/// Tests run as root, so "read-only" is a read-only bind mount and "full" a 2 MB tmpfs.
@Suite(.serialized) struct LocalErrorTests {
    private func config(_ server: FTPServer, local: String, at folder: String) throws -> String {
        let text = "local: \(local)\ndevices:\n" + server.deviceYAML(name: "cam")
        let path = folder + "/device.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs a system command (mount, umount); true when it exited 0.
    @discardableResult
    private func system(_ arguments: [String]) -> Bool {
        ((try? run(arguments[0], Array(arguments.dropFirst()), timeout: 30))?.status ?? -1) == 0
    }

    private func actions(_ stdout: String) -> [[String: Any]] {
        let document = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        return ((document?["devices"] as? [[String: Any]])?.first?["actions"] as? [[String: Any]]) ?? []
    }

    /// `immutable`: `chattr +i` (EPERM even for root); `ro-mount`: a read-only bind mount (the
    /// rename out of `.ftpsync/partial` then meets another file system: EXDEV or EROFS).
    @Test(arguments: [
        ("immutable", "127.0.0.99", ["Operation not permitted"]),
        ("ro-mount", "127.0.1.3", ["Read-only file system", "cross-device"]),
    ])
    func readOnlyFolderFailsOnlyItsOwnFiles(method: String, address: String, causes: [String]) throws {
        let work = try makeTemporaryFolder("readonly-\(method)")
        let served = work + "/served"
        let base = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 86_400
        let files = [
            SampleFile(path: "locked/c.txt", content: Array("c\n".utf8), modified: base),
            SampleFile(path: "locked/d.bin", content: pseudoRandomBytes(200_000, seed: 31), modified: base),
            SampleFile(path: "ok/a.txt", content: Array("a\n".utf8), modified: base),
            SampleFile(path: "top.bin", content: pseudoRandomBytes(100_000, seed: 32), modified: base),
        ]
        try writeTree(files, at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: address)
        defer { server.stop() }
        let mirror = work + "/mirror"
        let locked = mirror + "/cam/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        if method == "immutable" {
            #expect(system(["/usr/bin/chattr", "+i", locked]))
        } else {
            #expect(system(["/usr/bin/mount", "--bind", locked, locked]))
            #expect(system(["/usr/bin/mount", "-o", "remount,ro,bind", locked]))
        }
        defer { system(method == "immutable" ? ["/usr/bin/chattr", "-i", locked] : ["/usr/bin/umount", locked]) }
        let configPath = try config(server, local: mirror, at: work)

        let result = try ftpsync(["pull", configPath, "--json"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        for action in actions(result.stdout) {
            let path = action["path"] as? String ?? ""
            let failed = action["status"] as? String == "failed"
            #expect(failed == path.hasPrefix("locked/"), "\(action)")
            if failed {
                let error = action["error"] as? String ?? ""
                #expect(causes.contains { error.contains($0) }, "\(error)")
                #expect(error.contains(path), "\(error)")
            }
        }
        #expect(FileManager.default.contents(atPath: mirror + "/cam/ok/a.txt") == Data("a\n".utf8))
        #expect(FileManager.default.contents(atPath: mirror + "/cam/top.bin") == Data(files[3].content))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: locked)) ?? ["?"]).isEmpty)
    }

    @Test func fullDiskFailsTheFileThatDoesNotFitAndTheRestArrives() throws {
        let work = try makeTemporaryFolder("diskfull")
        let served = work + "/served"
        let base = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 86_400
        var files = [SampleFile(path: "a-too-big.bin", content: pseudoRandomBytes(4_000_000, seed: 41), modified: base)]
        for index in 0..<8 {
            files.append(
                SampleFile(
                    path: "b-small-\(index).bin", content: pseudoRandomBytes(20_000, seed: UInt64(50 + index)),
                    modified: base))
        }
        try writeTree(files, at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.1")
        defer { server.stop() }
        let mirror = work + "/mirror"
        try FileManager.default.createDirectory(atPath: mirror, withIntermediateDirectories: true)
        #expect(system(["/usr/bin/mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mirror]))
        defer { system(["/usr/bin/umount", mirror]) }
        let configPath = try config(server, local: mirror, at: work)

        // One connection: the file too big for the disk fails first and alone; with several
        // connections the files being written beside it would race it for the last bytes.
        let result = try ftpsync(["pull", configPath, "--json", "--parallel", "1"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        for action in actions(result.stdout) where action["kind"] as? String == "download" {
            let path = action["path"] as? String ?? ""
            let failed = action["status"] as? String == "failed"
            #expect(failed == (path == "a-too-big.bin"), "\(action)")
            if failed {
                #expect((action["error"] as? String ?? "").contains("No space left on device"), "\(action)")
            }
        }
        for file in files.dropFirst() {
            #expect(FileManager.default.contents(atPath: mirror + "/cam/" + file.path) == Data(file.content))
        }
        #expect(!FileManager.default.fileExists(atPath: mirror + "/cam/a-too-big.bin"))
        // No partial download is left behind for the file that did not fit.
        let partials = (try? FileManager.default.contentsOfDirectory(atPath: mirror + "/.ftpsync/partial/cam")) ?? []
        #expect(partials.isEmpty, "\(partials)")
    }

    @Test func nameTooLongForTheLocalFileSystemFailsThatFileOnly() throws {
        let work = try makeTemporaryFolder("longname")
        let server = try HostileServer("longname", address: "127.0.1.2")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try server.config(local: mirror, at: work)
        let result = try ftpsync(["pull", configPath, "--json"], environment: ["HOSTILE_PASS": "x"], timeout: 60)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let all = actions(result.stdout)
        let failed = all.filter { $0["status"] as? String == "failed" }
        #expect(failed.count == 1 && (failed.first?["path"] as? String)?.count == 300, "\(all)")
        let message = failed.first?["error"] as? String ?? ""
        #expect(message.contains("File name too long"), "\(failed)")
        #expect(FileManager.default.contents(atPath: mirror + "/cam/good.txt") == Data("good content\n".utf8))
    }
}
