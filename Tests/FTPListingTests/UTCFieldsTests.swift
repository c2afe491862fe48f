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
}
