// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Run caps on a push (issue 19), with the built binary against vsftpd and pyftpdlib: what a
/// cap leaves is sent by the next push, an upload cut at the grace is continued. Addresses
/// 127.0.54.7 and 127.0.54.8.
@Suite(.serialized) struct RunCapPushTests: RunCapLab {
    /// A push under `--max-transfer`: two uploads of 100,000 bytes (the second crosses the
    /// cap), nothing of the other two on the server, not even a temporary; the next push sends
    /// them.
    @Test func aPushWithACapLeavesTheRestForTheNextRun() throws {
        let work = try makeTemporaryFolder("cap-push")
        let served = work + "/served"
        let mirror = work + "/mirror"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        try writeTree(
            Self.names.prefix(4).map { SampleFile(path: $0, content: Self.content($0), modified: modified) },
            at: mirror + "/cam")
        let server = try FTPServer(.vsftpd, root: served, address: "127.0.54.7")
        defer { server.stop() }
        let path = try config([server.deviceYAML(name: "cam")], mirror: mirror, at: work)
        let options = ["--parallel", "1", "--order", "name", "--no-progress", "--json"]

        let first = try ftpsync(["push", path, "--max-transfer", "150k"] + options)
        #expect(first.status == 5, "\(first.stdout)\(first.stderr)")
        let device = try #require(devices(try document(first)).first)
        #expect(device["status"] as? String == "stopped")
        #expect((device["left"] as? [String: Any])?["files"] as? Int == 2)
        let onServer = (try? FileManager.default.contentsOfDirectory(atPath: served))?.sorted() ?? []
        #expect(onServer == ["a.bin", "b.bin"], "\(onServer)")

        let rest = try ftpsync(["push", path] + options)
        #expect(rest.status == 0, "\(rest.stdout)\(rest.stderr)")
        for name in Self.names.prefix(4) { #expect(Push.bytes(served + "/" + name) == Self.content(name)) }
    }

    /// An upload throttled to 150 kB/s under `--max-duration 2s` is cut after the grace; its
    /// temporary stays on the server and the next push continues it (APPE or REST + STOR)
    /// instead of sending it again from byte 0. When the local file was replaced meanwhile by
    /// one of the same size and time, the continued temporary fails its check and the file is
    /// sent whole, and the report says it began at byte 0.
    @Test(arguments: [false, true]) func anUploadCutAfterTheGraceIsContinuedByTheNextPush(replaced: Bool) throws {
        let work = try makeTemporaryFolder("cap-push-cut")
        let served = work + "/served"
        let mirror = work + "/mirror"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let modified = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        // Larger than what the socket buffers of both sides hold at this rate.
        let big = pseudoRandomBytes(6_000_000, seed: 55)
        try writeTree([SampleFile(path: "clip.bin", content: big, modified: modified)], at: mirror + "/cam")
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.54.8", options: ["--throttle", "150000"])
        defer { server.stop() }
        let path = try config([server.deviceYAML(name: "cam")], mirror: mirror, at: work)
        let options = ["--parallel", "1", "--no-progress", "--json"]

        let first = try ftpsync(["push", path, "--max-duration", "2s"] + options)
        #expect(first.status == 5, "\(first.stdout)\(first.stderr)")
        let device = try #require(devices(try document(first)).first)
        #expect((device["left"] as? [String: Any])?["cut"] as? Int == 1, "\(first.stdout)")
        let onServer = (try? FileManager.default.contentsOfDirectory(atPath: served)) ?? []
        #expect(!onServer.contains("clip.bin"), "\(onServer)")
        let temporary = try #require(onServer.first, "\(onServer)")
        let kept = ((try? FileManager.default.attributesOfItem(atPath: served + "/" + temporary))?[.size] as? Int) ?? 0
        #expect(kept > 500_000 && kept < big.count, "\(kept)")

        let other = replaced ? pseudoRandomBytes(big.count, seed: 56) : big
        if replaced {
            try writeTree([SampleFile(path: "clip.bin", content: other, modified: modified)], at: mirror + "/cam")
        }
        let next = try ftpsync(["push", path] + options)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        let resumed = devices(try document(next)).first?["actions"] as? [[String: Any]] ?? []
        let offset = resumed.first?["offset"] as? Int ?? -1
        #expect(replaced ? offset == 0 : offset > 0, "\(resumed)")
        // What it moved: the whole file when the resume could not be used.
        let bytes = resumed.first?["bytes"] as? Int ?? -1
        #expect(replaced ? bytes == big.count : bytes == big.count - offset, "\(resumed)")
        let commands = server.commands().map { $0.uppercased() }
        #expect(commands.contains { $0.hasPrefix("APPE ") || ($0.hasPrefix("REST ") && $0 != "REST 0") }, "\(commands)")
        let same = Push.bytes(served + "/clip.bin") == other
        #expect(same)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: served)) == ["clip.bin"])
    }
}
