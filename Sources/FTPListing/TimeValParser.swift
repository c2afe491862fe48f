// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// RFC 3659 §2.3 `time-val`: `YYYYMMDDHHMMSS[.F...]`, always UTC.
enum TimeValParser {
    /// Parses a time-val; nil when a field is missing, not a digit or out of range.
    static func parse(_ text: Line) -> ListedTime? {
        var n = text.count
        while n > 0 && Byte.isBlank(text[n - 1]) { n -= 1 }
        var digitsEnd = 0
        while digitsEnd < n && Byte.isDigit(text[digitsEnd]) { digitsEnd += 1 }
        var yearDigits = 4
        if digitsEnd == 15 && text[0] == 0x31 && text[1] == 0x39 && text[2] == 0x31 {
            yearDigits = 5  // "19100" = 1900 + 100, printed by servers that prefixed "19" to tm_year
        } else if digitsEnd != 14 {
            return nil
        }
        guard var year = text.smallNumber(0, yearDigits) else { return nil }
        if yearDigits == 5 { year = 1900 + (year - 19_000) }
        let p = yearDigits
        guard let month = text.smallNumber(p, p + 2), let day = text.smallNumber(p + 2, p + 4),
            let hour = text.smallNumber(p + 4, p + 6), let minute = text.smallNumber(p + 6, p + 8),
            let second = text.smallNumber(p + 8, p + 10),
            CivilTime.isValid(year: year, month: month, day: day), hour < 24, minute < 60, second <= 60
        else { return nil }
        let whole = CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        if digitsEnd == n {
            return ListedTime(date: Date(timeIntervalSince1970: Double(whole)), precision: .second)
        }
        guard text[digitsEnd] == 0x2E, digitsEnd + 1 < n else { return nil }
        var fraction = 0.0
        var scale = 0.1
        for i in (digitsEnd + 1)..<n {
            let d = text[i] &- Byte.zero
            guard d < 10 else { return nil }
            fraction += Double(d) * scale
            scale /= 10
        }
        return ListedTime(date: Date(timeIntervalSince1970: Double(whole) + fraction), precision: .subsecond)
    }
}
