// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Raw LIST and MLSD of one tricky tree, captured from the five lab servers by
/// `scripts/capture-listings.sh` (Fixtures/captures, bytes as received, CRLF kept). Every
/// capture parses with no warning and gives the tree's names, types and file sizes.
struct LabCaptureTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// File sizes in bytes, as written by the capture script.
    static let files: [String: UInt64] = [
        "file with spaces.txt": 6, "-leading-dash.txt": 4, "--double-dash.txt": 6, "中文文件.txt": 6,
        "name;with;semicolons.txt": 4, "UPPER.TXT": 5, "upper.txt": 5, "old-1999.txt": 3, "zero-bytes.bin": 0,
        "Cafe\u{301} nfd.txt": 3, "2024 starts with digits.txt": 6, "one-MiB.bin": 1_048_576,
    ]
    static let folders: Set<String> = ["empty-dir", "目录 with space"]
    static let links: Set<String> = ["link-to-file", "link-to-dir", "dangling-link"]

    struct Capture: Sendable, CustomTestStringConvertible {
        var file: String
        var format: ListingFormat
        /// Whether `.hidden-file` is listed (LIST of vsftpd, proftpd and pure-ftpd hides dotfiles).
        var dotfiles: Bool
        /// Links as the server shows them: nil = as links; else the types it reports
        /// (pyftpdlib's MLSD follows them) and which ones it leaves out.
        var linksFollowed: Bool = false
        var omitsDangling: Bool = false
        var testDescription: String { file }
    }

    static let captures: [Capture] = [
        Capture(file: "pyftpdlib-list", format: .list, dotfiles: true),
        Capture(file: "pyftpdlib-mlsd", format: .mlsd, dotfiles: true, linksFollowed: true, omitsDangling: true),
        Capture(file: "vsftpd-list", format: .list, dotfiles: false),
        Capture(file: "proftpd-list", format: .list, dotfiles: false),
        Capture(file: "proftpd-mlsd", format: .mlsd, dotfiles: true, omitsDangling: true),
        Capture(file: "pure-ftpd-list", format: .list, dotfiles: false),
        Capture(file: "pure-ftpd-mlsd", format: .mlsd, dotfiles: true),
        Capture(file: "busybox-list", format: .list, dotfiles: true),
    ]

    static func load(_ name: String) throws -> [UInt8] {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Fixtures/captures"))
        return Array(try Data(contentsOf: url))
    }

    /// The capture's clock: the time the script recorded.
    static func capturedAt() throws -> Date {
        let text = String(decoding: try load("captured-at"), as: UTF8.self)
        let seconds = try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        return Date(timeIntervalSince1970: seconds)
    }

    @Test(arguments: captures)
    func captureParsesWithoutWarnings(_ capture: Capture) throws {
        let now = try Self.capturedAt()
        let parsed = ListingParser.parse(
            try Self.load(capture.file), format: capture.format, context: ListingContext(now: now, timeZone: Self.utc))
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")

        var expected: [String: EntryType] = [:]
        for name in Self.files.keys { expected[name] = .file }
        for name in Self.folders { expected[name] = .dir }
        if capture.dotfiles { expected[".hidden-file"] = .file }
        for name in Self.links {
            if capture.omitsDangling && name == "dangling-link" { continue }
            expected[name] = capture.linksFollowed ? (name == "link-to-dir" ? .dir : .file) : .link
        }
        let listed = Dictionary(parsed.entries.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(parsed.entries.count == listed.count, "a name listed twice")
        #expect(Set(listed.keys) == Set(expected.keys))
        for (name, type) in expected { #expect(listed[name]?.type == type, "type of \(name)") }
        for (name, size) in Self.files {
            #expect(listed[name]?.size == size && listed[name]?.sizeIsExact == true, "size of \(name)")
        }
        // The NFD name comes through byte for byte.
        #expect(listed["Cafe\u{301} nfd.txt"]?.rawName == Array("Cafe\u{301} nfd.txt".utf8))

        // Year inference with the capture's clock: recent files land in the capture's year.
        let old = try #require(listed["old-1999.txt"]?.modified)
        let recent = try #require(listed["file with spaces.txt"]?.modified)
        let expectedRecent = (now.timeIntervalSince1970 / 60).rounded(.down) * 60 - 2 * 86_400
        if capture.format == .list {
            #expect(old.precision == .day)
            #expect(old.date == Date(timeIntervalSince1970: 929_404_800))  // 1999-06-15 00:00 UTC
            #expect(recent.precision == .minute)
        } else {
            #expect(old.date == Date(timeIntervalSince1970: 929_450_096))
        }
        #expect(recent.date.timeIntervalSince1970 == expectedRecent)

        if capture.format == .list && !capture.linksFollowed {
            #expect(listed["link-to-file"]?.target == "file with spaces.txt")
            #expect(listed["dangling-link"]?.target == "nowhere")
        }
    }
}
