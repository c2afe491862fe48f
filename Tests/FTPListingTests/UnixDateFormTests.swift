// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Date forms of UNIX-style lines beyond `ls -l`'s own: `ls --full-time` (fractions, a zone
/// offset), ISO dates with fractions or as one token, `12.May.2024`, `May-12-2024`, CJK dates
/// without blanks; and lines whose date is not read, which are rejected rather than read with
/// the date in the name.
struct UnixDateFormTests {
    typealias Row = ListingRow

    static let rows: [Row] = [
        Row(
            note: "ls --full-time, zone +0800",
            line: "-rw-r--r-- 1 u g 11 2026-11-30 10:20:33.125000000 +0800 report.txt", name: "report.txt",
            size: 11, mtime: "2026-11-30T02:20:33.125"),
        Row(
            note: "ls --full-time folder, zone -0530",
            line: "drwxr-xr-x 2 u g 4096 2026-11-30 10:20:33.000000000 -0530 photos", name: "photos", type: .dir,
            mtime: "2026-11-30T15:50:33", precision: .subsecond),
        Row(
            note: "long-iso with milliseconds", line: "-rw-r--r-- 1 u g 5 2024-05-12 10:20:33.5 a10", name: "a10",
            size: 5, mtime: "2024-05-12T10:20:33.5"),
        Row(
            note: "time then a zone offset that is the name", line: "-rw-r--r-- 1 u g 5 2024-05-12 10:20 +0800",
            name: "+0800", size: 5, mtime: "2024-05-12T10:20"),
        Row(
            note: "ISO date-time as one token", line: "-rw-r--r-- 1 u g 5 2024-05-12T10:20:00 iso.txt", name: "iso.txt",
            size: 5, mtime: "2024-05-12T10:20:00"),
        Row(
            note: "ISO date-time with Z", line: "-rw-r--r-- 1 u g 5 2024-05-12T10:20Z z.txt", name: "z.txt", size: 5,
            mtime: "2024-05-12T10:20"),
        Row(
            note: "ISO date-time with an offset", line: "-rw-r--r-- 1 u g 5 2024-05-12T10:20:00+02:00 o.txt",
            name: "o.txt", size: 5, mtime: "2024-05-12T08:20:00"),
        Row(
            note: "DD.Mon.YYYY", line: "-rw-r--r-- 1 u g 5 12.May.2024 dotted.txt", name: "dotted.txt", size: 5,
            mtime: "2024-05-12"),
        Row(
            note: "DD.Mon.YYYY HH:MM", line: "-rw-r--r-- 1 u g 5 12.May.2024 10:20 dotted.txt", name: "dotted.txt",
            size: 5, mtime: "2024-05-12T10:20"),
        Row(
            note: "Mon-DD-YYYY", line: "-rw-r--r-- 1 u g 5 May-12-2024 dashed.txt", name: "dashed.txt", size: 5,
            mtime: "2024-05-12"),
        Row(
            note: "Mon-DD-YYYY HH:MM:SS", line: "-rw-r--r-- 1 u g 5 May-12-2024 10:20:33 dashed.txt",
            name: "dashed.txt", size: 5, mtime: "2024-05-12T10:20:33"),
        Row(
            note: "YYYY年M月D日 (UTF-8)", line: "-rw-r--r-- 1 u g 5 2024年5月12日 紧凑", name: "紧凑", size: 5,
            mtime: "2024-05-12"),
        Row(
            note: "M月D日 HH:MM (UTF-8)", line: "-rw-r--r-- 1 u g 5 5月12日 10:20 无空格", name: "无空格", size: 5,
            mtime: "2024-05-12T10:20"),
        Row(
            note: "Korean compact date", line: "-rw-r--r-- 1 u g 5 2024년5월12일 파일", name: "파일", size: 5,
            mtime: "2024-05-12"),
    ]

    @Test(arguments: rows)
    func dateFormIsRead(_ row: Row) {
        row.check()
    }

    /// `ls --full-time`'s nanoseconds and zone give the instant whatever the device's zone.
    @Test(arguments: ["UTC", "America/New_York", "Asia/Tokyo"])
    func fullTimeZoneOffsetGivesTheInstant(_ zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let context = ListingContext(now: Date(timeIntervalSince1970: 1_800_000_000), timeZone: zone)
        let line = Array("-rw-r--r-- 1 u g 11 2026-11-30 10:20:33.123456789 +0800 report.txt".utf8)
        guard case .entry(let entry) = ListingParser.parseLine(line, format: .list, context: context) else {
            Issue.record("not an entry")
            return
        }
        #expect(entry.name == "report.txt")
        let expected = try #require(ExpectedTime.instant("2026-11-30T02:20:33Z", zone: zone)) + 0.123_456_789
        let modified = try #require(entry.modified)
        #expect(abs(modified.date.timeIntervalSince(expected)) < 1e-6)
        #expect(modified.precision == .subsecond)
    }

    /// A dateless or day-only reading whose name would start with an unread time, zone offset or
    /// date is rejected.
    @Test(arguments: [
        "-rw-r--r-- 1 u g 11 2026-11-30 10:20:33.1234567890 +0800 report.txt",
        "-rw-r--r-- 1 u g 11 2026-11-30 +0800 report.txt", "-rw-r--r-- 1 u g 5 2024-05-12 10:20:61 a10",
        "-rw-r--r-- 1 u g 5 12.Mai name", "-rw-r--r-- 1 u g 5 2024-05-12 12.May name",
        "-rw-r--r-- 1 u g 5 2024-05-12 May-12 name", "-rw-r--r-- 1 u g 5 2024-05-12 2024年 name",
        "-rw-r--r-- 1 u g 5 2024-05-12 2024-13 name", "-rw-r--r-- 1 u g 5 2024-05-12 10:20Z name",
        "-rw-r--r-- 1 u g 5 2024-05-12T10:20:00.1234567890 name", "-rw-r--r-- 1 u g 5 40.May.2024 name",
        "-rw-r--r-- 1 u g 5 2024年13月12日 name", "-rw-r--r-- 1 u g 5 +0800 name",
    ])
    func unreadDateIsRejected(_ line: String) {
        guard case .rejected(let message) = ListingRow(note: line, line: line, name: "").parse() else {
            Issue.record("not rejected: \(ListingRow(note: line, line: line, name: "").parse())")
            return
        }
        #expect(message.contains(line))
    }

    /// Names that only resemble a date fragment are kept after a padded date or none.
    @Test(arguments: [
        ("-rw-r--r-- 1 u g 5 2024-05-12 T1 report.txt", "T1 report.txt"),
        ("-rw-r--r-- 1 u g 5 2024-05-12 v1.2.tar.gz", "v1.2.tar.gz"), ("-rw-r--r-- 1 u g 5 2024-05-12 May", "May"),
        ("-rw-r--r-- 1 owner 77 report-2024.txt", "report-2024.txt"), ("-rw-r--r-- 1 u g 5 2024-05-12 日记", "日记"),
    ])
    func nameLikeTokenIsKept(_ line: String, _ name: String) {
        guard case .entry(let entry) = ListingRow(note: line, line: line, name: name).parse() else {
            Issue.record("not an entry: \(line)")
            return
        }
        #expect(entry.name == name)
    }
}
