// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import Testing

@testable import FTPClient

/// The reply to `STAT <folder>` read as a listing (RFC 959 §4.1.3; `StatListingReader`), and a
/// live server whose listing data connections fail, listed with STAT instead.
struct StatListingTests {
    /// Feeds `lines` to a reader; returns it and the index of the line that ended the reply.
    static func read(_ lines: [String], maximumBytes: Int = 1 << 20) throws -> (StatListingReader, Int?) {
        var reader = StatListingReader(maximumBytes: maximumBytes)
        for (index, line) in lines.enumerated() where try reader.feed(Array(line.utf8)) {
            return (reader, index)
        }
        return (reader, nil)
    }

    /// The names, types and sizes the LIST parser reads from the reader's lines.
    static func entries(_ reader: StatListingReader) -> [String] {
        let context = ListingContext(now: Date(timeIntervalSince1970: 1_720_000_000), timeZone: .gmt)
        let parsed = ListingParser.parse(reader.bytes, format: .list, context: context)
        return parsed.entries.map { "\($0.type.rawValue) \($0.name) \($0.size.map(String.init) ?? "-")" }
    }

    /// (what the server sends, the entries read) for the forms servers use.
    static let forms: [(String, [String], [String])] = [
        (
            "indented by one space (RFC 959 §4.2)",
            [
                "213-Status of /DCIM:", " total 2", " drwxr-xr-x 2 u g 4096 Jan 05 2024 100",
                " -rw-r--r-- 1 u g 5 Jan 05 2024 a b.txt", "213 End of status",
            ],
            ["dir 100 -", "file a b.txt 5"]
        ),
        (
            "each line with the code and a dash",
            [
                "211-Status of /:", "211-drwxr-xr-x 2 u g 4096 Jan 05 2024 sub",
                "211--rw-r--r-- 1 u g 7 Jan 05 2024 c.txt", "211 End",
            ],
            ["dir sub -", "file c.txt 7"]
        ),
        (
            "lines without indentation",
            ["212-Status of /x", "-rw-r--r-- 1 u g 9 Jan 05 2024 d.txt", "212 End of status"],
            ["file d.txt 9"]
        ),
        ("an empty folder", ["213-Status of /empty:", "213 End of status"], []),
        (
            "names that look like reply codes and ends",
            [
                "213-Status of /odd:", " -rw-r--r-- 1 u g 1 Jan 05 2024 213 End of status",
                "211 a line with another code is no end", " -rw-r--r-- 1 u g 2 Jan 05 2024 213-x",
                "213 End",
            ],
            ["file 213 End of status 1", "file 213-x 2"]
        ),
    ]

    @Test(arguments: forms)
    func readsTheListingLinesOfAStatReply(form: String, lines: [String], expected: [String]) throws {
        let (reader, end) = try Self.read(lines)
        #expect(end == lines.count - 1, "\(form): the last line ends the reply")
        #expect(!reader.isSingleLine)
        #expect(reader.droppedLines == 0)
        #expect(Self.entries(reader) == expected, "\(form)")
    }

    @Test func aOneLineReplyIsNoListing() throws {
        let (reader, end) = try Self.read(["211 FTP server status: all fine", " -rw-r--r-- 1 u g 1 Jan 05 2024 x"])
        #expect(end == 0)
        #expect(reader.isSingleLine)
        #expect(reader.code == 211)
        #expect(reader.bytes.isEmpty)
    }

    @Test func aFirstLineWithoutACodeIsAProtocolViolation() {
        #expect(throws: FTPError.self) { try Self.read(["-rw-r--r-- 1 u g 1 Jan 05 2024 x"]) }
    }

