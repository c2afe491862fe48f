// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// The real-world cases of ftp-cases.json (a copy in Fixtures), loaded once.
enum CaseFile {
    /// Categories whose cases are listings; MS-11 (misc) is a LIST case too.
    static let listingCategories: Set<String> = ["unix_list", "dos_list", "mlsd", "encoding"]
    static let extraListingIDs: Set<String> = ["MS-11"]
    /// Encoding cases that are not about listings (OPTS UTF8 belongs to FTPClient).
    static let notListingIDs: Set<String> = ["EN-04"]

    /// All cases of the file (read on each call: `[String: Any]` is not Sendable, so no static).
    static func all() -> [[String: Any]] {
        guard let url = Bundle.module.url(forResource: "ftp-cases", withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        return list
    }

    /// Ids of the listing cases, in file order.
    static let listingIDs: [String] = all().compactMap { item in
        guard let id = item["id"] as? String, let category = item["category"] as? String else { return nil }
        if notListingIDs.contains(id) { return nil }
        return listingCategories.contains(category) || extraListingIDs.contains(id) ? id : nil
    }

    static func item(_ id: String) -> [String: Any]? {
        all().first { $0["id"] as? String == id }
    }

    /// The input as exact bytes: the file writes non-UTF-8 bytes as the four characters `\xNN`.
    static func bytes(of input: String) -> [UInt8] {
        let utf8 = Array(input.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < utf8.count {
            if utf8[i] == 0x5C, i + 3 < utf8.count, utf8[i + 1] == 0x78,
                let value = UInt8(String(decoding: utf8[(i + 2)...(i + 3)], as: UTF8.self), radix: 16)
            {
                out.append(value)
                i += 4
            } else {
                out.append(utf8[i])
                i += 1
            }
        }
        return out
    }
}

/// Builds instants the slow, obvious way (Foundation `Calendar`), independent of the parser's arithmetic.
enum ExpectedTime {
    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`, `YYYY-MM-DDTHH:MM:SS[.fff]` read as wall-clock time in `zone`
    /// (a trailing `Z` means UTC).
    static func instant(_ text: String, zone: TimeZone) -> Date? {
        var body = Substring(text)
        var zone = zone
        if body.hasSuffix("Z") {
            body = body.dropLast()
            zone = TimeZone(identifier: "UTC")!
        }
        let parts = body.split(separator: "T")
        let ymd = parts[0].split(separator: "-").compactMap { Int($0) }
        guard ymd.count == 3 else { return nil }
        var components = DateComponents(year: ymd[0], month: ymd[1], day: ymd[2], hour: 0, minute: 0, second: 0)
        var fraction = 0.0
        if parts.count == 2 {
            let hms = parts[1].split(separator: ":")
            components.hour = Int(hms[0])
            components.minute = Int(hms[1])
            if hms.count == 3 {
                let seconds = Double(hms[2]) ?? 0
                components.second = Int(seconds)
                fraction = seconds - Double(Int(seconds))
            }
        }
        return calendar(zone).date(from: components).map { $0.addingTimeInterval(fraction) }
    }
}
