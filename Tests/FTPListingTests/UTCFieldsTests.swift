// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import Testing

/// The one UTC formatter of the package (`UTCFields`): its ISO 8601 forms.
struct UTCFieldsTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z", "19700101T000000Z"),
        (1_795_953_600.9, "2026-11-29T12:00:00Z", "20261129T120000Z"),
        (-1.5, "1969-12-31T23:59:58Z", "19691231T235958Z"),
        (951_782_400, "2000-02-29T00:00:00Z", "20000229T000000Z"),
    ])
    func isoForms(seconds: Double, extended: String, basic: String) {
        let fields = UTCFields(Date(timeIntervalSince1970: seconds))
        #expect(fields.iso8601 == extended)
        #expect(fields.basicStamp == basic)
    }

    @Test func damagedInstantsNeverTrap() {
        #expect(UTCFields(Date(timeIntervalSince1970: .nan)).iso8601 == "1970-01-01T00:00:00Z")
        #expect(UTCFields(Date(timeIntervalSince1970: .infinity)).year > 3000)
        #expect(UTCFields(Date(timeIntervalSince1970: -.infinity)).year < -1000)
    }

    /// A trash folder's name back to its instant (`trash_retention` ages folders by it).
    @Test(arguments: [0.0, 1_795_953_600, -1, 951_782_400, 4_102_444_799])
    func aBasicStampReadsBackAsItsSecond(seconds: Double) {
        let stamp = UTCFields(Date(timeIntervalSince1970: seconds)).basicStamp
        #expect(UTCFields.date(basicStamp: stamp) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "", "20261129T120000", "20261129T120000Z~1", "20261129 120000Z", "2026112XT120000Z", "20260230T120000Z",
        "20261129T240000Z", "20261129T126000Z", "20261129T120060Z", "20261129t120000z", "２0261129T120000Z",
        "-2026112T120000Z", "keep-me",
    ])
    func otherNamesAreNotStamps(name: String) {
        #expect(UTCFields.date(basicStamp: name) == nil)
    }
}
