// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Embedded and size-first LIST formats (VxWorks, VShell, Nortel wfFtp), EPLF, and MLSD lines
/// whose name follows a TAB.
struct EmbeddedFormatTests {
    typealias Row = ListingRow

    static let rows: [Row] = [
        Row(
            note: "VxWorks folder, <DIR> after the name",
            line: "2048    Feb-28-1998  05:23:30   configs dir <DIR>", name: "configs dir", type: .dir,
            mtime: "1998-02-28T05:23:30"),
        Row(
            note: "VxWorks file", line: "   51200    Mar-1-2024  17:05:09   boot.rom", name: "boot.rom",
            size: 51200, mtime: "2024-03-01T17:05:09"),
        Row(
            note: "VxWorks file with a name of two words",
            line: "12    Dec-31-2023  23:59:59   run log.txt  ", name: "run log.txt", size: 12,
            mtime: "2023-12-31T23:59:59"),
        Row(
            note: "VShell file, size first", line: "318554  May 07, 2001 22:17 camera export.bin",
            name: "camera export.bin", size: 318_554, mtime: "2001-05-07T22:17"),
        Row(
            note: "VShell folder, name ending in '/'", line: "0  Nov 23, 2003 03:24 night shots/", name: "night shots",
            type: .dir, mtime: "2003-11-23T03:24"),
        Row(
            note: "Nortel wfFtp router file", line: "router-boot-image          2025307  07/14/05  Thur.   11:31:04",
            name: "router-boot-image", size: 2_025_307, mtime: "2005-07-14T11:31:04"),
        Row(
            note: "EPLF file", line: "+i8388621.48594,m825718503,r,s280,up755\tnotes one.txt", name: "notes one.txt",
            size: 280, mtime: "1996-03-01T22:15:03"),
        Row(
            note: "EPLF folder", line: "+i8388621.50690,m824255907,/,\tarchive", name: "archive", type: .dir,
            mtime: "1996-02-13T23:58:27"),
        Row(
            note: "MLSD in a LIST reply, TAB before a name that looks like a date",
            line: "size=1365694195;type=file;modify=20090722092510;\tcam 2009-07-22 08-25-10 clip.ts",
            name: "cam 2009-07-22 08-25-10 clip.ts", size: 1_365_694_195, mtime: "2009-07-22T09:25:10"),
        Row(
            note: "MLSD TAB before the name",
            line: "type=file;size=12;modify=20240501102000;\t2024-05-01 10-20 report.pdf", format: .mlsd,
            name: "2024-05-01 10-20 report.pdf", size: 12, mtime: "2024-05-01T10:20:00"),
    ]

    static let zone = TimeZone(identifier: "UTC")!

    @Test(arguments: rows)
    func reads(_ row: Row) {
        row.check()
    }

    /// Shapes close to these that must not be taken for them.
    @Test(arguments: [
        "2048    Feb-30-1998  05:23:30   no such day",
        "+i8388621.48594,m825718503,r,s280 no tab",
        "2048    Feb-28-1998  05:23   no seconds",
        "318554  May 07 2001 22:17 no comma after the day",
        "router-boot-image  2025307  07/34/05  Thur.   11:31:04",
    ])
    func rejectsNearMisses(_ line: String) {
        let context = ListingContext(now: Date(timeIntervalSince1970: 1_718_452_800))
        let parsed = ListingParser.parse(Array(line.utf8), format: .list, context: context)
        #expect(parsed.entries.isEmpty, "\(parsed.entries)")
    }
}
