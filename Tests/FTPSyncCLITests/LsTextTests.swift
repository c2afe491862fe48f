// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import Testing

@testable import FTPSyncCLI

/// `ftpsync ls`'s text lines: times in UTC without hiding what the listing gave.
struct LsTextTests {
    static func line(_ entry: ListingEntry) -> String { LsListing.text([entry]) }

    @Test func aDayPreciseTimeOfAnotherZoneShowsItsUTCHour() {
        // `Sep 09 2021` from a device at +08:00: 2021-09-08 16:00 UTC, not "2021-09-08" alone.
        let date = Date(timeIntervalSince1970: 1_631_145_600 - 8 * 3600)
        let entry = ListingEntry(
            name: "a.txt", type: .file, size: 1, modified: ListedTime(date: date, precision: .day), mode: "rw-r--r--")
        #expect(Self.line(entry).contains("2021-09-08 16:00 a.txt"))
        let midnight = ListingEntry(
            name: "b.txt", type: .file, size: 1,
            modified: ListedTime(date: Date(timeIntervalSince1970: 1_631_145_600), precision: .day), mode: "rw-r--r--")
        #expect(Self.line(midnight).contains(" 2021-09-09 b.txt"))
    }

    @Test func secondsAreShownWhenTheListingGivesThem() {
        let entry = ListingEntry(
            name: "v.txt", type: .file, size: 1,
            modified: ListedTime(date: Date(timeIntervalSince1970: 1_714_558_830), precision: .second))
        #expect(Self.line(entry).contains("2024-05-01 10:20:30 v.txt"))
    }

    @Test func aModeNotGivenIsNotShownAsNoPermissions() {
        let entry = ListingEntry(name: "d.txt", type: .file, size: 1)
        #expect(Self.line(entry).hasPrefix("-????????? "))
        #expect(!Self.line(entry).contains("----------"))
    }
}
