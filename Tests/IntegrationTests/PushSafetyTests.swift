// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 13 items 4, 6 and 7 (push side): lost state, a kill right after RNTO, slow devices.
/// Addresses 127.0.3.1–127.0.3.10.
@Suite(.serialized) struct PushSafetyTests {
    /// Item 4: with the state deleted, a device file that differs from the local one is a
    /// conflict, never overwritten; the run exits 1 and names the reason.
    @Test func lostStateIsNoPermissionToOverwrite() throws {
        let work = try makeTemporaryFolder("push-lost-state")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        try writeFile(mirror + "/cam/notes.txt", Array("local version\n".utf8), modified: Push.minute(daysAgo: 3))
        try writeFile(mirror + "/cam/same.txt", Array("same on both\n".utf8), modified: Push.minute(daysAgo: 3))
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.3.1")
        defer { server.stop() }
        let configPath = try Push.config(server, local: mirror, at: work)
        let first = try ftpsync(["push", configPath, "--json"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        // The state is lost; meanwhile someone changes the device's copy.
        for suffix in ["", "-wal", "-shm"] { unlink(mirror + "/.ftpsync/state.sqlite" + suffix) }
        let theirs = Array("edited on the device, longer than before\n".utf8)
        try writeFile(served + "/notes.txt", theirs, modified: Push.minute(daysAgo: 1))

        let second = try ftpsync(["push", configPath, "--json"])
        #expect(second.status == 1, "\(second.stdout)\(second.stderr)")
        #expect(Push.bytes(served + "/notes.txt") == theirs, "the device's file must be intact")
        let actions = Push.actions(second.stdout)
        #expect(actions.map(\.kind) == ["conflict"], "\(second.stdout)")
        #expect(actions.first?.path == "notes.txt")
        #expect(second.stdout.contains("not overwritten"), "\(second.stdout)")
        #expect(server.count("STOR") == 2, "only the first run uploads")
    }
}

extension PushSafetyTests {
    static let hostileEnvironment = ["HOSTILE_PASS": "x"]

    /// Starts `ftpsync push CONFIG` and SIGKILLs it once `file` holds `content` (the upload was
    /// renamed into place), or after 20 s. - Returns: whether the content was seen.
    static func killWhenPlaced(_ config: String, file: String, content: [UInt8]) throws -> Bool {
        let child = try spawn(
            ftpsyncBinary, ["push", config, "-q"], environment: hostileEnvironment, output: false)
        let deadline = Date().addingTimeInterval(20)
        var seen = false
        while Date() < deadline {
            if Push.bytes(file) == content {
                seen = true
                break
            }
            usleep(10_000)
        }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 10)
        return seen
    }

    /// Item 6: a push killed right after RNTO (the device answers nothing more) leaves our
    /// bytes under the final name and the old record; the next push finds the file to be the
    /// one it sent (size and sampled bytes) and records it: no conflict, no second upload.
    @Test func aKillRightAfterTheRenameIsNoConflictLater() throws {
        let work = try makeTemporaryFolder("push-rnto-kill")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        try writeFile(mirror + "/cam/clip.bin", pseudoRandomBytes(200_000, seed: 61), modified: Push.minute(daysAgo: 3))
        let server = try HostileServer("stall-after-rnto", address: "127.0.3.2", root: served)
        defer { server.stop() }
        let configPath = try server.config(local: mirror, at: work, timeout: 10)
        let first = try ftpsync(["push", configPath, "--json"], environment: Self.hostileEnvironment)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        // A new version here; its upload is killed right after the device renamed it into place.
        let second = pseudoRandomBytes(250_000, seed: 62)
        try writeFile(mirror + "/cam/clip.bin", second, modified: Push.minute(daysAgo: 1))
        let placed = try Self.killWhenPlaced(configPath, file: served + "/clip.bin", content: second)
        #expect(placed, "the upload should have been renamed into place before the kill")

        // The text report, which carries the notes.
        let next = try ftpsync(["push", configPath], environment: Self.hostileEnvironment)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(!next.stdout.contains("conflict"), "\(next.stdout)")
        #expect(next.stdout.contains("found complete"), "\(next.stdout)")
        #expect(Push.bytes(served + "/clip.bin") == second)
        #expect(!FileManager.default.fileExists(atPath: served + "/.clip.bin.ftpsync-part"))

        let last = try ftpsync(["push", configPath, "--json"], environment: Self.hostileEnvironment)
        #expect(last.status == 0, "\(last.stdout)\(last.stderr)")
        #expect(Push.actions(last.stdout).isEmpty, "a third push is a no-op: \(last.stdout)")
        #expect(Push.bytes(served + "/clip.bin") == second)
    }
}

extension PushSafetyTests {
    /// A push killed between RNFR and RNTO leaves its intent and its whole temporary; the file
    /// under the name is still the old version, of the same size, differing where no sampled
    /// range looks. The still-listed temporary proves the rename never happened: the next push
    /// must not record the old file as ours, and the device ends with the new version.
    @Test func aKillBeforeTheRenameIsNotTakenForOurUpload() throws {
        let work = try makeTemporaryFolder("push-rnfr-kill")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let first = pseudoRandomBytes(200_000, seed: 63)
        try writeFile(mirror + "/cam/clip.bin", first, modified: Push.minute(daysAgo: 3))
        let server = try HostileServer("stall-on-rnto", address: "127.0.3.10", root: served)
        defer { server.stop() }
        let configPath = try server.config(local: mirror, at: work, timeout: 10)
        let initial = try ftpsync(["push", configPath, "--json"], environment: Self.hostileEnvironment)
        #expect(initial.status == 0, "\(initial.stdout)\(initial.stderr)")

        var second = first
        for index in 30_000..<40_000 { second[index] ^= 0x5a }
        try writeFile(mirror + "/cam/clip.bin", second, modified: Push.minute(daysAgo: 3) + 120)
        // Killed once the device got the RNTO it neither carries out nor answers.
        let before = server.commands().filter { $0.hasPrefix("RNTO") }.count
        let child = try spawn(
            ftpsyncBinary, ["push", configPath, "-q"], environment: Self.hostileEnvironment, output: false)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, server.commands().filter({ $0.hasPrefix("RNTO") }).count == before { usleep(5_000) }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 10)
        #expect(Push.bytes(served + "/.clip.bin.ftpsync-part") == second, "the temporary was sent whole")
        #expect(Push.bytes(served + "/clip.bin") == first, "the rename never happened")

