// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Issue 16's kinds of UNIX-style lines from real devices, one table row each: glued device
/// numbers, lines without a date, numeric date layouts, `24:00`, odd mode columns, negative
/// 32-bit sizes and the all-numeric `ls`.
struct UnixLineKindTests {
    static let utc = TimeZone(identifier: "UTC")!

    typealias Row = ListingRow

    static let rows: [Row] = [
        // Device nodes whose major,minor has no space after the comma.
        Row(
            note: "device, glued major,minor", line: "crw-rw-rw- 1 root root 1,3 Jan 5 2024 null", name: "null",
            type: .other, mtime: "2024-01-05", precision: .day),
        Row(
            note: "Solaris device, glued, name with a comma",
            line: "crw-------   1 root     sys      109,767 Jul  2  2004 pci@1c,600000:devctl",
            name: "pci@1c,600000:devctl", type: .other, mtime: "2004-07-02", precision: .day),
        Row(
            note: "block device, glued, recent", line: "brw-rw---- 1 root disk 8,0 May 30 09:00 sda", name: "sda",
            type: .other, mtime: "2024-05-30T09:00", precision: .minute),
        // Lines without a date: an entry without a time.
        Row(
            note: "no date: file", line: "-rw-r--r-- 1 owner group 1234 name", name: "name", size: 1234,
            permissions: 0o644),
        Row(note: "no date: folder", line: "drwxr-xr-x 3 owner team 512 backups", name: "backups", type: .dir),
        Row(
            note: "no date, no group, digits in the name", line: "-rw-r--r-- 1 owner 77 report-2024.txt",
            name: "report-2024.txt", size: 77),
        // Numeric date layouts.
        Row(
            note: "M D HH:MM", line: "-rw-r--r--   1 owner    group       4096 5 12 10:20 notes.txt", name: "notes.txt",
            size: 4096, mtime: "2024-05-12T10:20", precision: .minute),
        Row(
            note: "MM-DD YYYY", line: "-rw-r--r--   1 owner    group        531 09-26 2000 a.txt", name: "a.txt",
            size: 531, mtime: "2000-09-26", precision: .day),
        Row(
            note: "MM-DD HH:MM", line: "-rw-r--r--   1 owner    group        531 09-26 13:45 b.txt", name: "b.txt",
            size: 531, mtime: "2023-09-26T13:45", precision: .minute),
        Row(
            note: "YYYY/MM/DD HH:MM", line: "-r-xr-xr-x   2 owner    group       2235 2024/05/01 10:20 c.txt",
            name: "c.txt", size: 2235, mtime: "2024-05-01T10:20", precision: .minute),
        Row(
            note: "DD-MM-YYYY HH:MM", line: "-r-xr-xr-x   2 owner    group       2235 24-04-2003 17:12 d.txt",
            name: "d.txt", size: 2235, mtime: "2003-04-24T17:12", precision: .minute),
        Row(
            note: "DD.MM.YYYY, no time", line: "-r-xr-xr-x   2 owner    group       2235 24.04.2003 e.txt",
            name: "e.txt",
            size: 2235, mtime: "2003-04-24", precision: .day),
        Row(
            note: "YYYY.MM.DD padded", line: "-r-xr-xr-x   2 owner  group  96 2004.07.15   f.txt", name: "f.txt",
            size: 96,
            mtime: "2004-07-15", precision: .day),
        Row(
            note: "YYYY-MM-DD, no time", line: "-rw-r--r--   1 owner    group     190144 2001-04-27 i.zip",
            name: "i.zip",
            size: 190_144, mtime: "2001-04-27", precision: .day),
        Row(
            note: "DD-mon-YY", line: "-r-xr-xr-x 2 owner group 4512 01-jun-99 g.txt", name: "g.txt", size: 4512,
            mtime: "1999-06-01", precision: .day),
        Row(
            note: "DD-Mon-YY this century", line: "-r-xr-xr-x 2 owner group 4512 15-Mar-24 h.txt", name: "h.txt",
            size: 4512, mtime: "2024-03-15", precision: .day),
        Row(
            note: "Mon DD, YYYY HH:MM (VShell)", line: "-rwxr-xr-x    1 user group        9 Oct 08, 2002 09:47 v.txt",
            name: "v.txt", size: 9, mtime: "2002-10-08T09:47", precision: .minute),
        Row(
            note: "DD. Month, HH:MM (German)", line: "dr-xr-xr-x   2 owner    group      2235 26. Juli, 20:10 ordner",
            name: "ordner", type: .dir, mtime: "2023-07-26T20:10", precision: .minute),
        Row(
            note: "Hungarian month", line: "dr-xr-xr-x   2 owner    group      2235 szept 26 20:10 mappa",
            name: "mappa",
            type: .dir, mtime: "2023-09-26T20:10", precision: .minute),
        Row(
            note: "month with a legacy-charset mark", line: "-r--r--r-- 1 root root 2096 8\\xed 17 08:52 m.txt",
            name: "m.txt", size: 2096, mtime: "2023-08-17T08:52", precision: .minute),
        // 24:00, the next day's midnight.
        Row(
            note: "24:00", line: "-rw-------      1  99999999 0              3 Apr   4 24:00 midnight",
            name: "midnight",
            size: 3, mtime: "2024-04-05T00:00", precision: .minute),
        Row(
            note: "24:00 on Dec 31 (into the next year)", line: "-rw-r--r-- 1 o g 3 Dec 31 24:00 nye", name: "nye",
            size: 3, mtime: "2024-01-01T00:00", precision: .minute),
        Row(
            note: "24:00 after an ISO date", line: "-rw-r--r-- 1 o g 3 2024-05-01 24:00 iso", name: "iso", size: 3,
            mtime: "2024-05-02T00:00", precision: .minute),
        Row(
            note: "24:00 in a DOS line (the shared time reader)", line: "05-01-24  24:00                 12 dos.txt",
            name: "dos.txt", size: 12, mtime: "2024-05-02T00:00", precision: .minute),
        // Mode columns of 9 or 13 characters, or without the type letter.
        Row(
            note: "9-character mode, no type letter", line: "rw-r--r-- 1 owner group 12 Jan  5  2024 plain.txt",
            name: "plain.txt", size: 12, mtime: "2024-01-05", precision: .day, permissions: 0o644),
        Row(
            note: "no type letter, ACL mark", line: "rwxr-x---+ 1 owner group 12 Jan  5  2024 tool", name: "tool",
            size: 12, mtime: "2024-01-05", precision: .day, permissions: 0o750),
        Row(
            note: "type letter and eight permissions",
            line: "drw-r--rw   1     root     root         0 Apr 21 19:31 Dir1",
            name: "Dir1", type: .dir, mtime: "2024-04-21T19:31", precision: .minute),
        Row(
            note: "13-character mode (Connect:Enterprise)",
            line: "-C--E-----FTP B QUA1I1      18128       41 Aug 12 13:56 QUADTEST", name: "QUADTEST", size: 41,
            mtime: "2023-08-12T13:56", precision: .minute),
        Row(
            note: "13-character mode with ACL and xattr marks", line: "-rwxr-x---+@. 1 me staff 7 Feb 10 11:00 x.sh",
            name: "x.sh", size: 7, mtime: "2024-02-10T11:00", precision: .minute, permissions: 0o750),
        Row(
            note: "type letter f", line: "frw-r--r--   1 14       staff      119926 Aug 22  2000 z.zip", name: "z.zip",
            size: 119_926, mtime: "2000-08-22", precision: .day),
        // Sizes above 2^31 printed negative by 32-bit servers.
        Row(
            note: "negative size", line: "-rw-r--r-- 1 owner group -1294967296 Jan  5  2024 big.iso", name: "big.iso",
            size: 3_000_000_000, exact: false, mtime: "2024-01-05", precision: .day),
        Row(
            note: "negative size -2^31", line: "-rw-r--r-- 1 owner group -2147483648 Jan  5  2024 half.iso",
            name: "half.iso", size: 2_147_483_648, exact: false, mtime: "2024-01-05", precision: .day),
        Row(
            note: "negative size beyond 32 bits: unknown",
            line: "-rw-r--r-- 1 owner group -4294967296 Jan  5  2024 odd",
            name: "odd", mtime: "2024-01-05", precision: .day),
        // The all-numeric ls.
        Row(
            note: "numeric ls, file", line: "0100644   500  101   12345    123456789       numerical file",
            name: "numerical file", size: 12345, mtime: "1973-11-29T21:33:09", precision: .second),
        Row(
            note: "numeric ls, folder", line: "0040755 0 0 4096 1700000000 data", name: "data", type: .dir,
            mtime: "2023-11-14T22:13:20", precision: .second),
    ]

