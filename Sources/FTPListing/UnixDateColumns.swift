// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The date columns of a UNIX-style line: which layouts are read, and where they end.
extension ListingReader {
    /// A date read from the columns of a UNIX-style line; `year` nil when the line left it out.
    struct FoundDate {
        var year: Int?
        var month: Int
        var day: Int
        /// Hour 0...24 (24:00 is the next day's midnight), minute, second when listed.
        var time: (hour: Int, minute: Int, second: Int?)?
        /// The index of the date's last token; the name starts one space after it.
        var lastToken: Int
        /// True for a one-token date without a time, which servers pad to the width of a date
        /// with time: the name starts after all the blanks.
        var padded = false
        /// The fraction of a second after the seconds (`ls --full-time`), in seconds.
        var fraction: Double? = nil
        /// The listed zone offset in seconds east of UTC (`+0800`): the time is then an instant,
        /// whatever the device's zone.
        var zoneOffset: Int? = nil
    }

    /// A date starting at token `k`: `Mon DD YYYY|HH:MM`, `DD[.] Mon[.,] YYYY|HH:MM`,
    /// `Mon DD, YYYY HH:MM`, `M月 D[日] ...`, `YYYY年 M月 D日`, `M D HH:MM`, or one of the
    /// one-token dates (`YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY.MM.DD`, `DD-MM-YYYY`, `DD-mon-YY`,
    /// `DD.Mon.YYYY`, `Mon-DD-YYYY`, `YYYY年M月D日`, `M月D日`, `MM-DD`) with an optional time after
    /// it (`HH:MM:SS.fffffffff` and a zone offset, as `ls --full-time` writes them, after a numeric
    /// date), or `YYYY-MM-DDTHH:MM:SS` as one token.
    func findDate(_ line: Line, at k: Int) -> FoundDate? {
        let t = tokens
        let s0 = t.starts[k]
        let e0 = t.ends[k]
        if k + 2 < t.count, let date = threeTokenDate(line, at: k) { return date }
        let precise = k + 1 < t.count ? DateTokens.preciseTime(line, t.starts[k + 1], t.ends[k + 1]) : nil
        let timeAfter = precise?.clock
        let last = timeAfter == nil ? k : k + 1
        if let ymd = DateTokens.numericDate(line, s0, e0) {
            var date = FoundDate(
                year: ymd.year, month: ymd.month, day: ymd.day, time: timeAfter, lastToken: last,
                padded: timeAfter == nil, fraction: precise?.fraction)
            // A zone offset after the time, unless it is the last token (then it is the name).
            if timeAfter != nil, last + 2 < t.count,
                let offset = DateTokens.zoneOffset(line, t.starts[last + 1], t.ends[last + 1])
            {
                date.zoneOffset = offset
                date.lastToken = last + 1
            }
            return date
        }
        if let iso = DateTokens.isoDateTime(line, s0, e0) {
            return FoundDate(
                year: iso.date.year, month: iso.date.month, day: iso.date.day, time: iso.clock, lastToken: k,
                fraction: iso.fraction, zoneOffset: iso.offset)
        }
        if let dmy = DateTokens.dayMonthNameYear(line, s0, e0) ?? DateTokens.monthNameDayYear(line, s0, e0) {
            let year = dmy.year < 100 ? expandTwoDigitYear(dmy.year, month: dmy.month, day: dmy.day) : dmy.year
            return FoundDate(
                year: year, month: dmy.month, day: dmy.day, time: timeAfter, lastToken: last, padded: timeAfter == nil,
                fraction: precise?.fraction)
        }
        if let cjk = DateTokens.compactCJKDate(line, s0, e0) {
            if let year = cjk.year {
                return FoundDate(
                    year: year, month: cjk.month, day: cjk.day, time: timeAfter, lastToken: last,
                    padded: timeAfter == nil, fraction: precise?.fraction)
            }
            if let timeAfter {
                return FoundDate(
                    year: nil, month: cjk.month, day: cjk.day, time: timeAfter, lastToken: k + 1,
                    fraction: precise?.fraction)
            }
        }
        if let md = DateTokens.monthDashDay(line, s0, e0), k + 1 < t.count {
            if let timeAfter {
                return FoundDate(
                    year: nil, month: md.month, day: md.day, time: timeAfter, lastToken: k + 1,
                    fraction: precise?.fraction)
            }
            if let year = DateTokens.year(line, t.starts[k + 1], t.ends[k + 1]) {
                return FoundDate(year: year, month: md.month, day: md.day, time: nil, lastToken: k + 1)
            }
        }
        return nil
    }

