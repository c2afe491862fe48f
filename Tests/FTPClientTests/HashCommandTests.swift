// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPClient

/// Issue 21: how a session asks for digests. `OPTS HASH` probes a server whose FEAT names no
/// hash command; ranges go to `XSHA256 PATH START END`, else `RANG` + `HASH` (whose whole-file
/// answer is not taken, the range reset); a small file's digest is asked behind its transfer.
/// `ScriptedServer`s on 127.0.64.1–7.
@Suite struct HashCommandTests {
    static let sha256OfFirstFile = "5b8ee4ed8a1bc72cb9f6b1be3e4d2c1ab0d22e1c0a6aeb4e1ce8d8bd3d0f6dd5"

    static func session(_ server: ScriptedServer, log: OddReplyTests.LogLines, probes: Bool = true) -> FTPSession {
        var configuration = FTPSessionConfiguration(
            host: server.address, port: server.port, user: "tester", password: "pw", timeout: 2)
        configuration.probesHash = probes
        return FTPSession(configuration: configuration, log: { log.add($0) })
    }

    /// The commands a session sent (as logged, "> X").
    static func sent(_ log: OddReplyTests.LogLines) -> [String] {
        log.all.filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
    }

    /// A server whose FEAT is `features` (lines without the leading space).
    static func server(
        _ address: String, features: [String], script: @escaping @Sendable (ScriptedPeer, String, String) -> Bool
    )
        throws -> ScriptedServer
    {
        try ScriptedServer(address: address) { peer, verb, argument in
            if verb == "FEAT" {
                peer.send("211-Features:\r\n" + features.map { " \($0)\r\n" }.joined() + "211 End\r\n")
                return true
            }
            return script(peer, verb, argument)
        }
    }

    /// FEAT names no hash command, `OPTS HASH` answers `200 SHA-256`: HASH is used; a server
    /// that answers `OPTS HASH` otherwise (`200 OK`, `500`) has none, and a session told not to
    /// probe asks nothing.
    @Test func aSilentFEATIsProbedOnce() throws {
        let withHash = try Self.server("127.0.64.1", features: ["MDTM", "SIZE"]) { peer, verb, argument in
            guard verb == "OPTS", argument.uppercased().hasPrefix("HASH") else { return false }
            peer.send("200 SHA-256\r\n")
            return true
        }
        defer { withHash.stop() }
        let log = OddReplyTests.LogLines()
        let session = Self.session(withHash, log: log)
        try session.connect()
        #expect(try session.fileHashAlgorithm() == .sha256)
        #expect(try session.fileHashAlgorithm() == .sha256)
        #expect(session.hashProbe == "HASH SHA-256")
        #expect(Self.sent(log).filter { $0.hasPrefix("OPTS HASH") } == ["OPTS HASH"], "\(Self.sent(log))")

        let plain = try ScriptedServer(address: "127.0.64.2")  // answers OPTS with "200 OK"
        defer { plain.stop() }
        let plainLog = OddReplyTests.LogLines()
        let without = Self.session(plain, log: plainLog)
        try without.connect()
        #expect(try without.fileHashAlgorithm() == nil)
        #expect(without.hashProbe?.hasPrefix("none") == true)

        let quietLog = OddReplyTests.LogLines()
        let quiet = Self.session(plain, log: quietLog, probes: false)
        try quiet.connect()
        #expect(try quiet.fileHashAlgorithm() == nil)
        #expect(!Self.sent(quietLog).contains { $0.hasPrefix("OPTS HASH") })
    }

    /// What an earlier run's probe found is taken without asking again.
    @Test func aRememberedProbeIsNotAskedAgain() throws {
        let server = try Self.server("127.0.64.3", features: ["MDTM"]) { _, _, _ in false }
        defer { server.stop() }
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        session.rememberHashProbe("HASH SHA-1")
        try session.connect()
        #expect(try session.fileHashAlgorithm() == .sha1)
        #expect(!Self.sent(log).contains { $0.hasPrefix("OPTS HASH") })
    }

