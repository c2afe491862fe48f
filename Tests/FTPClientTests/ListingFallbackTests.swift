// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import Synchronization
import Testing

@testable import FTPClient

/// When a listing goes over the control connection (`STAT`, RFC 959 §4.1.3) instead of a data
/// connection: only after two failed data connections in a row, or one when an earlier run
/// saw the server block them (`expectControlListing`); and a STAT reply that never ends fails
/// in bounded time. Addresses 127.0.30.1–9.
struct ListingFallbackTests {
    static let context = ListingContext(now: Date(timeIntervalSince1970: 1_718_452_800))

    /// A STAT reply listing `b.txt`.
    static let statReply = "213-Status of /:\r\n -rw-r--r-- 1 ftp ftp 5 May 01 10:20 b.txt\r\n213 End of status\r\n"

    /// A server whose first `failures` LIST commands answer 425 (the rest list `a.txt`), and
    /// whose STAT lists `b.txt`.
    static func server(_ address: String, failures: Int) throws -> ScriptedServer {
        let refused = Mutex(0)
        return try ScriptedServer(address: address) { peer, verb, _ in
            switch verb {
            case "LIST"
            where refused.withLock { count in
                count += 1
                return count <= failures
            }:
                peer.send("425 Can't open data connection\r\n")
            case "STAT": peer.send(Self.statReply)
            default: return false
            }
            return true
        }
    }

    static func session(_ server: ScriptedServer, log: LogLines, timeout: Double = 3) -> FTPSession {
        FTPSession(
            configuration: FTPSessionConfiguration(
                host: server.address, port: server.port, user: "tester", password: "pw", timeout: timeout),
            log: log.sink)
    }

    /// The listing commands the session sent, in order.
    static func listings(_ log: LogLines) -> [String] {
        log.lines.filter { $0.hasPrefix("> LIST") || $0.hasPrefix("> STAT") }.map { String($0.dropFirst(2)) }
    }

    /// (LIST failures, hinted, the listing commands sent, the name listed, STAT from then on).
    static let cases: [(Int, Bool, [String], String, Bool)] = [
        (1, false, ["LIST", "LIST"], "a.txt", false),
        (2, false, ["LIST", "LIST", "STAT ."], "b.txt", true),
        (1, true, ["LIST", "STAT ."], "b.txt", true),
        (0, true, ["LIST"], "a.txt", false),
    ]

    /// One refused data connection is tried again; a second switches to STAT; with the hint
    /// of an earlier run the first refusal switches at once, and a working one drops the hint.
    @Test(arguments: cases.indices)
    func aFailedDataConnectionIsConfirmedBeforeStat(index: Int) throws {
        let (failures, hinted, expected, name, switched) = Self.cases[index]
        let server = try Self.server("127.0.30.\(index + 1)", failures: failures)
        let log = LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        defer { session.quit() }
        if hinted { session.expectControlListing(because: "listing data connections fail (425 earlier)") }
        let listed = try session.list("", context: Self.context)
        #expect(listed.entries.map(\.name) == [name])
        #expect(Self.listings(log) == expected)
        #expect((session.controlListingReason != nil) == switched)
        if !switched {
            // The hint is spent: a later refusal is tried again, as on a server without one.
            _ = try session.list("", context: Self.context)
            #expect(Self.listings(log).last == "LIST")
        }
    }

    /// docs/server-quirks.md states the STAT reply's bounds the code has: lines kept up to the
    /// listing cap, a failure at twice it, and the reply's deadline in timeouts.
    @Test func theDocsStateTheStatBounds() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/server-quirks.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        let mebibytes = FTPSessionCore.maximumListingBytes >> 20
        #expect(text.contains("data listings' cap (\(mebibytes) MiB;"))
        #expect(text.contains("a reply that goes on for as much again (\(2 * mebibytes) MiB in all)"))
        #expect(FTPSessionCore.statReplyTimeouts == 10)
        #expect(text.contains("does not end within ten times the timeout"))
    }

    /// A STAT reply whose lines trickle in forever, each in time: the listing fails once the
    /// reply has taken ten times the timeout, with the reason in its error.
    @Test func aStatReplyThatNeverEndsFailsInBoundedTime() throws {
        let server = try ScriptedServer(address: "127.0.30.8") { peer, verb, _ in
            switch verb {
            case "LIST": peer.send("425 Can't open data connection\r\n")
            case "STAT":
                peer.send("213-Status of /:\r\n")
                for index in 0..<400 {
                    Thread.sleep(forTimeInterval: 0.02)
                    peer.send(" -rw-r--r-- 1 ftp ftp 5 May 01 10:20 f\(index).txt\r\n")
                }
            default: return false
            }
            return true
        }
        defer { server.stop() }
        let session = Self.session(server, log: LogLines(), timeout: 0.3)
        try session.connect()
        defer { session.quit() }
        let started = Date()
        let error = #expect(throws: FTPError.self) { try session.list("", context: Self.context) }
        let took = Date().timeIntervalSince(started)
        #expect(took < 6, "the reply took \(took) s")
        #expect("\(error.map { "\($0)" } ?? "")".contains("did not end within 3 s"), "\(String(describing: error))")
    }
}
