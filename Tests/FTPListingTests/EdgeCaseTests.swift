// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Issue 3 edge cases the cases file does not cover, one table row each.
struct EdgeCaseTests {
    static let utc = TimeZone(identifier: "UTC")!

    typealias Row = ListingRow

    static let listRows: [Row] = [
        Row(
            note: "German day-first date with time",
            line: "-rw-r--r--   1 hans  users   2048 24. Sep 10:15 bericht.txt",
            name: "bericht.txt", size: 2048, mtime: "2023-09-24T10:15", precision: .minute),
        Row(
            note: "German month with umlaut and year", line: "-rw-r--r--   1 hans  users   10 3. Mär 2012 alt.txt",
            name: "alt.txt", size: 10, mtime: "2012-03-03", precision: .day),
        Row(
            note: "Russian day month year", line: "-rw-r--r-- 1 ivan ivan 77 11 май 2012 отчёт.doc",
            name: "отчёт.doc", size: 77, mtime: "2012-05-11", precision: .day),
        Row(
            note: "Chinese month without day sign", line: "-rw-r--r-- 1 li dev 300 6月 1 08:05 周报.txt",
            name: "周报.txt", size: 300, mtime: "2024-06-01T08:05", precision: .minute),
        Row(
            note: "Korean month/day/year signs", line: "-rw-r--r-- 1 kim dev 5 4월 9일 2006년 a.txt",
            name: "a.txt", size: 5, mtime: "2006-04-09", precision: .day),
        Row(
            note: "SELinux dot after the mode", line: "-rw-r--r--. 1 root root 12 Jan  2  2020 selinux.txt",
            name: "selinux.txt", size: 12, mtime: "2020-01-02", precision: .day, permissions: 0o644),
        Row(
            note: "macOS @ after the mode", line: "-rw-r--r--@ 1 me staff 99 Feb 10 11:00 mac.txt",
            name: "mac.txt", size: 99, mtime: "2024-02-10T11:00", precision: .minute),
        Row(
            note: "sticky bit t", line: "drwxrwxrwt  12 root root 4096 Jun 10 07:00 tmp", name: "tmp", type: .dir,
            mtime: "2024-06-10T07:00", precision: .minute, permissions: 0o1777),
        Row(
            note: "setuid s, setgid S, sticky T", line: "-rwsr-Sr-T 1 root root 1 Jun 10 07:00 odd",
            name: "odd", size: 1, mtime: "2024-06-10T07:00", precision: .minute, permissions: 0o7744),
        Row(
            note: "character device", line: "crw-rw-rw-   1 root  root    1,   3 Jan  1  2020 null", name: "null",
            type: .other, mtime: "2020-01-01", precision: .day),
        Row(
            note: "block device, glued minor", line: "brw-rw----   1 root  disk    8,  0 May 30 09:00 sda", name: "sda",
            type: .other, mtime: "2024-05-30T09:00", precision: .minute),
        Row(
            note: "named pipe", line: "prw-r--r--   1 root  root    0 May 30 09:00 fifo", name: "fifo", type: .other,
            mtime: "2024-05-30T09:00", precision: .minute),
        Row(
            note: "H:MM without leading zero", line: "-rw-r--r-- 1 a b 7 Mar 3 9:07 early.log", name: "early.log",
            size: 7,
            mtime: "2024-03-03T09:07", precision: .minute),
        Row(
            note: "seconds in the time", line: "-rw-r--r-- 1 a b 7 2024-03-03 09:07:33 exact.log", name: "exact.log",
            size: 7, mtime: "2024-03-03T09:07:33", precision: .second),
        Row(
            note: "size above 2^32", line: "-rw-r--r-- 1 a b 5368709120 Jan  1  2021 big.iso", name: "big.iso",
            size: 5_368_709_120, mtime: "2021-01-01", precision: .day),
        Row(
            note: "size 2^63-1", line: "-rw-r--r-- 1 a b 9223372036854775807 Jan  1  2021 huge", name: "huge",
            size: 9_223_372_036_854_775_807, mtime: "2021-01-01", precision: .day),
        Row(
            note: "suffix size 3G", line: "-rw-r--r-- 1 a b 3G Jan  1  2021 disk.img", name: "disk.img",
            size: 3 << 30, exact: false, mtime: "2021-01-01", precision: .day),
        Row(
            note: "link target with spaces", line: "lrwxrwxrwx 1 a b 9 Jan  1  2021 my link -> my target",
            name: "my link", type: .link, mtime: "2021-01-01", precision: .day, target: "my target"),
        Row(
            note: "year rule: Jan 1 just after midnight of New Year's Eve", line: "-rw-r--r-- 1 a b 1 Jan  1 00:10 ny",
            now: "2024-12-31T23:30:00", name: "ny", size: 1, mtime: "2025-01-01T00:10", precision: .minute),
        Row(
            note: "year rule: Dec 31 seen on Jan 1", line: "-rw-r--r-- 1 a b 1 Dec 31 23:50 eve",
            now: "2024-01-01T00:30:00", name: "eve", size: 1, mtime: "2023-12-31T23:50", precision: .minute),
        Row(
            note: "year rule: Feb 29 seen in a non-leap year", line: "-rw-r--r-- 1 a b 1 Feb 29 10:00 leap",
            now: "2025-03-01T00:00:00", name: "leap", size: 1, mtime: "2024-02-29T10:00", precision: .minute),
        Row(
            note: "year rule: tomorrow (clock skew) stays this year", line: "-rw-r--r-- 1 a b 1 Jun 16 08:00 skew",
            name: "skew", size: 1, mtime: "2024-06-16T08:00", precision: .minute),
        Row(
            note: "DOS separate AM/PM and 4-digit year", line: "01-02-2020  09:05 PM   5368709120 2020 backup.zip",
            name: "2020 backup.zip", size: 5_368_709_120, mtime: "2020-01-02T21:05", precision: .minute),
        Row(
            note: "DOS thousands separators", line: "12-31-99  11:59PM      1,234,567 y2k.log", name: "y2k.log",
            size: 1_234_567, mtime: "1999-12-31T23:59", precision: .minute),
        Row(
            note: "DOS junction", line: "05-09-19  14:12       <JUNCTION>     Docs", name: "Docs", type: .link,
            mtime: "2019-05-09T14:12", precision: .minute),
        Row(
            note: "dir listed with a trailing slash", line: "drwxr-xr-x 2 a b 4096 Jan 10  2024 photos/",
            name: "photos", type: .dir, mtime: "2024-01-10", precision: .day),
    ]