    /// The dates of three tokens (or four, `Mon DD, YYYY HH:MM`).
    private func threeTokenDate(_ line: Line, at k: Int) -> FoundDate? {
        let t = tokens
        let s0 = t.starts[k]
        let e0 = t.ends[k]
        let s1 = t.starts[k + 1]
        let e1 = t.ends[k + 1]
        let s2 = t.starts[k + 2]
        let e2 = t.ends[k + 2]
        var month: Int? = nil
        var day: Int? = nil
        if let m = DateTokens.month(line, s0, e0), let d = DateTokens.day(line, s1, e1) {
            month = m
            day = d
        } else if let d = DateTokens.day(line, s0, e0), let m = DateTokens.month(line, s1, e1) {
            month = m
            day = d
        }
        if let month, let day {
            if let time = DateTokens.time(line, s2, e2) {
                return FoundDate(year: nil, month: month, day: day, time: time, lastToken: k + 2)
            }
            if let year = DateTokens.year(line, s2, e2) {
                // VShell: "Oct 08, 2002 09:47" gives the year and the time.
                if line[e1 - 1] == 0x2C, k + 3 < t.count,
                    let time = DateTokens.time(line, t.starts[k + 3], t.ends[k + 3])
                {
                    return FoundDate(year: year, month: month, day: day, time: time, lastToken: k + 3)
                }
                return FoundDate(year: year, month: month, day: day, time: nil, lastToken: k + 2)
            }
            return nil
        }
        // "2005년 1월 6일", "2003 3月 20": year first, the month marked.
        if let year = DateTokens.year(line, s0, e0), let m = DateTokens.markedMonth(line, s1, e1),
            let d = DateTokens.day(line, s2, e2)
        {
            return FoundDate(year: year, month: m, day: d, time: nil, lastToken: k + 2)
        }
        // "5 12 10:20": month and day as plain numbers, then the time.
        if let m = DateTokens.plainNumber(line, s0, e0), (1...12).contains(m),
            let d = DateTokens.plainNumber(line, s1, e1),
            (1...31).contains(d), let time = DateTokens.time(line, s2, e2)
        {
            return FoundDate(year: nil, month: m, day: d, time: time, lastToken: k + 2)
        }
        return nil
    }

    /// The instant of `date` in `year` (listed or inferred): the server-local wall clock, or the
    /// listed zone offset's; to the precision the columns show.
    func instant(of date: FoundDate, year: Int) -> ListedTime {
        let clock = date.time ?? (0, 0, nil)
        let precision: TimePrecision = date.time == nil ? .day : clock.second == nil ? .minute : .second
        var listed: ListedTime
        if let offset = date.zoneOffset {
            let wall = CivilTime.seconds(
                year: year, month: date.month, day: date.day, hour: clock.hour, minute: clock.minute,
                second: clock.second ?? 0)
            listed = ListedTime(date: Date(timeIntervalSince1970: Double(wall - offset)), precision: precision)
        } else {
            listed = listedTime(
                year: year, month: date.month, day: date.day, hour: clock.hour, minute: clock.minute,
                second: clock.second ?? 0, precision: precision)
        }
        if let fraction = date.fraction {
            listed.date += fraction
            listed.precision = .subsecond
        }
        return listed
    }
}