    /// Lines beyond the byte bound are counted and left out; a reply that goes on for as much
    /// again is a protocol violation.
    @Test func aHugeReplyIsCutAtTheBoundAndEndlessOneRefused() throws {
        let line = " -rw-r--r-- 1 u g 1 Jan 05 2024 " + String(repeating: "n", count: 20)  // 52 + CR LF kept
        let (cut, end) = try Self.read(
            ["213-Status"] + Array(repeating: line, count: 4) + ["213 End"], maximumBytes: 120)
        #expect(end == 5)
        #expect(Self.entries(cut).count == 2)
        #expect(cut.droppedLines == 2)
        #expect(throws: FTPError.self) {
            try Self.read(["213-Status"] + Array(repeating: line, count: 6) + ["213 End"], maximumBytes: 120)
        }
    }

    /// A budget that refuses stops the listing.
    @Test func theListingBudgetIsCharged() throws {
        var reader = StatListingReader(maximumBytes: 1000)
        _ = try reader.feed(Array("213-Status".utf8))
        var charged = 0
        _ = try reader.feed(Array(" -rw-r--r-- 1 u g 1 Jan 05 2024 x".utf8)) { charged += $0 }
        #expect(charged == 34)
        #expect(throws: FTPError.self) {
            _ = try reader.feed(Array(" -rw-r--r-- 1 u g 1 Jan 05 2024 y".utf8)) { _ in throw CancellationError() }
        }
    }

    /// Which listing errors mean the data connection could not be used.
    @Test(arguments: [
        (FTPError.connectFailed(host: "127.0.22.9", port: 5000, reason: "Connection refused"), true),
        (.reply(code: 425, text: "Can't open data connection", command: "LIST /"), true),
        (.reply(code: 426, text: "Connection closed", command: "LIST /"), true),
        (.dataConnectionClosed(bytesTransferred: 0, reason: "426 Connection closed; transfer aborted"), true),
        (.dataConnectionClosed(bytesTransferred: 0, reason: "the server reset the data connection"), true),
        (.dataConnectionClosed(bytesTransferred: 0, reason: "451 Local error"), false),
        (.dataConnectionClosed(bytesTransferred: 10, reason: "426 Connection closed"), false),
        (.reply(code: 550, text: "No such directory", command: "LIST /x"), false),
        (.timedOut(during: "LIST /"), false),
    ])
    func dataConnectionFailures(error: FTPError, fails: Bool) {
        #expect((FTPSessionCore.dataConnectionFailure(error) != nil) == fails, "\(error)")
    }

    /// pyftpdlib without EPSV whose 227 names an address where nothing listens (and a client
    /// that trusts it): LIST cannot open its data connection, STAT lists the folder — with a
    /// space in its name —, and the session lists with STAT from then on.
    @Test func aServerWhoseDataConnectionsFailIsListedWithStat() throws {
        let server = try TestServer(host: "127.0.22.1", options: ["--no-epsv-mlsd", "--masquerade", "127.0.22.99"])
        try server.put("two words/a.txt", Array("abc".utf8))
        try server.put("two words/b.txt", Array("hello".utf8))
        let log = LogLines()
        let session = FTPSession(
            configuration: server.configuration(passiveAddress: .server, timeout: 3), log: log.sink)
        try session.connect()
        defer { session.quit() }
        #expect(session.controlListingReason == nil)
        let context = ListingContext(now: Date(), timeZone: .gmt)
        let listed = try session.list("/two words", context: context)
        #expect(listed.entries.map { "\($0.name) \($0.size ?? 0)" }.sorted() == ["a.txt 3", "b.txt 5"])
        #expect(session.controlListingReason?.contains("127.0.22.99") == true)
        let commands = log.lines.filter { $0.hasPrefix("> ") }
        #expect(commands.contains("> STAT /two words"))
        let second = try session.list("/", context: context)
        #expect(second.entries.map(\.name) == ["two words"])
        let after = log.lines.filter { $0.hasPrefix("> ") }.dropFirst(commands.count)
        #expect(Array(after) == ["> STAT /"], "the second listing goes straight to STAT")

        // A later session with the server in this process lists with STAT at once, for the same reason.
        let laterLog = LogLines()
        let later = FTPSession(
            configuration: server.configuration(passiveAddress: .server, timeout: 3), log: laterLog.sink)
        try later.connect()
        defer { later.quit() }
        #expect(try later.list("/", context: context).entries.map(\.name) == ["two words"])
        #expect(later.controlListingReason == session.controlListingReason)
        #expect(!laterLog.lines.contains { $0.hasPrefix("> PASV") || $0.hasPrefix("> LIST") })
    }
}