    static func context(_ now: String, zone: TimeZone = utc) -> ListingContext {
        ListingContext(now: ExpectedTime.instant(now, zone: zone)!, timeZone: zone)
    }

    @Test(arguments: listRows)
    func listLine(_ row: Row) {
        row.check()
    }

    @Test(arguments: [
        "total 0", "insgesamt 1024", "итого 8", "", "   ", "ls: cannot open directory .: Permission denied",
        "226 Transfer complete", "drwxr-xr-x 2 0 0 4096 Apr 02  2009 .", "drwxr-xr-x 2 0 0 4096 Apr 02  2009 ..",
    ])
    func noiseIsIgnoredSilently(_ line: String) {
        #expect(
            ListingParser.parseLine(Array(line.utf8), format: .list, context: Self.context("2024-06-15T12:00"))
                == .ignored)
    }

    @Test(arguments: [
        "this is not a listing line", "-rw-r--r-- 1 a b 12 Feb 30  2020 no-such-day",
        "-rw-r--r-- 1 a b 12 sub/dir.txt Jan 1 2020", "-rw-r--r-- 1 a b 12 Jan  1  2020 a/b",
        "02-30-20  10:00AM   1 feb30.txt", "01-02-20  13:00PM   1 pm13.txt",
    ])
    func unreadableLinesAreRejectedWithTheLine(_ line: String) {
        let result = ListingParser.parseLine(Array(line.utf8), format: .list, context: Self.context("2024-06-15T12:00"))
        guard case .rejected(let message) = result else {
            Issue.record("not rejected: \(result)")
            return
        }
        #expect(message.contains(line))
    }

    /// A bad line costs one warning; the lines around it are used; CR inside a name is kept.
    @Test func badLineInTheMiddle() {
        let data = Array(
            "-rw-r--r-- 1 a b 1 Jan  1  2020 one\r\ngarbage here\r\n-rw-r--r-- 1 a b 2 Jan  1  2020 two\rcr\r\n".utf8)
        let parsed = ListingParser.parse(data, format: .list, context: Self.context("2024-06-15T12:00"))
        #expect(parsed.entries.map(\.name) == ["one", "two\rcr"])
        #expect(parsed.warnings.count == 1)
        #expect(parsed.warnings.first?.contains("\"garbage here\"") == true)
    }

    /// LIST times are wall-clock in the device's zone, DST included (offset cache per hour).
    @Test func daylightSavingZone() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let context = ListingContext(now: Date(timeIntervalSince1970: 1_718_452_800), timeZone: berlin)
        let data = Array(
            "-rw-r--r-- 1 a b 1 2024-07-01 12:00 summer\n-rw-r--r-- 1 a b 1 2024-01-15 12:00 winter\n".utf8)
        let parsed = ListingParser.parse(data, format: .list, context: context)
        #expect(
            parsed.entries.map(\.modified?.date) == [
                ExpectedTime.instant("2024-07-01T10:00:00Z", zone: Self.utc),
                ExpectedTime.instant("2024-01-15T11:00:00Z", zone: Self.utc),
            ])
    }
}
