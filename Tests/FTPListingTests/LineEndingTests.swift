// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Lines ended by CR CR LF: both CRs are dropped when every line of the listing ends so, one
/// otherwise (a name may end in CR).
struct LineEndingTests {
    static let context = ListingContext(now: Date(timeIntervalSince1970: 1_718_452_800))

    static func names(_ data: String) -> [String] {
        ListingParser.parse(Array(data.utf8), format: .list, context: context).entries.map(\.name)
    }

    @Test func everyLineCRCRLF() {
        let data =
            "05-22-97  08:08AM                  828 a.txt\r\r\n"
            + "-rw-r--r--   1 u  g   5 Jan 01  2024 b.txt\r\r\n"
        #expect(Self.names(data) == ["a.txt", "b.txt"])
    }

    @Test func lastLineWithoutLF() {
        let data = "05-22-97  08:08AM   828 a.txt\r\r\n05-22-97  08:08AM   9 b.txt\r\r"
        #expect(Self.names(data) == ["a.txt", "b.txt"])
    }

    @Test func lastLineCutShort() {
        let data = "05-22-97  08:08AM   828 a.txt\r\r\n05-22-97  08:08AM   9 b.txt\r\r\n05-22-97  08:08AM   9 c.t"
        #expect(Self.names(data) == ["a.txt", "b.txt", "c.t"])
    }

    @Test func mixedEndingsKeepANameThatEndsInCR() {
        let data =
            "-rw-r--r--   1 u  g   5 Jan 01  2024 ends-in-cr\r\r\n"
            + "-rw-r--r--   1 u  g   5 Jan 01  2024 plain\r\n"
        #expect(Self.names(data) == ["ends-in-cr\r", "plain"])
    }

    /// Blank lines and `total N` may end otherwise: they do not decide the line ending.
    @Test(arguments: [
        "-rw-r--r-- 1 u g 5 Jan 01  2024 a\r\r\n-rw-r--r-- 1 u g 5 Jan 01  2024 b\r\r\n \r\n",
        "total 2\r\n-rw-r--r-- 1 u g 5 Jan 01  2024 a\r\r\n-rw-r--r-- 1 u g 5 Jan 01  2024 b\r\r\n",
        "\r\n-rw-r--r-- 1 u g 5 Jan 01  2024 a\r\r\n\n-rw-r--r-- 1 u g 5 Jan 01  2024 b\r\r\ntotal 2\n",
        "insgesamt 8\n-rw-r--r-- 1 u g 5 Jan 01  2024 a\r\r\n-rw-r--r-- 1 u g 5 Jan 01  2024 b\r\r\n\t\r\n",
    ])
    func blankAndTotalLinesDoNotCount(_ data: String) {
        #expect(Self.names(data) == ["a", "b"])
    }

    @Test func mlsdCRCRLF() {
        let data = "type=file;size=1; a\r\r\ntype=dir; b\r\r\n"
        let parsed = ListingParser.parse(Array(data.utf8), format: .mlsd, context: Self.context)
        #expect(parsed.entries.map(\.name) == ["a", "b"])
    }
}
