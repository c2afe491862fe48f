// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// OpenVMS listings as a whole: headers and totals, entries on two lines, several versions of a file.
struct VMSListingTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let context = ListingContext(now: ExpectedTime.instant("2024-06-15T12:00:00", zone: utc)!, timeZone: utc)

    static func parse(_ text: String) -> ParsedListing {
        ListingParser.parse(Array(text.utf8), format: .list, context: context)
    }

    /// A MultiNet-style `DIR/SIZE/DATE/OWNER/PROTECTION` listing with its header, blank lines,
    /// a long name on a line of its own, a folder and the totals.
    static let listing = """
        Directory USER1:[PROJECTS.WEB]

        AAREADME.TXT;3            4/6      12-MAR-2024 09:15:22.10  [WEB,WEBMASTER]  (RWED,RWED,RE,)
        AAREADME.TXT;2            3/6      11-MAR-2024 17:02:01.55  [WEB,WEBMASTER]  (RWED,RWED,RE,)
        BUILD_AND_DEPLOY_EVERYTHING_NIGHTLY.COM;14
                                 12/15      2-FEB-2024 23:59:59.99  [WEB,WEBMASTER]  (RWED,RWED,RE,)
        IMAGES.DIR;1              1/3       5-JAN-2023 08:00:00.00  [WEB,WEBMASTER]  (RWE,RWE,RE,RE)
        SECRET.DAT;1         %RMS-E-PRV, insufficient privilege or file protection violation

        Total of 4 files, 20/30 blocks.

        Grand total of 1 directory, 4 files, 20/30 blocks.

        """

    @Test func listingGivesOneEntryPerFileAndNoWarnings() {
        let parsed = Self.parse(Self.listing)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        #expect(
            parsed.entries.map(\.name) == [
                "AAREADME.TXT", "BUILD_AND_DEPLOY_EVERYTHING_NIGHTLY.COM", "IMAGES", "SECRET.DAT",
            ])
        #expect(parsed.entries.map(\.type) == [.file, .file, .dir, .file])
    }

    @Test func newestVersionIsTheOneKept() throws {
        let entry = try #require(Self.parse(Self.listing).entries.first)
        #expect(entry.size == 4 * 512)
        #expect(!entry.sizeIsExact)
        #expect(entry.modified?.date == ExpectedTime.instant("2024-03-12T09:15:22.10", zone: Self.utc))
        #expect(entry.modified?.precision == .subsecond)
    }

    @Test func continuationLineCarriesTheFields() throws {
        let entry = try #require(Self.parse(Self.listing).entries.dropFirst().first)
        #expect(entry.size == 12 * 512)
        #expect(entry.modified?.date == ExpectedTime.instant("2024-02-02T23:59:59.99", zone: Self.utc))
    }

    @Test func unreadableFileHasNameOnly() throws {
        let entry = try #require(Self.parse(Self.listing).entries.last)
        #expect(entry.size == nil && entry.modified == nil)
    }

    /// A lone name whose fields do not follow gives a warning quoting it, never silence; the
    /// line after it is still read by itself.
    @Test(arguments: [
        ("ORPHAN.TXT;1\nNEXT.TXT;2                1  1-JAN-2024 00:00  [A,B]  (RWED,RWED,,)\n", ["NEXT.TXT"]),
        ("ORPHAN.TXT;1\n\nNEXT.TXT;2  1  1-JAN-2024 00:00\n", ["NEXT.TXT"]),
        ("NEXT.TXT;2  1  1-JAN-2024 00:00\nORPHAN.TXT;1\n\nTotal of 2 files, 2/32 blocks.\n", ["NEXT.TXT"]),
        ("NEXT.TXT;2  1  1-JAN-2024 00:00\nORPHAN.TXT;1\nTotal of 2 files, 2/32 blocks.\n", ["NEXT.TXT"]),
        ("NEXT.TXT;2  1  1-JAN-2024 00:00\nORPHAN.TXT;1\n", ["NEXT.TXT"]),
        ("NEXT.TXT;2  1  1-JAN-2024 00:00\nORPHAN.TXT;1", ["NEXT.TXT"]),
        ("ORPHAN.TXT;1\nSECOND.TXT;1\n  1  1-JAN-2024 00:00\n", ["SECOND.TXT"]),
    ])
    func loneNameWithoutFieldsIsReported(_ text: String, _ names: [String]) {
        let parsed = Self.parse(text)
        #expect(parsed.entries.map(\.name) == names)
        #expect(parsed.warnings.count == 1, "\(parsed.warnings)")
        #expect(parsed.warnings.first?.contains("\"ORPHAN.TXT;1\"") == true, "\(parsed.warnings)")
    }

    /// One line alone cannot carry a lone name's fields.
    @Test func loneNameAloneIsRejected() {
        let parsed = ListingParser.parseLine(Array("ORPHAN.TXT;1".utf8), format: .list, context: Self.context)
        guard case .rejected(let message) = parsed else {
            Issue.record("not rejected: \(parsed)")
            return
        }
        #expect(message.contains("ORPHAN.TXT;1"))
    }

    /// The highest version is kept whatever the order the versions are listed in.
    @Test(arguments: [[1, 2, 3], [3, 2, 1], [2, 3, 1], [1, 3, 2]])
    func highestVersionIsKept(_ order: [Int]) throws {
        var text = "Directory DISK$USER:[ME]\n\n"
        for v in order { text += "REPORT.TXT;\(v)  \(v)/16  \(v)-JUN-2020 07:32:04.15  [G,O]  (RWED,RWED,RE,)\n" }
        text += "OTHER.TXT;1  1/16  9-JUN-2020 07:32:04.15\n\nTotal of 4 files, 8/64 blocks.\n"
        let parsed = Self.parse(text)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        #expect(parsed.entries.map(\.name) == ["REPORT.TXT", "OTHER.TXT"])
        let report = try #require(parsed.entries.first)
        #expect(report.size == 3 * 512)
        #expect(report.modified?.date == ExpectedTime.instant("2020-06-03T07:32:04.15", zone: Self.utc))
    }

    /// VMS names are case-insensitive: `a.txt;2` after `A.TXT;3` is an older version.
    @Test func versionsAreMatchedIgnoringCase() {
        let parsed = Self.parse(
            "A.TXT;3  1  1-JAN-2024 00:00\na.txt;2  1  1-JAN-2023 00:00\nB.TXT;1  1  1-JAN-2023 00:00\n")
        #expect(parsed.entries.map(\.name) == ["A.TXT", "B.TXT"])
    }

    static let rejected = [
        "FILE.TXT;1   5/5   2-JUN-98 07:32:04  [G,O]  (RWED,RWED,RWED,)",  // two-digit year
        "FILE.TXT;1   x/5   2-JUN-1998 07:32:04",  // size not a number
        "FILE.TXT;1   5/5   2-JUN-1998 07:32:04 PM",  // 12-hour clock
        "FILE.TXT;1   5/5   2-XYZ-1998 07:32:04",  // no such month
        "FILE.TXT;1   5/5   31-FEB-1998 07:32:04",  // no such day
        "FILE.TXT;1   5/5   2-JUN-1998 07:32:04  (RWEDX,RWED,RE,)",  // protection letter
        "FILE.TXT;1   5/5   2-JUN-1998 07:32:04  [GROUP-1,OWNER]",  // owner character
        "FILE.TXT;1   99999999999999999999/5   2-JUN-1998 07:32:04",  // size beyond UInt64
        "FILE.TXT;1   36028797018963968   2-JUN-1998 07:32:04",  // blocks x 512 beyond UInt64
        "FILE.TXT;1   5/5   07:32:04",  // no date
    ]

    @Test(arguments: rejected)
    func malformedLinesAreRejected(_ line: String) {
        let parsed = Self.parse(line + "\n")
        #expect(parsed.entries.isEmpty)
        #expect(parsed.warnings.count == 1)
    }

    static let noise = [
        "Directory USER1:[TEMP]", "Directory DKA0:[000000]", "Total of 4 files, 12/64 blocks.", "Total 14 files",
        "Grand total of 2 directories, 10 files, 100/200 blocks.",
    ]

    @Test(arguments: noise)
    func headersAndTotalsAreIgnoredSilently(_ line: String) {
        let parsed = Self.parse(line + "\n")
        #expect(parsed.entries.isEmpty && parsed.warnings.isEmpty, "\(parsed.warnings)")
    }
}
