/// Readers for dates written as one token of digits and separators, as UNIX-style lines from
/// embedded and localized servers show them. Fields are not checked against the calendar here.
extension DateTokens {
    /// `YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY.MM.DD` (year first), or `DD-MM-YYYY`, `DD.MM.YYYY`
    /// (year last; `/` is left out there: `MM/DD/YYYY` would read the same).
    static func numericDate(_ l: Line, _ from: Int, _ to: Int) -> (year: Int, month: Int, day: Int)? {
        guard to - from == 10 else { return nil }
        let a = l[from + 4]
        if (a == 0x2D || a == 0x2F || a == 0x2E) && l[from + 7] == a {
            guard let year = l.smallNumber(from, from + 4), let month = l.smallNumber(from + 5, from + 7),
                let day = l.smallNumber(from + 8, from + 10), year >= 1900
            else { return nil }
            return (year, month, day)
        }
        let b = l[from + 2]
        if (b == 0x2D || b == 0x2E) && l[from + 5] == b {
            guard let day = l.smallNumber(from, from + 2), let month = l.smallNumber(from + 3, from + 5),
                let year = l.smallNumber(from + 6, from + 10), year >= 1900
            else { return nil }
            return (year, month, day)
        }
        return nil
    }

    /// `DD-mon-YY` or `DD-mon-YYYY` (`01-jun-99`): the year as written (two or four digits).
    static func dayMonthNameYear(_ l: Line, _ from: Int, _ to: Int) -> (year: Int, month: Int, day: Int)? {
        guard to - from >= 8, to - from <= 13 else { return nil }
        var dash1 = from
        while dash1 < to && Byte.isDigit(l[dash1]) { dash1 += 1 }
        guard dash1 - from >= 1, dash1 - from <= 2, dash1 < to, l[dash1] == 0x2D else { return nil }
        var dash2 = to
        while dash2 > dash1 + 1 && Byte.isDigit(l[dash2 - 1]) { dash2 -= 1 }
        let yearDigits = to - dash2
        guard yearDigits == 2 || yearDigits == 4, l[dash2 - 1] == 0x2D, dash2 - 1 > dash1 + 1,
            let day = l.smallNumber(from, dash1), let month = month(l, dash1 + 1, dash2 - 1),
            let year = l.smallNumber(dash2, to), yearDigits == 2 || year >= 1900
        else { return nil }
        return (year, month, day)
    }

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
