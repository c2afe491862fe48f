// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Tokens that are part of a date or time, as a UNIX-style line may show them in a layout the
/// parser does not read. A line read without a date (or with a padded day-only one) whose name
/// would start with one is rejected: the name would carry an unread date and the entry's time
/// would be lost.
extension DateTokens {
    /// True when the token that starts at or after `from` (blanks skipped) looks like a time
    /// (`10:20`, `10:20:33.5`), a zone offset (`+0800`), or a date: digits with `-./:`
    /// separators (`2024-05-12T10:20`), a month name glued to digits or separators (`12.May`,
    /// `May-12`), or digits followed by a CJK date mark (`2024年5月`).
    static func startsWithDateFragment(_ l: Line, _ from: Int) -> Bool {
        var s = from
        let n = l.count
        while s < n && Byte.isBlank(l[s]) { s += 1 }
        var e = s
        while e < n && !Byte.isBlank(l[e]) { e += 1 }
        guard s < e else { return false }
        if zoneOffset(l, s, e) != nil { return true }
        var digits = 0
        var separators = 0
        var monthName = false
        var i = s
        while i < e {
            let b = l[i]
            if Byte.isDigit(b) {
                digits += 1
                i += 1
                if i + 3 <= e, cjkMark(l, i) != nil { return true }
            } else if b == 0x2D || b == 0x2E || b == 0x2F || b == 0x3A {
                separators += 1
                i += 1
            } else if (b | 0x20) &- 0x61 < 26 {
                var j = i
                while j < e && (l[j] | 0x20) &- 0x61 < 26 { j += 1 }
                let afterDigit = i > s && Byte.isDigit(l[i - 1])
                let isoT = (b | 0x20) == 0x74 && j < e && Byte.isDigit(l[j])  // "2024-05-12T10:20"
                let isoZ = (b | 0x20) == 0x7A && j == e  // "10:20:00Z"
                if j - i == 1 && afterDigit && (isoT || isoZ) {
                    separators += 1
                } else if month(l, i, j) != nil {
                    monthName = true
                } else {
                    return false
                }
                i = j
            } else {
                return false
            }
        }
        return digits > 0 && (separators > 0 || monthName)
    }

}
