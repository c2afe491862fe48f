// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Readers for dates written as one token of digits and separators, as UNIX-style lines from
/// embedded and localized servers show them. Fields are not checked against the calendar here.
extension DateTokens {
    /// `YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY.MM.DD` (year first), or `DD-MM-YYYY`, `DD.MM.YYYY`
    /// (year last; `/` is left out there: `MM/DD/YYYY` would read the same).
    static func numericDate(_ l: Line, _ from: Int, _ to: Int) -> (year: Int, month: Int, day: Int)? {
        guard to - from == 10, let date = NumericDate.scan(l, from, to) else { return nil }
        let (a, b, c) = date.fields
        switch date.widths {
        case (4, 2, 2) where a >= 1900: return (a, b, c)
        case (2, 2, 4) where date.separator != 0x2F && c >= 1900: return (c, b, a)
        default: return nil
        }
    }

    /// `DD-mon-YY` or `DD-mon-YYYY` (`01-jun-99`), also with `.` or `/` (`12.May.2024`): the
    /// year as written (two or four digits).
    static func dayMonthNameYear(_ l: Line, _ from: Int, _ to: Int) -> (year: Int, month: Int, day: Int)? {
        guard to - from >= 8, to - from <= 13 else { return nil }
        var sep1 = from
        while sep1 < to && Byte.isDigit(l[sep1]) { sep1 += 1 }
        guard sep1 - from >= 1, sep1 - from <= 2, sep1 < to, isDateSeparator(l[sep1]) else { return nil }
        var sep2 = to
        while sep2 > sep1 + 1 && Byte.isDigit(l[sep2 - 1]) { sep2 -= 1 }
        let yearDigits = to - sep2
        guard yearDigits == 2 || yearDigits == 4, l[sep2 - 1] == l[sep1], sep2 - 1 > sep1 + 1,
            !Byte.isDigit(l[sep1 + 1]), let day = l.smallNumber(from, sep1),
            let month = month(l, sep1 + 1, sep2 - 1), let year = l.smallNumber(sep2, to),
            yearDigits == 2 || year >= 1900
        else { return nil }
        return (year, month, day)
    }

    /// `Mon-DD-YYYY` (`May-12-2024`), also with `.` or `/`.
    static func monthNameDayYear(_ l: Line, _ from: Int, _ to: Int) -> (year: Int, month: Int, day: Int)? {
        guard to - from >= 8, to - from <= 16, Byte.isDigit(l[to - 1]), !Byte.isDigit(l[from]) else { return nil }
        let sep2 = to - 5
        guard isDateSeparator(l[sep2]), let year = l.smallNumber(sep2 + 1, to), year >= 1900 else { return nil }
        var sep1 = sep2
        while sep1 > from && Byte.isDigit(l[sep1 - 1]) { sep1 -= 1 }
        sep1 -= 1
        guard sep2 - sep1 - 1 >= 1, sep2 - sep1 - 1 <= 2, sep1 > from, l[sep1] == l[sep2],
            let day = l.smallNumber(sep1 + 1, sep2), let month = month(l, from, sep1)
        else { return nil }
        return (year, month, day)
    }

    /// CJK dates without blanks: `2024年5月12日` (year optional, `5月12日`), Korean marks too.
    static func compactCJKDate(_ l: Line, _ from: Int, _ to: Int) -> (year: Int?, month: Int, day: Int)? {
        guard to - from >= 8, to - from <= 21, Byte.isDigit(l[from]) else { return nil }
        var year: Int? = nil
        var month: Int? = nil
        var i = from
        while i < to {
            let s = i
            while i < to && i - s < 5 && Byte.isDigit(l[i]) { i += 1 }
            guard i > s, i + 3 <= to, l[i] >= 0x80, let n = numberWithSuffix(l, s, i + 3) else { return nil }
            i += 3
            switch n.suffix {
            case .year where year == nil && month == nil && n.value >= 1900: year = n.value
            case .month where month == nil: month = n.value
            case .day:
                guard let month, i == to else { return nil }
                return (year, month, n.value)
            default: return nil
            }
        }
        return nil
    }

    /// `-`, `.` or `/`.
    @inline(__always) static func isDateSeparator(_ b: UInt8) -> Bool { b == 0x2D || b == 0x2E || b == 0x2F }

    /// `MM-DD` (`09-26`), the year or time in the next token.
    static func monthDashDay(_ l: Line, _ from: Int, _ to: Int) -> (month: Int, day: Int)? {
        guard to - from == 5, l[from + 2] == 0x2D, let month = l.smallNumber(from, from + 2),
            let day = l.smallNumber(from + 3, from + 5), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return (month, day)
    }

    /// One or two digits and nothing else.
    static func plainNumber(_ l: Line, _ from: Int, _ to: Int) -> Int? {
        guard to - from <= 2 else { return nil }
        return l.smallNumber(from, to)
    }
}