    /// A range goes to the older command with START and END (the byte after it).
    @Test func aRangeIsAskedOfXSHA256() throws {
        let server = try Self.server("127.0.64.4", features: ["XSHA256"]) { peer, verb, argument in
            guard verb == "XSHA256" else { return false }
            peer.send(argument == "a.txt 0 5" ? "250 \(Self.sha256OfFirstFile.uppercased())\r\n" : "501 Bad\r\n")
            return true
        }
        defer { server.stop() }
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        let hash = try session.serverHash("a.txt", range: 0..<5)
        #expect(hash?.algorithm == .sha256 && hash?.digest.count == 32)
        #expect(try session.serverHash("a b.txt", range: 0..<5) == nil)  // a space: not for XSHA256
    }

    /// ProFTPD's HASH ignores RANG and answers for the whole file: that digest is not taken for
    /// the range, the range is reset (`RANG 1 0`) so it cannot reach a transfer, and ranges are
    /// not asked again in the session.
    @Test func aHASHThatIgnoresRANGIsNotTakenForTheRange() throws {
        let server = try Self.server("127.0.64.5", features: ["HASH SHA-256*", "RANG STREAM"]) { peer, verb, argument in
            switch verb {
            case "RANG":
                peer.send(argument == "1 0" ? "350 Reset\r\n" : "350 Transferring range\r\n")
            case "HASH":
                peer.send("213-Computing SHA-256 digest\r\n213 SHA-256 0-11 \(Self.sha256OfFirstFile) a.txt\r\n")
            default: return false
            }
            return true
        }
        defer { server.stop() }
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        #expect(try session.serverHash("a.txt", range: 0..<5) == nil)
        #expect(Self.sent(log).suffix(3) == ["RANG 0 4", "HASH a.txt", "RANG 1 0"], "\(Self.sent(log))")
        let count = Self.sent(log).count
        #expect(try session.serverHash("a.txt", range: 0..<5) == nil)
        #expect(Self.sent(log).count == count)
        #expect(try session.serverHash("a.txt", size: 11)?.algorithm == .sha256)
    }

    /// Once the session decided how it asks for digests, a small file's HASH goes out behind its
    /// download, before the final reply is read, and `serverHash` then sends nothing.
    @Test func theDigestIsAskedBehindTheTransfer() throws {
        let server = try Self.server("127.0.64.6", features: ["HASH SHA-256*", "EPSV", "SIZE"]) { peer, verb, _ in
            guard verb == "HASH" else { return false }
            peer.send("213 SHA-256 0-11 \(Self.sha256OfFirstFile) a.txt\r\n")
            return true
        }
        defer { server.stop() }
        let log = OddReplyTests.LogLines()
        let session = try PipelineTests.provenSession(server, log: log)
        #expect(try session.fileHashAlgorithm() == .sha256)
        var followUp = TransferFollowUp()
        followUp.hashAfter = true
        session.announce(followUp)
        let mark = log.all.count
        _ = try OddReplyTests.download(session, "a.txt")
        let lines = PipelineTests.dialogue(log, from: mark)
        let hashSent = lines.firstIndex(of: "> HASH a.txt")
        let final = lines.firstIndex { $0.hasPrefix("< 226") }
        #expect(hashSent != nil && final != nil && hashSent! < final!, "\(lines)")
        let before = Self.sent(log).count
        #expect(try session.serverHash("a.txt", size: 11)?.algorithm == .sha256)
        #expect(Self.sent(log).count == before)
    }

    /// A device hashes a large file from its own storage for longer than the timeout (2 s):
    /// the digest of a 20 MB file is waited for beyond it (2 s more at 10 MB/s), not given up.
    @Test func aLargeFilesDigestIsWaitedForBeyondTheTimeout() throws {
        let server = try Self.server("127.0.64.7", features: ["HASH SHA-256*"]) { peer, verb, _ in
            guard verb == "HASH" else { return false }
            Thread.sleep(forTimeInterval: 3)
            peer.send("213 SHA-256 0-20000000 \(Self.sha256OfFirstFile) big.bin\r\n")
            return true
        }
        defer { server.stop() }
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        #expect(try session.serverHash("big.bin", size: 20_000_000)?.algorithm == .sha256)
    }
}
