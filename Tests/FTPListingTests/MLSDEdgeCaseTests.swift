// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// MLSD/MLST edge cases of issue 3 beyond the cases file, and the time-val and name helpers.
struct MLSDEdgeCaseTests {
    static let context = ListingContext(now: Date(timeIntervalSince1970: 1_718_452_800))

    struct Row: Sendable, CustomTestStringConvertible {
        var note: String
        var line: String
        var name: String
        var type: EntryType
        var size: UInt64?
        var modified: Double?
        var owner: String? = nil
        var target: String? = nil
        var testDescription: String { note }
    }

    static let rows: [Row] = [
        Row(
            note: "malformed facts cost only themselves",
            line: "type=file;size=abc;modify=2024xx;;=v;noequals;perm=r; kept.txt", name: "kept.txt", type: .file,
            size: nil, modified: nil),
        Row(
            note: "fact names and type values are case-insensitive",
            line: "TYPE=FILE;SIZE=3;MODIFY=20240101000000; upper", name: "upper", type: .file, size: 3,
            modified: 1_704_067_200),
        Row(
            note: "a leading space that belongs to the name is kept", line: "type=file;size=1;  lead", name: " lead",
            type: .file, size: 1, modified: nil),
        Row(
            note: "fact value with a space: split at the first '; '",
            line: "type=file;UNIX.ownername=John Smith;size=5; my file", name: "my file", type: .file, size: 5,
            modified: nil, owner: "John Smith"),
        Row(
            note: "pure-ftpd slink with an empty target", line: "type=OS.unix=slink:;size=14; dangling",
            name: "dangling",
            type: .link, size: nil, modified: nil),
        Row(
            note: "unknown type value", line: "type=OS.unix=blkdev;modify=20240101000000; sda", name: "sda",
            type: .other, size: nil, modified: 1_704_067_200),
        Row(
            note: "links never carry a size, even when listed (proftpd)",
            line: "type=OS.unix=symlink;size=17;modify=20240101000000; l", name: "l", type: .link, size: nil,
            modified: 1_704_067_200),
    ]

    @Test(arguments: rows)
    func mlsdLine(_ row: Row) {
        let result = ListingParser.parseLine(Array(row.line.utf8), format: .mlsd, context: Self.context)
        guard case .entry(let entry) = result else {
            Issue.record("not an entry: \(result)")
            return
        }
        #expect(entry.name == row.name)
        #expect(entry.type == row.type)
        #expect(entry.size == row.size)
        #expect(entry.modified?.date.timeIntervalSince1970 == row.modified)
        #expect(entry.target == row.target)
        if let owner = row.owner { #expect(entry.owner == owner) }
    }

    @Test(arguments: ["type=file;size=1; a/b", "type=file;size=1; ../up", "noequals here", "type=file;size=1;"])
    func mlsdRejects(_ line: String) {
        let result = ListingParser.parseLine(Array(line.utf8), format: .mlsd, context: Self.context)
        guard case .rejected = result else {
            Issue.record("not rejected: \(result)")
            return
        }
    }

    @Test func mlstWithoutFramingAndWithCDir() throws {
        let bare = ListingParser.parseMLSTReply(" type=cdir;modify=20240101000000; /pub\r\n", context: Self.context)
        #expect(bare?.name == "/pub" && bare?.type == .dir)
        #expect(ListingParser.parseMLSTReply("250-Begin\r\n250 End\r\n", context: Self.context) == nil)
        #expect(ListingParser.parseMLSTReply("501 Not a valid pathname.\r\n", context: Self.context) == nil)
    }

    @Test(arguments: [
        ("20240303130712", 1_709_471_232.0, TimePrecision.second),
        ("20240303130712.250", 1_709_471_232.25, .subsecond),
        ("191000315083000", 953_109_000.0, .second),
    ])
    func timeVal(_ text: String, _ seconds: Double, _ precision: TimePrecision) throws {
        let time = try #require(ListingParser.parseTimeVal(text))
        #expect(abs(time.date.timeIntervalSince1970 - seconds) < 0.0005)
        #expect(time.precision == precision)
    }

    @Test(arguments: ["2024030313071", "20241303130712", "20240230130712", "20240303250712", "20240303130712.", "x"])
    func badTimeVal(_ text: String) {
        #expect(ListingParser.parseTimeVal(text) == nil)
    }

    /// A decoder that fails falls back to reversible UTF-8; a renamed entry keeps its raw bytes.
    @Test func decoderFallbackAndRawNameStability() throws {
        let context = ListingContext(now: Date(timeIntervalSince1970: 1_718_452_800), decodeName: { _ in nil })
        var line: [UInt8] = Array("-rw-r--r-- 1 a b 1 Jan  1  2020 caf".utf8)
        line += [0xE9, 0xFF]
        guard case .entry(var entry) = ListingParser.parseLine(line, format: .list, context: context) else {
            Issue.record("no entry")
            return
        }
        let raw = Array(line.suffix(5))
        #expect(entry.rawName == raw)
        #expect(entry.name == "caf\u{F7E9}\u{F7FF}")
        #expect(ListingNameCodec.originalBytes(of: entry.name) == raw)
        entry.name = "café"
        #expect(entry.rawName == raw)

        var plain = ListingEntry(name: "a.txt", type: .file)
        #expect(plain.rawName == Array("a.txt".utf8))
        plain.name = "b.txt"
        #expect(plain.rawName == Array("a.txt".utf8))
        #expect(ListingEntry(name: "x", rawName: Array("x".utf8), type: .file) == ListingEntry(name: "x", type: .file))
    }

    @Test(arguments: [
        [0x61, 0xC3, 0xA9], [0xC3], [0xE2, 0x82], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    ])
    func codecRoundTrip(_ bytes: [UInt8]) {
        let name = ListingNameCodec.decodeUTF8Reversibly(bytes)
        #expect(!name.contains("\u{FFFD}"))
        #expect(ListingNameCodec.originalBytes(of: name) == bytes)
    }
}
