// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 13, items 1, 2 and 9 against a real server (pyftpdlib): a conflict copy that cannot be
/// made never lets the download replace the user's file, names too long for a conflict copy
/// are shortened, a local edit during a download survives, and a folder swapped for a symlink
/// during a pull is never written through. Addresses 127.0.1.32–127.0.1.40 belong to this suite.
@Suite(.serialized) struct LocalSafetyTests {
    /// 78 CJK characters (3 bytes each) and `ab.txt`: a 240-byte name, so
    /// `NAME.conflict-<stamp>.EXT` would pass NAME_MAX (255 bytes).
    static let longName = String(repeating: "\u{5199}", count: 78) + "ab.txt"

    @Test func aConflictCopyOfA240ByteNameKeepsBothVersions() throws {
        #expect(Self.longName.utf8.count == 240)
        let work = try makeTemporaryFolder("long-conflict")
        let served = work + "/served"
        try writeFile(served + "/DCIM/" + Self.longName, Array("version 1\n".utf8), modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.32")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)

        let device = Array("device version\n".utf8)
        let local = Array("local version, not to be lost\n".utf8)
        try writeFile(served + "/DCIM/" + Self.longName, device, modified: Push.minute(daysAgo: 1))
        try writeFile(mirror + "/cam/DCIM/" + Self.longName, local, modified: Push.minute(daysAgo: 0.5))
        let run = try ftpsync(["pull", configPath, "--json"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(Push.actions(run.stdout).map(\.kind) == ["conflict", "download"], "\(run.stdout)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mirror + "/cam/DCIM")) ?? []
        let contents = Set(names.compactMap { Push.bytes(mirror + "/cam/DCIM/" + $0) })
        #expect(contents == [device, local], "\(names)")
        #expect(Push.bytes(mirror + "/cam/DCIM/" + Self.longName) == device)
        for name in names { #expect(name.utf8.count <= 255, "\(name)") }
    }

    @Test func aFailedConflictCopyStopsTheDownloadOverTheUsersFile() throws {
        let work = try makeTemporaryFolder("gated-conflict")
        let served = work + "/served"
        try writeFile(served + "/notes.txt", Array("version 1\n".utf8), modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.33")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)

        try writeFile(served + "/notes.txt", Array("device version\n".utf8), modified: Push.minute(daysAgo: 1))
        let local = Array("local version, not to be lost\n".utf8)
        try writeFile(mirror + "/cam/notes.txt", local, modified: Push.minute(daysAgo: 0.5))
        // Folders already hold every conflict name the next minute can give: no copy can be made.
        let now = Date()
        for second in -5..<90 {
            let stamp = Self.utcStamp(now.addingTimeInterval(Double(second)))
            try FileManager.default.createDirectory(
                atPath: mirror + "/cam/notes.conflict-\(stamp).txt/taken", withIntermediateDirectories: true)
        }
        let run = try ftpsync(["pull", configPath, "--json"])
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(Push.deviceStatus(run.stdout) == "partial")
        #expect(Push.actions(run.stdout).map(\.status) == ["failed", "failed"], "\(run.stdout)")
        #expect(run.stdout.contains("not downloaded: the local version could not be kept as a conflict copy"))
        #expect(Push.bytes(mirror + "/cam/notes.txt") == local)
    }

    @Test func aLocalEditDuringTheDownloadSurvives() throws {
        let work = try makeTemporaryFolder("edit-during-download")
        let served = work + "/served"
        let first = pseudoRandomBytes(600_000, seed: 21)
        try writeFile(served + "/clip.mp4", first, modified: Push.minute())
        var server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.34")
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)
        server.stop()
        // pyftpdlib's throttle lets the first second through at full speed: 1.5 MB at 200 kB/s.
        try writeFile(served + "/clip.mp4", pseudoRandomBytes(1_500_000, seed: 22), modified: Push.minute(daysAgo: 1))
        server = try FTPServer(
            .pyftpdlib, root: served, address: "127.0.1.34", port: server.port, options: ["--throttle", "200000"])
        defer { server.stop() }

        let child = try spawn(ftpsyncBinary, ["pull", configPath, "--json"], output: true)
        let partials = mirror + "/.ftpsync/partial/cam"
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
            if names.contains(where: { Push.size(partials + "/" + $0) > 300_000 }) { break }
            usleep(20_000)
        }
        let edit = Array("the user's edit, made while the device's version downloads\n".utf8)
        try Data(edit).write(to: URL(fileURLWithPath: mirror + "/cam/clip.mp4"))
        let status = waitForExit(child.pid, timeout: 60)
        #expect(status == 1)
        let report = (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? ""
        #expect(report.contains("changed here while the device's version downloaded"), "\(report)")
        let survived = Push.bytes(mirror + "/cam/clip.mp4") == edit
        #expect(survived, "the user's edit was replaced")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mirror + "/cam")) ?? []
        let copies = names.filter { $0.hasPrefix("clip.conflict-") && $0.hasSuffix(".mp4") }
        #expect(copies.count == 1, "\(names)")
        #expect(Push.size(mirror + "/cam/" + (copies.first ?? "")) == 1_500_000)
    }

    @Test func aDownloadOverAnUnchangedFileReplacesItAndLeavesNothingBeside() throws {
        let work = try makeTemporaryFolder("checked-replace")
        let served = work + "/served"
        try writeFile(served + "/small.txt", Array("version 1\n".utf8), modified: Push.minute())
        try writeFile(served + "/big.bin", pseudoRandomBytes(600_000, seed: 50), modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.38")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let configPath = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["pull", configPath]).status == 0)
        let small = Array("version 2, from the device\n".utf8)
        let big = pseudoRandomBytes(650_000, seed: 51)
        try writeFile(served + "/small.txt", small, modified: Push.minute(daysAgo: 1))
        try writeFile(served + "/big.bin", big, modified: Push.minute(daysAgo: 1))
        let run = try ftpsync(["pull", configPath, "--json"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(Push.actions(run.stdout).map(\.kind) == ["download", "download"], "\(run.stdout)")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: mirror + "/cam")) ?? []).sorted()
        #expect(names == ["big.bin", "small.txt"])
        let replaced = Push.bytes(mirror + "/cam/small.txt") == small && Push.bytes(mirror + "/cam/big.bin") == big
        #expect(replaced)
        let again = try ftpsync(["pull", configPath, "--json"])
        #expect(again.status == 0 && Push.actions(again.stdout).isEmpty, "\(again.stdout)")
    }

    @Test func aFolderSwappedForASymlinkDuringAPullIsNotWrittenThrough() throws {
        let work = try makeTemporaryFolder("symlink-swap")
        let served = work + "/served"
        try writeFile(served + "/DCIM/a.jpg", pseudoRandomBytes(1000, seed: 30), modified: Push.minute())
        for index in 0..<3 {
            try writeFile(
                served + "/DCIM/b\(index).mp4", pseudoRandomBytes(600_000, seed: 31 + UInt64(index)),
                modified: Push.minute())
        }
        let server = try FTPServer(
            .pyftpdlib, root: served, address: "127.0.1.35", options: ["--throttle", "150000"])
        defer { server.stop() }
        let mirror = work + "/mirror"
        let outside = work + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let configPath = try Push.config(server, local: mirror, at: work)
        let text = try String(contentsOfFile: configPath, encoding: .utf8) + "    connections: 1\n"
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)

        let child = try spawn(ftpsyncBinary, ["pull", configPath, "--json"], output: true)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && !FileManager.default.fileExists(atPath: mirror + "/cam/DCIM/a.jpg") {
            usleep(10_000)
        }
        // The folder is moved aside (inside the tree) and a symlink to a folder outside takes its name.
        try FileManager.default.moveItem(atPath: mirror + "/cam/DCIM", toPath: mirror + "/cam/DCIM-aside")
        #expect(symlink(outside, mirror + "/cam/DCIM") == 0)
        let status = waitForExit(child.pid, timeout: 90)
        #expect(status == 1)
        let report = (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? ""
        #expect(Push.deviceStatus(report) == "partial")
        #expect(report.contains("a symbolic link is in the way"), "\(report)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: outside)) ?? []) == [])
        var info = stat()
        #expect(lstat(mirror + "/cam/DCIM", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    }

    @Test func leftoversOfAMoveAcrossFileSystemsAreNeverUploadedAndPullTrashesThem() throws {
        let work = try makeTemporaryFolder("leftovers")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.36")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let photo = pseudoRandomBytes(5000, seed: 40)
        try writeFile(mirror + "/cam/DCIM/a.jpg", photo, modified: Push.minute())
        // What 0.1.0 left when killed while copying a.jpg across file systems.
        try writeFile(mirror + "/cam/DCIM/a.jpg.ftpsync-copy", Array(photo.prefix(2000)), modified: Push.minute())
        let configPath = try Push.config(server, local: mirror, at: work)
        let push = try ftpsync(["push", configPath, "--json"])
        #expect(push.status == 0, "\(push.stdout) \(push.stderr)")
        #expect(Push.actions(push.stdout).map(\.path) == ["DCIM", "DCIM/a.jpg"], "\(push.stdout)")
        #expect(!FileManager.default.fileExists(atPath: served + "/DCIM/a.jpg.ftpsync-copy"))

        let pull = try ftpsync(["pull", configPath, "--json"])
        #expect(pull.status == 0, "\(pull.stdout) \(pull.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mirror + "/cam/DCIM/a.jpg.ftpsync-copy"))
        let trash = mirror + "/.ftpsync/trash"
        let stamps = (try? FileManager.default.contentsOfDirectory(atPath: trash)) ?? []
        #expect(stamps.count == 1)
        #expect(FileManager.default.fileExists(atPath: trash + "/\(stamps.first ?? "")/cam/DCIM/a.jpg.ftpsync-copy"))
        #expect(Push.bytes(mirror + "/cam/DCIM/a.jpg") == photo)
    }

    @Test func aPullIntoADeviceFolderOnAnotherFileSystemLeavesNoCopyBeside() throws {
        guard getuid() == 0 else { return }  // mounting a tmpfs needs root
        let work = try makeTemporaryFolder("cross-device-pull")
        let served = work + "/served"
        let clip = pseudoRandomBytes(700_000, seed: 41)
        try writeFile(served + "/clip.mp4", clip, modified: Push.minute())
        try writeFile(served + "/small.jpg", pseudoRandomBytes(3000, seed: 42), modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.1.37")
        defer { server.stop() }
        let mirror = work + "/mirror"
        try FileManager.default.createDirectory(atPath: mirror + "/cam", withIntermediateDirectories: true)
        try #require(mount("tmpfs", mirror + "/cam", "tmpfs", 0, "size=16m") == 0)
        defer { umount2(mirror + "/cam", 2) }
        try writeFile(mirror + "/cam/clip.mp4", Array("old".utf8), modified: Push.minute(daysAgo: 3))
        let configPath = try Push.config(server, local: mirror, at: work)
        let first = try ftpsync(["pull", configPath, "--json"])
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        #expect(Push.bytes(mirror + "/cam/clip.mp4") == clip)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: mirror + "/cam")) ?? []).sorted()
        #expect(names.filter { !$0.hasPrefix("clip.conflict-") } == ["clip.mp4", "small.jpg"], "\(names)")
        let second = try ftpsync(["pull", configPath, "--json"])
        #expect(second.status == 0 && Push.actions(second.stdout).isEmpty, "\(second.stdout)")
    }

    /// `date` in UTC as `YYYYMMDDTHHMMSSZ`, the stamp of conflict names.
    static func utcStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
