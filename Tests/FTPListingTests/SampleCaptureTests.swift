// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Raw LIST, `LIST -a` and MLSD captures of the tricky tree from five real servers
/// (Fixtures/samples, copied byte for byte from interop/samples; LF line ends as captured).
/// The MLSD files of vsftpd, busybox and pyftpdlib's legacy mode only hold a note that the
/// server refused MLSD, so they are not fixtures.
struct SampleCaptureTests {
    /// The capture ran at 2026-11-29 13:12 UTC (the `..` entry's time); the servers list in UTC.
    static let context = ListingContext(
        now: Date(timeIntervalSince1970: 1_795_957_920), timeZone: utc)

    static let utc = TimeZone(identifier: "UTC")!

    static let visible: Set<String> = [
        "--double-dash.txt", "-leading-dash.txt", "UPPER.TXT", "big-50MB.bin", "dangling-link", "empty-dir",
        "file with spaces.txt", "last-month.txt", "link-to-dir", "link-to-file", "name;with;semicolons.txt",
        "old-1999.txt", "plain.txt", "upper.txt", "zero-bytes.bin", "中文文件.txt", "目录 with space",
    ]
    static let withHidden = visible.union([".hidden-file"])

    struct Sample: Sendable, CustomTestStringConvertible {
        var file: String
        var format: ListingFormat
        var names: Set<String>
        var testDescription: String { file }
    }

    static let samples: [Sample] = [
        // vsftpd, proftpd and pure-ftpd hide dotfiles unless `LIST -a`; pyftpdlib and busybox show them.
        Sample(file: "vsftpd-list", format: .list, names: visible),
        Sample(file: "vsftpd-list-a", format: .list, names: withHidden),
        Sample(file: "proftpd-list", format: .list, names: visible),
        Sample(file: "proftpd-list-a", format: .list, names: withHidden),
        Sample(file: "pure-ftpd-list", format: .list, names: visible),
        Sample(file: "pure-ftpd-list-a", format: .list, names: withHidden),
        Sample(file: "pyftpdlib-list", format: .list, names: withHidden),
        Sample(file: "pyftpdlib-list-a", format: .list, names: withHidden),
        Sample(file: "busybox-list", format: .list, names: withHidden),
        Sample(file: "busybox-list-a", format: .list, names: withHidden),
        // busybox under LC_ALL=C prints every non-ASCII byte as '?'.
        Sample(
            file: "busybox-ascii-list", format: .list,
            names: withHidden.subtracting(["中文文件.txt", "目录 with space"]).union([
                "????????????.txt", "?????? with space",
            ])),
        // proftpd and pyftpdlib leave the dangling link out of MLSD; pure-ftpd lists it.
        Sample(file: "proftpd-mlsd", format: .mlsd, names: withHidden.subtracting(["dangling-link"])),
        Sample(file: "pure-ftpd-mlsd", format: .mlsd, names: withHidden),
        Sample(file: "pyftpdlib-mlsd", format: .mlsd, names: withHidden.subtracting(["dangling-link"])),
    ]

    static func load(_ name: String) throws -> [UInt8] {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Fixtures/samples"))
        return Array(try Data(contentsOf: url))
    }

    @Test(arguments: samples)
    func captureParsesCleanly(_ sample: Sample) throws {
        let parsed = ListingParser.parse(try Self.load(sample.file), format: sample.format, context: Self.context)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        let names = parsed.entries.map(\.name)
        #expect(names.count == Set(names).count)
        #expect(Set(names) == sample.names)

        let byName = Dictionary(parsed.entries.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let big = try #require(byName["big-50MB.bin"])
        #expect(big.type == .file && big.size == 52_428_800 && big.sizeIsExact)
        #expect(byName["zero-bytes.bin"]?.size == 0)
        #expect(byName["empty-dir"]?.type == .dir)
        #expect(byName["empty-dir"]?.size == nil)
        for entry in parsed.entries { #expect(entry.rawName == Array(entry.name.utf8)) }

        let old = try #require(byName["old-1999.txt"]?.modified)
        let recent = try #require(byName["last-month.txt"]?.modified)
        if sample.format == .list {
            #expect(old.date == ExpectedTime.instant("1999-06-15", zone: Self.utc) && old.precision == .day)
            #expect(
                recent.date == ExpectedTime.instant("2026-10-30T08:15", zone: Self.utc) && recent.precision == .minute)
            #expect(byName["last-month.txt"]?.yearInferred == true)
            let link = try #require(byName["link-to-dir"])
            #expect(link.type == .link && link.target == "目录 with space" || sample.file == "busybox-ascii-list")
            #expect(byName["dangling-link"]?.target == "does-not-exist")
        } else {
            #expect(
                old.date == ExpectedTime.instant("1999-06-15T12:34:56Z", zone: Self.utc) && old.precision == .second)
            #expect(recent.date == ExpectedTime.instant("2026-10-30T08:15:00Z", zone: Self.utc))
            // pyftpdlib follows symlinks in MLSD; proftpd and pure-ftpd report them as links.
            #expect(byName["link-to-dir"]?.type == (sample.file == "pyftpdlib-mlsd" ? .dir : .link))
        }
    }

    /// LIST and MLSD of the same server agree on every file's size and (to the minute) time.
    @Test(arguments: ["proftpd", "pure-ftpd", "pyftpdlib"])
    func listAgreesWithMLSD(_ server: String) throws {
        let list = ListingParser.parse(try Self.load("\(server)-list-a"), format: .list, context: Self.context)
        let mlsd = ListingParser.parse(try Self.load("\(server)-mlsd"), format: .mlsd, context: Self.context)
        let fromMLSD = Dictionary(mlsd.entries.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var compared = 0
        for entry in list.entries where entry.type == .file {
            let other = try #require(fromMLSD[entry.name])
            #expect(entry.size == other.size, "\(entry.name)")
            let a = try #require(entry.modified).date.timeIntervalSince1970
            let b = try #require(other.modified).date.timeIntervalSince1970
            let window: Double = entry.modified?.precision == .day ? 86_400 : 60
            #expect(b >= a && b < a + window, "\(entry.name)")
            compared += 1
        }
        #expect(compared >= 11)
    }
}
