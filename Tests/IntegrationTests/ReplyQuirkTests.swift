// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Servers that break the dialogue and must still reach a sync (issue 14 item 11): one reply
/// too many after every download, and a FEAT reply that never ends (endless lines, or silence).
/// Addresses 127.0.11.20–29.
@Suite(.serialized) struct ReplyQuirkTests {
    static let environment = ["HOSTILE_PASS": "pw"]

    /// Every RETR is answered with "226" twice: the stray reply is skipped, on the same
    /// connection, and the sync completes even with no retries at all.
    @Test func aStrayReplyAfterEveryDownloadIsSkipped() throws {
        let work = try makeTemporaryFolder("stray-every")
        let server = try HostileServer("extra-reply-all", address: "127.0.11.20")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work, timeout: 2, retries: 0)
        let pulled = try ftpsync(["pull", config, "-v"], environment: Self.environment, timeout: 60)
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        for (name, content) in [("a.txt", "first\n"), ("b.txt", "second\n"), ("c.txt", "third\n")] {
            let bytes = FileManager.default.contents(atPath: work + "/mirror/cam/" + name)
            #expect(bytes.map { String(decoding: $0, as: UTF8.self) } == content, "\(name)")
        }
        #expect(pulled.stderr.contains("skipping reply 226: it answers an earlier command"), "\(pulled.stderr)")
        // No connection was given up for it: at most the device's two connections logged in.
        let logins = pulled.stderr.components(separatedBy: "> USER ").count - 1
        #expect(logins <= 2, "\(pulled.stderr)")
    }

    /// FEAT that never ends (endless lines, or one line and then silence) is cut off within
    /// its bounds and treated as absent, with a note; the run syncs over LIST.
    @Test(arguments: [("feat-endless", "127.0.11.21"), ("feat-hang", "127.0.11.22")])
    func aFeatReplyThatNeverEndsIsTreatedAsAbsent(mode: String, address: String) throws {
        let work = try makeTemporaryFolder(mode)
        let server = try HostileServer(mode, address: address)
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work, timeout: 2, retries: 1)
        let started = Date()
        let pulled = try ftpsync(["pull", config], environment: Self.environment, timeout: 60)
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(pulled.stdout.contains("the server's FEAT reply did not end"), "\(pulled.stdout)")
        let good = FileManager.default.contents(atPath: work + "/mirror/cam/good.txt")
        #expect(good.map { String(decoding: $0, as: UTF8.self) } == "good content\n")
        let second = FileManager.default.contents(atPath: work + "/mirror/cam/sub/good2.txt")
        #expect(second.map { String(decoding: $0, as: UTF8.self) } == "second good file\n")
        // Waited for FEAT once, not on every connection.
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
