// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 21: an upload is resumed only when the server's hash of the bytes its temporary file
/// holds matches the local file's. A 6 MB push through a relay capped at 8 Mbit/s is cut (the
/// relay stopped: what it holds never arrives), some bytes of the temporary on the server are inverted (a server that zero-fills or
/// a disk that rots), and the next push does not append to it blindly: the file is sent from
/// byte 0 and placed byte-identical. ProFTPD with mod_digest (`XSHA256 PATH START END`),
/// addresses 127.0.62.41 to 127.0.62.46, passive ports 46400-46429.
@Suite(.serialized) struct VerifiedUploadResumeTests {
    /// Pushes until the temporary on the server holds 2 MB, cuts the link (the relay stopped:
    /// the bytes it queued never arrive, the push fails), inverts 16 bytes a quarter into the
    /// temporary, and pushes again with `verify` through a new relay.
    /// - Returns: the second push's exit status and output, the commands the server logged
    ///   during it, and whether the device's file is the local one.
    static func resumeOverDamage(verify: String, server: String, relay: String, ports: ClosedRange<Int>) throws -> (
        status: Int32, output: String, commands: [String], identical: Bool
    ) {
        let work = try makeTemporaryFolder("verify-upload-resume")
        let content = pseudoRandomBytes(6_000_000, seed: 44)
        try writeFile(work + "/mirror/cam/clip.mov", content, modified: 1_700_000_000)
        try FileManager.default.createDirectory(atPath: work + "/served", withIntermediateDirectories: true)
        let place = VerifiedTransferTests.Case(
            size: content.count, offset: 0, server: server, relay: relay, ports: ports)
        let first = try VerifiedTransferTests.link(place, root: work + "/served", fault: .none, rateMbit: 8)
        let config = try first.config(work, verify: verify)
        let temporary = work + "/served/.clip.mov.ftpsync-part"
        let child = try spawn(ftpsyncBinary, ["push", config, "--no-progress"], output: true)
        let grew = waitUntil(30) { Self.size(temporary) >= 2_000_000 }
        first.relay.cut()
        let stopped = waitForExit(child.pid, timeout: 60)
        let printed = (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? ""
        unlink(child.stdout)
        unlink(child.stderr)
        #expect(grew && stopped == 1, "exit \(stopped), temporary \(Self.size(temporary)) bytes: \(printed)")
        let link = VerifiedTransferTests.Link(
            server: first.server,
            relay: try CorruptingRelay(
                address: relay, target: server, port: first.server.port, passivePorts: ports, fault: .none))
        defer { link.stop() }
        let held = Self.size(temporary)
        #expect(held >= 2_000_000 && held < content.count)
        try Self.invert(temporary, at: held / 4)
        let earlier = link.server.commands().count
        let run = try ftpsync(["push", config, "--no-progress"])
        let commands = Array(link.server.commands().dropFirst(earlier))
        let placed = FileManager.default.contents(atPath: work + "/served/clip.mov").map { [UInt8]($0) }
        return (run.status, run.stdout + run.stderr, commands, placed == content)
    }

    /// The server's hash of the temporary's bytes differs from the local file's: sent whole,
    /// no APPE nor REST, placed byte-identical.
    @Test func aDamagedTemporaryIsNotAppendedTo() throws {
        let second = try Self.resumeOverDamage(
            verify: "auto", server: "127.0.62.41", relay: "127.0.62.42", ports: 46_400...46_409)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.identical, "\(second.commands)")
        let resumed = second.commands.filter { $0.uppercased().hasPrefix("APPE") || $0.uppercased().hasPrefix("REST") }
        #expect(resumed.isEmpty, "\(second.commands)")
        #expect(second.commands.contains { $0.uppercased().hasPrefix("XSHA256") }, "\(second.commands)")
    }

    /// The control: with `verify: off` the damaged temporary is appended to (APPE or REST), so
    /// the test above can fail; the check before RNTO (sampled bytes) may still catch it.
    @Test func withoutVerifyTheTemporaryIsResumed() throws {
        let second = try Self.resumeOverDamage(
            verify: "off", server: "127.0.62.43", relay: "127.0.62.44", ports: 46_410...46_419)
        let resumed = second.commands.filter { $0.uppercased().hasPrefix("APPE") || $0.uppercased().hasPrefix("REST") }
        #expect(!resumed.isEmpty, "\(second.commands)")
    }

    static func size(_ path: String) -> Int {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Inverts 16 bytes of the file at `path` from `offset`.
    static func invert(_ path: String, at offset: Int) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let bytes = try handle.read(upToCount: 16) ?? Data()
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data(bytes.map { $0 ^ 0xFF }))
    }

    /// A file written a few seconds ago, damaged on its way up: sent again and placed. ProFTPD's
    /// mod_digest keeps a session's digests by path and time (for 30 s after that time), and
    /// the copy sent again has the same name and time: asked in the same session, the server
    /// gave the damaged copy's digest three times and the push failed with the right bytes on
    /// the device. The copy sent again is checked over a fresh session.
    @Test func aRecentFileDamagedOnTheWayIsSentAgain() throws {
        let work = try makeTemporaryFolder("verify-recent-upload")
        let content = pseudoRandomBytes(300_000, seed: 46)
        try writeFile(work + "/mirror/cam/clip.mov", content, modified: Date().timeIntervalSince1970 - 3)
        try FileManager.default.createDirectory(atPath: work + "/served", withIntermediateDirectories: true)
        let place = VerifiedTransferTests.Case(
            size: content.count, offset: 100_000, server: "127.0.62.45", relay: "127.0.62.46", ports: 46_420...46_429)
        let link = try VerifiedTransferTests.link(place, root: work + "/served", fault: .upload(at: place.offset))
        defer { link.stop() }
        let run = try ftpsync(["push", try link.config(work, verify: "auto"), "--no-progress"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let placed = FileManager.default.contents(atPath: work + "/served/clip.mov").map { [UInt8]($0) } == content
        #expect(placed, "the device's file is not the local one")
        #expect(VerifiedTransferTests.uploads(link.server) == 2, "\(link.server.commands())")
    }
}
