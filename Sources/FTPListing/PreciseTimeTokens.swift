// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Readers for the finer times of UNIX-style lines: `ls --full-time` (`10:20:33.123456789 +0800`),
/// `--time-style=long-iso` with fractions, and ISO 8601 date-times written as one token.
extension DateTokens {
    /// A time of day as `time` reads it, perhaps with a fraction of a second after the seconds
    /// (`10:20:33.123`, at most 9 digits): the fraction in seconds, nil when not listed.
    static func preciseTime(_ l: Line, _ from: Int, _ to: Int) -> (
        clock: (hour: Int, minute: Int, second: Int?), fraction: Double?
    )? {
        if let clock = time(l, from, to) { return (clock, nil) }
        var dot = from
        while dot < to && l[dot] != 0x2E { dot += 1 }
        guard dot < to, to - dot >= 2, to - dot <= 10, let clock = time(l, from, dot), clock.second != nil,
            let digits = l.smallNumber(dot + 1, to)
        else { return nil }
        var scale = 1.0
        for _ in (dot + 1)..<to { scale *= 10 }
        return (clock, Double(digits) / scale)
    }

    /// A zone offset `+HHMM`, `-HHMM`, `+HH:MM` or `-HH:MM` (at most 14 hours) in seconds east of
    /// UTC; or `Z` (0) when `allowZ`.
    static func zoneOffset(_ l: Line, _ from: Int, _ to: Int, allowZ: Bool = false) -> Int? {
        if allowZ && to - from == 1 && (l[from] | 0x20) == 0x7A { return 0 }
        guard to - from == 5 || to - from == 6, l[from] == 0x2B || l[from] == 0x2D else { return nil }
        let minuteStart = to - 2
        if to - from == 6 && l[from + 3] != 0x3A { return nil }
        guard let hours = l.smallNumber(from + 1, from + 3), let minutes = l.smallNumber(minuteStart, to),
            hours <= 14, minutes < 60
        else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return l[from] == 0x2D ? -seconds : seconds
    }

    /// `YYYY-MM-DDTHH:MM[:SS[.f]]`, perhaps ending in `Z` or a zone offset: the date, the time,
    /// its fraction and the offset (seconds east of UTC) when given.
    static func isoDateTime(_ l: Line, _ from: Int, _ to: Int) -> (
        date: (year: Int, month: Int, day: Int), clock: (hour: Int, minute: Int, second: Int?), fraction: Double?,
        offset: Int?
    )? {
        guard to - from >= 15, l[from + 10] == 0x54 || l[from + 10] == 0x74, l[from + 4] == 0x2D,
            let date = numericDate(l, from, from + 10)
        else { return nil }
        var end = to
        var offset: Int? = nil
        if (l[end - 1] | 0x20) == 0x7A {
            offset = 0
            end -= 1
        } else {
            var sign = end - 1
            while sign > from + 11 && l[sign] != 0x2B && l[sign] != 0x2D { sign -= 1 }
            if sign > from + 11 {
                guard let zone = zoneOffset(l, sign, end) else { return nil }
                offset = zone
                end = sign
            }
        }
        guard let precise = preciseTime(l, from + 11, end) else { return nil }
        return (date, precise.clock, precise.fraction, offset)
    }
}
