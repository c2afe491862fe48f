// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import Testing

@testable import FTPListing

/// LIST lines whose dates and names are in the server's legacy charset: the line is decoded
/// with the device's encoding before it is tokenised, `rawName` keeps the name's exact bytes.
struct LegacyCharsetListingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var note: String
        var encoding: String
        /// The line, non-ASCII bytes as `\xNN`.
        var line: String
        var name: String
        var raw: String
        var type: EntryType = .file
        var size: UInt64? = nil
        var modified: String
        var target: String? = nil
        var testDescription: String { note }
    }

    static let rows: [Row] = [
        Row(
            note: "GBK month/day/year signs and GBK name", encoding: "gbk",
            line: "-rw-r--r--   1 li  dev   1234 5\\xd4\\xc2 12\\xc8\\xd5 2024\\xc4\\xea \\xb1\\xa8\\xb8\\xe6.txt",
            name: "报告.txt", raw: "\\xb1\\xa8\\xb8\\xe6.txt", size: 1234, modified: "2024-05-12"),
        Row(
            note: "GBK month sign with a time", encoding: "gbk",
            line: "drwxr-xr-x   2 li  dev   4096 5\\xd4\\xc2 12 10:20 \\xb1\\xa8\\xb8\\xe6",
            name: "报告", raw: "\\xb1\\xa8\\xb8\\xe6", type: .dir, modified: "2024-05-12T10:20"),
        Row(
            note: "Shift_JIS 月 日 年, 年 ends in the byte 'N'", encoding: "shift_jis",
            line: "-rw-r--r--   1 root  sys   8473  4\\x8c\\x8e 18\\x93\\xfa 2003\\x94\\x4e \\x94\\x4e\\x8e\\x9f.txt",
            name: "年次.txt", raw: "\\x94\\x4e\\x8e\\x9f.txt", size: 8473, modified: "2003-04-18"),
        Row(
            note: "Shift_JIS name whose trail bytes are '@' and '\\'", encoding: "shift_jis",
            line: "-rw-r--r--   1 root  sys   77 4\\x8c\\x8e 18\\x93\\xfa 09:30 \\x8b\\x40\\x94\\x5c",
            name: "機能", raw: "\\x8b\\x40\\x94\\x5c", size: 77, modified: "2024-04-18T09:30"),
        Row(
            note: "GBK date, name bytes invalid in GBK stay reversible", encoding: "gbk",
            line: "-rw-r--r--   1 li  dev   5 5\\xd4\\xc2 12\\xc8\\xd5 2024\\xc4\\xea a\\xff\\xfe.bin",
            name: "a\u{F7FF}\u{F7FE}.bin", raw: "a\\xff\\xfe.bin", size: 5, modified: "2024-05-12"),
        Row(
            note: "GBK link target taken from the original bytes", encoding: "gbk",
            line:
                "lrwxrwxrwx   1 li  dev   4 5\\xd4\\xc2 12\\xc8\\xd5 2024\\xc4\\xea \\xb1\\xa8\\xb8\\xe6 -> \\xd9\\x59\\xc1\\xcf",
            name: "报告", raw: "\\xb1\\xa8\\xb8\\xe6", type: .link, modified: "2024-05-12", target: "資料"),
        Row(
            note: "GBK compact date YYYY年M月D日", encoding: "gbk",
            line: "-rw-r--r-- 1 u g 5 2024\\xc4\\xea5\\xd4\\xc212\\xc8\\xd5 \\xb1\\xa8\\xb8\\xe6",
            name: "报告", raw: "\\xb1\\xa8\\xb8\\xe6", size: 5, modified: "2024-05-12"),
        Row(
            note: "GBK compact date M月D日 and a time", encoding: "gbk",
            line: "-rw-r--r-- 1 u g 5 5\\xd4\\xc212\\xc8\\xd5 10:20 \\xb1\\xa8\\xb8\\xe6",
            name: "报告", raw: "\\xb1\\xa8\\xb8\\xe6", size: 5, modified: "2024-05-12T10:20"),
        Row(
            note: "Shift_JIS name in a DOS line", encoding: "shift_jis",
            line: "05-22-97  08:08AM                  828 \\x94\\x4e\\x8e\\x9f \\x8b\\x40\\x94\\x5c.txt",
            name: "年次 機能.txt", raw: "\\x94\\x4e\\x8e\\x9f \\x8b\\x40\\x94\\x5c.txt", size: 828,
            modified: "1997-05-22T08:08"),
    ]

    static let zone = TimeZone(identifier: "UTC")!

    @Test(arguments: rows)
    func readsDecodedLine(_ row: Row) throws {
        let codec = try NameCodec(encoding: row.encoding)
        let context = ListingContext(
            now: ExpectedTime.instant("2024-06-15T12:00:00", zone: Self.zone)!, timeZone: Self.zone,
            decodeName: { codec.decode($0) })
        let parsed = ListingParser.parse(CaseFile.bytes(of: row.line), format: .list, context: context)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        let entry = try #require(parsed.entries.first)
        #expect(entry.name == row.name)
        #expect(entry.rawName == CaseFile.bytes(of: row.raw))
        #expect(try codec.encode(entry.name) == entry.rawName, "the name must encode back to its bytes")
        #expect(entry.type == row.type)
        #expect(entry.size == row.size)
        #expect(entry.modified.map { ParityTable.wallClock($0, zone: Self.zone) } == row.modified)
        #expect(entry.target == row.target)
    }

    /// Mutated legacy lines (bytes replaced, dropped, doubled; a fixed seed) never trap, and every
    /// name read is the exact bytes of a piece of its line.
    @Test(arguments: ["gbk", "shift_jis"])
    func mutatedLinesKeepTheirBytes(_ encoding: String) throws {
        let codec = try NameCodec(encoding: encoding)
        let context = ListingContext(
            now: ExpectedTime.instant("2024-06-15T12:00:00", zone: Self.zone)!, timeZone: Self.zone,
            decodeName: { codec.decode($0) })
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let seeds = Self.rows.filter { $0.encoding == encoding }.map { CaseFile.bytes(of: $0.line) }
        let alphabet: [UInt8] = [0x20, 0x09, 0x2D, 0x3A, 0x30, 0x39, 0x4E, 0x5C, 0x80, 0x8C, 0x8E, 0x93, 0xD4, 0xFF]
        for round in 0..<2_000 {
            var line = seeds[round % seeds.count]
            for _ in 0..<(1 + next(4)) where !line.isEmpty {
                let at = next(line.count)
                switch next(3) {
                case 0: line[at] = alphabet[next(alphabet.count)]
                case 1: line.remove(at: at)
                default: line.insert(line[at], at: at)
                }
            }
            for entry in ListingParser.parse(line, format: .list, context: context).entries {
                let raw = entry.rawName
                #expect(
                    raw.isEmpty
                        || (0...(line.count - raw.count)).contains { Array(line[$0..<($0 + raw.count)]) == raw },
                    "\(line)")
            }
        }
    }

    /// An unreadable line of a GBK listing is quoted decoded with the device's encoding.
    @Test func warningQuotesTheLineInItsEncoding() throws {
        let codec = try NameCodec(encoding: "gbk")
        let context = ListingContext(
            now: ExpectedTime.instant("2024-06-15T12:00:00", zone: Self.zone)!, timeZone: Self.zone,
            decodeName: { codec.decode($0) })
        for line in [
            "-rw-r--r-- 1 li dev 5 5\\xd4\\xc2 40\\xc8\\xd5 2024\\xc4\\xea \\xb1\\xa8\\xb8\\xe6",
            "\\xb1\\xa8\\xb8\\xe6 garbage line",
        ] {
            let parsed = ListingParser.parse(CaseFile.bytes(of: line), format: .list, context: context)
            #expect(parsed.entries.isEmpty)
            let warning = try #require(parsed.warnings.first)
            #expect(warning.contains("报告"), "\(warning)")
            #expect(!warning.contains("\u{FFFD}"), "\(warning)")
        }
    }

    /// Without an encoding nothing is decoded: UTF-8 lines read as before.
    @Test func utf8LinesAreUntouched() throws {
        let context = ListingContext(now: ExpectedTime.instant("2024-06-15T12:00:00", zone: Self.zone)!)
        let line = Array("-rw-r--r-- 1 li dev 300 6月 1 08:05 周报.txt".utf8)
        let entry = try #require(ListingParser.parse(line, format: .list, context: context).entries.first)
        #expect(entry.name == "周报.txt")
        #expect(entry.modified.map { ParityTable.wallClock($0, zone: Self.zone) } == "2024-06-01T08:05")
    }
}
