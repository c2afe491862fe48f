// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 14 item 6: a first push to a fresh device makes the configured remote folder (and
/// its parents, walking from `/`); the dry run shows those MKDs and changes nothing.
@Suite(.serialized) struct PushRemoteRootTests {
    static let servers: [(FTPServer.Kind, String)] = [(.pyftpdlib, "127.0.8.1"), (.vsftpd, "127.0.8.2")]

    @Test(arguments: servers)
    func firstPushMakesTheMissingRemoteRoot(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("push-root-\(kind.rawValue)")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        try writeFile(mirror + "/cam/a.txt", Array("alpha\n".utf8), modified: Push.minute())
        try writeFile(mirror + "/cam/sub/b.txt", Array("beta\n".utf8), modified: Push.minute())
        let server = try FTPServer(kind, root: served, address: address)
        defer { server.stop() }
        let text = "local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam", remote: "/new/deep/root")
        let config = work + "/device.yaml"
        try text.write(toFile: config, atomically: true, encoding: .utf8)

        let dry = try ftpsync(["push", config, "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        let planned = Push.actions(dry.stdout)
        let rootParts = planned.filter { $0.kind == "mkdir_remote" && $0.path.hasPrefix("/") }.map(\.path)
        #expect(rootParts == ["/new", "/new/deep", "/new/deep/root"], "\(dry.stdout)")
        #expect(planned.contains { $0.kind == "upload" && $0.path == "sub/b.txt" })
        for verb in Push.changing { #expect(server.count(verb) == 0, "\(verb) in a dry run") }
        #expect(!FileManager.default.fileExists(atPath: served + "/new"))

        let first = try ftpsync(["push", config, "--json"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(Push.bytes(served + "/new/deep/root/a.txt") == Array("alpha\n".utf8))
        #expect(Push.bytes(served + "/new/deep/root/sub/b.txt") == Array("beta\n".utf8))
        #expect(Push.deviceStatus(first.stdout) == "ok")

        // Converged: nothing more to do, and no MKD of the root again.
        let mkds = server.count("MKD")
        let second = try ftpsync(["push", config, "--json"])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(Push.actions(second.stdout).isEmpty, "\(second.stdout)")
        #expect(server.count("MKD") == mkds)
    }
}
