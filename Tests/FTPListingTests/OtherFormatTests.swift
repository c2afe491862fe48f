// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Lines of the formats that are neither UNIX- nor DOS-like (OS/2, OS/400, MVS, z/VM, NonStop,
/// OS-9, wfFtp, VShell), one table row each, and the UNIX and DOS lines they must leave alone.
struct OtherFormatTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let context = ListingContext(now: ExpectedTime.instant("2024-06-15T12:00:00", zone: utc)!, timeZone: utc)

    typealias Row = ListingRow

    static let rows: [Row] = [
        Row(
            note: "OS/2 folder", line: "     0           DIR   05-12-97   16:44  LANGUAGE", name: "LANGUAGE",
            type: .dir,
            mtime: "1997-05-12T16:44", precision: .minute),
        Row(
            note: "OS/2 file with a space in its name", line: "149473      A          11-17-98   16:07  Pop Up.LOG",
            name: "Pop Up.LOG", size: 149_473, mtime: "1998-11-17T16:07", precision: .minute),
        Row(
            note: "OS/2 year printed as year - 1900", line: "36611      A    04-23-103  10:57  report.txt",
            name: "report.txt", size: 36611, mtime: "2003-04-23T10:57", precision: .minute),
        Row(
            note: "OS/2 four-digit year", line: "  1024 R  A    06-01-2024 08:00  new.txt", name: "new.txt", size: 1024,
            mtime: "2024-06-01T08:00", precision: .minute),
        Row(
            note: "OS/400 stream file", line: "WEBUSR          123456 05/14/24 09:30:15 *STMF      site/index.html",
            name: "index.html", size: 123_456, mtime: "2024-05-14T09:30:15", precision: .second),
        Row(
            note: "OS/400 folder", line: "QSYS            8192 31/12/23 23:59:59 *DIR       logs/", name: "logs",
            type: .dir, mtime: "2023-12-31T23:59:59", precision: .second),
        Row(
            note: "OS/400 library", line: "QSYS            8192 12.01.24 08:00:00 *LIB       MYLIB.LIB",
            name: "MYLIB.LIB",
            type: .dir, mtime: "2024-01-12T08:00:00", precision: .second),
        Row(
            note: "OS/400 program object", line: "QPGMR          40960 01/02/24 10:00:00 *PGM       TOOL.PGM",
            name: "TOOL.PGM", type: .other, mtime: "2024-01-02T10:00:00", precision: .second),
        Row(note: "OS/400 member in its file's listing", line: "QPGMR       *MEM       SALES.MBR", name: "SALES.MBR"),
        Row(
            note: "MVS sequential dataset",
            line: "PRD001 3390   2024/05/02  1   15  FB      80 27920  PS  PROD.DAILY.REPORT", name: "PROD.DAILY.REPORT"
        ),
        Row(
            note: "MVS partitioned dataset (PDSE)",
            line: "PRD002 3390   2024/05/02  1    5  FB      80 27920  PO-E  PROD.SOURCE", name: "PROD.SOURCE",
            type: .dir),
        Row(
            note: "MVS source member", line: "JCLMAIN   01.07 2021/03/04 2024/05/30 17:45    88    80     0 OPER01",
            name: "JCLMAIN", mtime: "2024-05-30T17:45", precision: .minute),
        Row(
            note: "MVS load module, hex size",
            line: "IEFBR14   000010   00001A          00 FO             RN RU  31    ANY",
            name: "IEFBR14", size: 16),
        Row(note: "MVS member without statistics", line: "@MEMBER#", name: "@MEMBER#"),
        Row(
            note: "z/VM fixed records: exact size",
            line: "PROFILE  EXEC     F        80       25        1 2024-04-01 07:08:09 0191", name: "PROFILE.EXEC",
            size: 2000, mtime: "2024-04-01T07:08:09", precision: .second),
        Row(
            note: "z/VM variable records: an upper bound",
            line: "NOTES    SCRIPT   V       255       10        1 2024-04-01 07:08:09 0191", name: "NOTES.SCRIPT",
            size: 2550, exact: false, mtime: "2024-04-01T07:08:09", precision: .second),
        Row(
            note: "NonStop file", line: "AUDIT01       101           40960 3-Jun-24 06:05:04 200,  7 \"nunu\"",
            name: "AUDIT01", size: 40960, mtime: "2024-06-03T06:05:04", precision: .second),
        Row(
            note: "OS-9 file", line: "0.0 24/05/31 0915 ----r-wr 1A2 4096 startup", name: "startup", size: 4096,
            mtime: "2024-05-31T09:15", precision: .minute),
        Row(
            note: "wfFtp file", line: "log.bin       2048  05/20/24  Mon.   10:11:12", name: "log.bin", size: 2048,
            mtime: "2024-05-20T10:11:12", precision: .second),
        Row(
            note: "VShell folder", line: "0  Mar 09, 2024 02:13 old backups/", name: "old backups", type: .dir,
            mtime: "2024-03-09T02:13", precision: .minute),
    ]

    @Test(arguments: rows)
    func lineReadsAsExpected(_ row: Row) {
        row.check()
    }

    /// Lines the UNIX and DOS parsers read; the other formats, tried after them, must not change that.
    static let untouched: [(line: String, name: String)] = [
        ("-rw-r--r--   1 owner group   531 Jan 29 03:26 A.TXT;1", "A.TXT;1"),
        ("drwxr-xr-x   2 owner group  4096 Mar  1  2020 MEMBER", "MEMBER"),
        ("04-27-00  12:09PM       <DIR>          QSYS", "QSYS"),
        ("2002-09-02  19:06                9,730 FILE.DIR;1", "FILE.DIR;1"),
    ]

    @Test(arguments: untouched.map(\.line))
    func unixAndDOSLinesKeepTheirReading(_ line: String) throws {
        let parsed = ListingParser.parseLine(Array(line.utf8), format: .list, context: Self.context)
        guard case .entry(let entry) = parsed else {
            Issue.record("\(line): \(parsed)")
            return
        }
        #expect(entry.name == Self.untouched.first { $0.line == line }?.name)
    }

    /// Headers of the MVS and NonStop lists.
    static let noise = [
        "Volume Unit    Referred Ext Used Recfm Lrecl BlkSz Dsorg Dsname",
        " Name     VV.MM   Created       Changed      Size  Init   Mod   Id",
        " Name      Size     TTR   Alias-of AC --------- Attributes --------- Amode Rmode",
        "File         Code             EOF  Last Modification    Owner  RWEP",
    ]

    @Test(arguments: noise)
    func headersAreIgnoredSilently(_ line: String) {
        let parsed = ListingParser.parse(Array((line + "\r\n").utf8), format: .list, context: Self.context)
        #expect(parsed.entries.isEmpty && parsed.warnings.isEmpty, "\(parsed.warnings)")
    }

    /// Hostile numbers and dates: rejected or read, never a trap.
    static let hostile = [
        "99999999999999999999999      A          11-17-98   16:07  big",
        "1      A          99-99-99   16:07  baddate",
        "Q 99999999999999999999999 05/14/24 09:30:15 *STMF x",
        "Q 1 05/14/24 09:30:15 *STMF ../../etc/passwd/",
        "Q 1 05/14/24 09:30:15 *DIR /",
        "BIG  EXEC  F  99999999999999 99999999999999  1 2024-04-01 07:08:09 0191",
        "X 1 1 99-Foo-24 06:05:04 1, 1 \"n\"",
        "0.0 99/99/99 9999 ----r-wr 1 1 x",
    ]

    @Test(arguments: hostile)
    func hostileLinesDoNotTrap(_ line: String) {
        let parsed = ListingParser.parse(Array(line.utf8), format: .list, context: Self.context)
        #expect(parsed.entries.count + parsed.warnings.count <= 1)
        for entry in parsed.entries { #expect(!entry.name.isEmpty && !entry.name.contains("/")) }
    }

    /// A small deterministic generator (SplitMix64), so a failure reproduces.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Every row's line with bytes replaced, inserted, deleted or repeated: no trap (a debug build
    /// traps on overflow and bad indices), at most one result per line, no name with `/` or NUL.
    @Test func mutatedLinesNeitherTrapNorGiveBadNames() {
        var generator = Generator(state: 16)
        let seeds = Self.rows.map { Array($0.line.utf8) } + [Array(VMSListingTests.listing.utf8)]
        let alphabet = Array(" \t0123456789/-.:;[](),*%RWEDAZaz".utf8) + [0xFF, 0x00, 0x0A]
        for _ in 0..<20_000 {
            var bytes = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 0...bytes.count, using: &generator)
                let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where at < bytes.count: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                case 2 where at < bytes.count: bytes.remove(at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 12)], at: at)
                }
            }
            let parsed = ListingParser.parse(bytes, format: .list, context: Self.context)
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
            #expect(parsed.entries.count + parsed.warnings.count <= lines)
            for entry in parsed.entries {
                #expect(!entry.name.isEmpty && !entry.name.contains("/") && !entry.name.contains("\0"))
            }
        }
    }
}
