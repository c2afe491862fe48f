// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Lines whose first token is a number 100...599 — a size or a name, not a leaked reply — are
/// read by their format; only a line no parser reads and that looks like a reply is skipped.
struct ReplyCodeLikeLineTests {
    typealias Row = ListingRow

    static let rows: [Row] = [
        Row(
            note: "VxWorks file of 150 bytes", line: "  150   Jul-03-2000  19:30:54   config.txt", name: "config.txt",
            size: 150, mtime: "2000-07-03T19:30:54"),
        Row(
            note: "VxWorks file of 599 bytes", line: "599    Feb-28-1998  05:23:30   boot.ini", name: "boot.ini",
            size: 599, mtime: "1998-02-28T05:23:30"),
        Row(
            note: "OS/2 file of 226 bytes", line: "226      A          11-17-98   16:07  OS2FILE.TXT",
            name: "OS2FILE.TXT", size: 226, mtime: "1998-11-17T16:07"),
        Row(
            note: "VShell file of 421 bytes", line: "421  Apr 04, 2000 21:06 vshell.txt", name: "vshell.txt", size: 421,
            mtime: "2000-04-04T21:06"),
        Row(
            note: "wfFtp file named 200", line: "200       1014196  06/03/04  Thur.   10:20:03", name: "200",
            size: 1_014_196, mtime: "2004-06-03T10:20:03"),
        Row(
            note: "z/VM file named 123 EXEC",
            line: "123      EXEC     V         65        107          2 2005-10-04 15:28:42 060191",
            name: "123.EXEC", size: 65 * 107, exact: false, mtime: "2005-10-04T15:28:42"),
    ]

    @Test(arguments: rows)
    func numberFirstLineIsAnEntry(_ row: Row) {
        row.check()
    }

    /// Reply lines that leaked into the data are still skipped silently.
    @Test(arguments: [
        "226 Transfer complete", "226 Transfer complete.", "150 Opening BINARY mode data connection for file list",
        "226-Options: -a -l", "250 OK", "125 Data connection already open; transfer starting.",
        "550 /nothing: No such file or directory",
    ])
    func leakedReplyIsIgnored(_ line: String) {
        #expect(ListingRow(note: line, line: line, name: "").parse() == .ignored)
    }
}