        let next = try ftpsync(["push", configPath], environment: Self.hostileEnvironment)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(!next.stdout.contains("found complete"), "\(next.stdout)")
        #expect(Push.bytes(served + "/clip.bin") == second, "the device has the new version")
        #expect(!FileManager.default.fileExists(atPath: served + "/.clip.bin.ftpsync-part"))
    }
}

extension PushSafetyTests {
    /// Item 7: a 2.5 MB upload to a vsftpd that takes 150 KB/s, with a 3 s no-progress timeout:
    /// bytes keep moving, so nothing times out, nothing races, and the device's file is the
    /// local one byte for byte.
    @Test func aSlowDeviceGetsTheWholeFileWithinAShortTimeout() throws {
        let work = try makeTemporaryFolder("push-slow")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let content = pseudoRandomBytes(2_500_000, seed: 71)
        try writeFile(mirror + "/cam/movie.bin", content, modified: Push.minute(daysAgo: 1))
        let server = try FTPServer(.vsftpd, root: served, address: "127.0.3.3", options: ["--throttle", "150000"])
        defer { server.stop() }
        let text =
            "local: \(mirror)\ndevices:\n"
            + server.deviceYAML(name: "cam", extra: "    timeout: 3\n    retries: 2")
        let configPath = work + "/device.yaml"
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)