    static func parse(_ line: String, now: String = "2024-06-15T12:00:00") -> ParsedLine {
        let context = ListingContext(now: ExpectedTime.instant(now, zone: utc)!, timeZone: utc)
        return ListingParser.parseLine(CaseFile.bytes(of: line), format: .list, context: context)
    }

    @Test(arguments: rows)
    func unixLineKind(_ row: Row) {
        row.check()
    }

    /// A line without a readable date is read as dateless only when nothing after the size looks
    /// like a date the parser could not read; otherwise a name would swallow the date.
    @Test(arguments: [
        "-rw-r--r-- 1 owner group 1234 Jam  4 00:03 name", "-rw-r--r-- 1 owner group 1234 Aug 36  2001 name",
        "-rw-r--r-- 1 owner group 1234 Feb 23 30:01 name", "-rw-r--r-- 1 owner group 1234 1999 name",
        "-rw-r--r-- 1 owner group 1234 Apr 4 25:00 late", "-rw-r--r-- 1 owner group 1234 Apr 4 24:01 late",
    ])
    func damagedDatesAreRejected(_ line: String) {
        guard case .rejected(let message) = Self.parse(line) else {
            Issue.record("not rejected: \(Self.parse(line))")
            return
        }
        #expect(message.contains(line))
    }
}
