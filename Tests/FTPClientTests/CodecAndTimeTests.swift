// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import Testing

/// File-name encodings (category encoding), MDTM times (MS-09) and error texts.
@Suite struct CodecAndTimeTests {
    /// EN-01: Latin-1 name bytes decode to the name, and the name encodes back to the bytes.
    @Test func latin1Name() throws {
        let item = try #require(Cases.named("EN-01"))
        let given = try #require(item.expected["given"]?.object)
        let raw = try #require(given["input_bytes_hex_of_name"]?.string).split(separator: " ").compactMap {
            UInt8($0, radix: 16)
        }
        #expect(Cases.bytes(item.input).suffix(raw.count + 2).dropLast(2).elementsEqual(raw))
        let codec = try NameCodec(encoding: "latin1")
        let name = "bröd-översikt.txt"
        #expect(codec.decode(raw) == name)
        #expect(try codec.encode(name) == raw)
    }

    /// EN-03: Shift_JIS bytes (second byte 0x85 is no line break) decode and re-encode.
    @Test func shiftJISName() throws {
        let item = try #require(Cases.named("EN-03"))
        let given = try #require(item.expected["given"]?.object)
        let raw = try #require(given["input_bytes_hex_of_first_name"]?.string).split(separator: " ").compactMap {
            UInt8($0, radix: 16)
        }
        #expect(Cases.lines(Cases.bytes(item.input)).count == item.expected["line_count"]?.int)
        let codec = try NameCodec(encoding: "shift_jis")
        #expect(codec.decode(raw) == "メニュー.txt")
        #expect(try codec.encode("メニュー.txt") == raw)
    }

    @Test(arguments: [
        ("gbk", "中文.jpg", [0xD6, 0xD0, 0xCE, 0xC4, 0x2E, 0x6A, 0x70, 0x67] as [UInt8]),
        ("gb18030", "中", [0xD6, 0xD0]),
        ("utf-8", "中", [0xE4, 0xB8, 0xAD]),
        ("latin1", "é", [0xE9]),
    ])
    func encodings(_ encoding: String, _ name: String, _ bytes: [UInt8]) throws {
        let codec = try NameCodec(encoding: encoding)
        #expect(try codec.encode(name) == bytes)
        #expect(codec.decode(bytes) == name)
    }

    @Test func unrepresentableAndUnsafeNames() throws {
        #expect(throws: FTPError.self) { try NameCodec(encoding: "latin1").encode("中") }
        #expect(throws: FTPError.self) { try NameCodec(encoding: nil).encode("a\r\nDELE b") }
        #expect(throws: FTPError.self) { try NameCodec(encoding: nil).encode("a\u{0}") }
        #expect(throws: FTPError.self) { try NameCodec(encoding: "no-such-charset") }
        #expect(try NameCodec(encoding: "latin1").decode([0x61, 0xFF]) == "aÿ")
        // An invalid UTF-8 byte is kept reversibly (U+F700 + byte), never U+FFFD.
        #expect(try NameCodec(encoding: nil).decode([0x61, 0xFF]) == "a\u{F7FF}")
    }

    /// MS-09: a Y2K-era `19100` year and a fractional second.
    @Test func mdtmTimes() throws {
        let item = try #require(Cases.named("MS-09"))
        let results = try #require(item.expected["results"]?.object)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let lines = Cases.lines(Cases.bytes(item.input)).map { String(decoding: $0, as: UTF8.self) }
        let old = try #require(FTPTime.parse(String(lines[1].dropFirst(6))))
        let new = try #require(FTPTime.parse(String(lines[3].dropFirst(6))))
        let oldExpected = try #require(results["old.log"]?.string?.split(separator: " ").first)
        let newExpected = try #require(results["new.log"]?.string)
        #expect(old == ISO8601DateFormatter().date(from: String(oldExpected)))
        #expect(abs(new.timeIntervalSince(try #require(iso.date(from: newExpected)))) < 0.000_5)
    }

    @Test(arguments: ["", "2024", "20241301000000", "2024010100000x", "20240101000000.", "20240101246000"])
    func invalidTimes(_ text: String) {
        #expect(FTPTime.parse(text) == nil)
    }

    @Test(arguments: [0.0, 951_121_800, 1_709_471_232, 4_102_444_799, -86_400])
    func formatRoundTrip(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(FTPTime.parse(FTPTime.format(date)) == date)
    }

    @Test func formatIsUTC() {
        #expect(FTPTime.format(Date(timeIntervalSince1970: 1_709_471_232.9)) == "20240303130712")
    }

    @Test func errorDescriptions() {
        let login = FTPError.reply(code: 530, text: "Login incorrect.", command: "PASS ****")
        #expect(login.description == "530 Login incorrect. (after PASS ****): check user and password")
        #expect(!login.isTransient)
        #expect(FTPError.reply(code: 421, text: "Too many", command: "USER x").isTransient)
        #expect(FTPError.timedOut(during: "greeting").description.contains("timed out"))
        #expect(FTPError.connectFailed(host: "::1", port: 21, reason: "refused").description.contains("[::1]:21"))
    }
}