        let result = try ftpsync(["push", configPath, "--json"], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Push.bytes(served + "/movie.bin") == content, "the device's file must be the local one")
        #expect(server.count("STOR") == 1, "one STOR, no retry: \(server.commands())")
        #expect(server.count("APPE") == 0)
    }

    /// Item 7: a device that stores less than it acknowledges (226) and refuses SIZE: the
    /// temporary's size, read from the listing, is wrong, so it is never renamed into place.
    @Test(arguments: [("short-store", "127.0.3.4"), ("wrong-size", "127.0.3.5")])
    func aTemporaryOfTheWrongSizeIsNeverRenamedIntoPlace(mode: String, address: String) throws {
        let work = try makeTemporaryFolder("push-\(mode)")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        try writeFile(mirror + "/cam/photo.jpg", pseudoRandomBytes(100_000, seed: 72), modified: Push.minute())
        let server = try HostileServer(mode, address: address, root: served)
        defer { server.stop() }
        let configPath = try server.config(local: mirror, at: work, timeout: 5)

        let result = try ftpsync(["push", configPath, "--json"], environment: Self.hostileEnvironment)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: served + "/photo.jpg"), "never renamed into place")
        #expect(Push.actions(result.stdout).map(\.status) == ["failed"], "\(result.stdout)")
        #expect(result.stdout.contains("bytes"), "the report names the size: \(result.stdout)")
    }
}

extension PushSafetyTests {
    /// Item 7: a server whose first STOR stalls (1 s: shorter than the 2 s timeout; 3 s:
    /// longer) and then goes on writing what still arrives (a threaded server). A stall
    /// shorter than the timeout is no failure (bytes move again); after a longer one the retry
    /// waits until that STOR stopped writing (its data connection was reset) before it
    /// appends. Either way the device ends with the local file byte for byte, in one run.
    @Test(arguments: [("1", "127.0.3.6"), ("3", "127.0.3.7")])
    func aRetryNeverRacesTheStoreBeforeIt(stall: String, address: String) throws {
        let work = try makeTemporaryFolder("push-race")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let content = pseudoRandomBytes(1_000_000, seed: 73)
        try writeFile(mirror + "/cam/clip.mov", content, modified: Push.minute())
        let server = try HostileServer(
            "slow-old-store", address: address, root: served, environment: ["HOSTILE_STALL": stall])
        defer { server.stop() }
        let configPath = try server.config(local: mirror, at: work, timeout: 2, retries: 3)

        let result = try ftpsync(["push", configPath, "--json"], environment: Self.hostileEnvironment, timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Push.bytes(served + "/clip.mov") == content, "the device's file must be the local one")
    }
}

extension PushSafetyTests {
    /// Item 7: a retry's APPE that stores zeros gives a temporary of the right size and the
    /// wrong bytes. The bytes read back around the resume point differ: not renamed into
    /// place; since issue 14 item 9 the file is then sent whole in the same run and arrives
    /// intact (the wrong temporary is never renamed).
    @Test func aResumedUploadWithOtherBytesIsNeverRenamedIntoPlace() throws {
        let work = try makeTemporaryFolder("push-zero-append")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let content = pseudoRandomBytes(300_000, seed: 74)
        try writeFile(mirror + "/cam/scan.tif", content, modified: Push.minute())
        let server = try HostileServer("zero-append", address: "127.0.3.8", root: served)
        defer { server.stop() }
        let configPath = try server.config(local: mirror, at: work, timeout: 5, retries: 2)

        let first = try ftpsync(["push", configPath, "--json"], environment: Self.hostileEnvironment)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(Push.bytes(served + "/scan.tif") == content, "the wrong temporary is never renamed into place")

        let second = try ftpsync(["push", configPath, "--json"], environment: Self.hostileEnvironment)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(Push.bytes(served + "/scan.tif") == content)
    }
}

extension PushSafetyTests {
    /// Item 7: where the server offers a file hash (proftpd with mod_digest), the temporary's
    /// digest is compared with the local file's before RNTO.
    @Test func theServersHashChecksTheTemporaryWhereOffered() throws {
        let work = try makeTemporaryFolder("push-hash")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let content = pseudoRandomBytes(500_000, seed: 75)
        try writeFile(mirror + "/cam/raw.dng", content, modified: Push.minute())
        let server = try FTPServer(.proftpd, root: served, address: "127.0.3.9", options: ["--digest"])
        defer { server.stop() }
        let configPath = try Push.config(server, local: mirror, at: work)

        let result = try ftpsync(["push", configPath, "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Push.bytes(served + "/raw.dng") == content)
        let hashed = server.commands().filter { command in
            ["HASH", "XSHA256", "XSHA1", "XMD5", "XCRC"].contains { command.uppercased().hasPrefix($0 + " ") }
                && command.hasSuffix(".raw.dng.ftpsync-part")
        }
        #expect(!hashed.isEmpty, "\(server.commands())")
    }
}
