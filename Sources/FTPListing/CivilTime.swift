// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Calendar arithmetic on the proleptic Gregorian calendar without Foundation's `Calendar`,
/// so that a million listing lines cost no formatter or calendar object.
enum CivilTime {
    /// Days since 1970-01-01 of the civil date `year-month-day` (month 1...12).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 9) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day number (days since 1970-01-01).
    static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// True when `year` is a Gregorian leap year.
    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// True when the fields name a real calendar day (no normalising of day 31 in April).
    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard month >= 1, month <= 12, day >= 1 else { return false }
        switch month {
        case 2: return day <= (isLeap(year) ? 29 : 28)
        case 4, 6, 9, 11: return day <= 30
        default: return day <= 31
        }
    }

    /// Seconds since 1970-01-01T00:00 of a wall-clock time read as if it were UTC.
    static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int {
        days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }
}

/// Converts wall-clock times of one time zone to instants, caching the zone's offset per hour
/// so that `TimeZone` is asked once per distinct hour of a listing, not once per line.
final class ZoneOffsets {
    private let zone: TimeZone
    private let fixedOffset: Int?
    private var cache: [Int: Int] = [:]
    private var lastHour = Int.min
    private var lastOffset = 0

    init(zone: TimeZone) {
        self.zone = zone
        let id = zone.identifier
        if id == "UTC" || id == "GMT" || id.hasPrefix("GMT+") || id.hasPrefix("GMT-") {
            fixedOffset = zone.secondsFromGMT()
        } else {
            fixedOffset = nil
        }
    }

    /// The zone's offset from UTC in seconds at the instant `utcSeconds`.
    func offset(atUTC utcSeconds: Int) -> Int {
        if let fixedOffset { return fixedOffset }
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utcSeconds)))
    }

    /// The instant (seconds since the epoch, UTC) of wall-clock seconds `local` in the zone.
    func utcSeconds(fromLocal local: Int) -> Int {
        if let fixedOffset { return local - fixedOffset }
        let hour = local >= 0 ? local / 3600 : (local - 3599) / 3600
        if hour == lastHour { return local - lastOffset }
        let offset: Int
        if let cached = cache[hour] {
            offset = cached
        } else {
            let start = hour * 3600
            let first = self.offset(atUTC: start)
            let second = self.offset(atUTC: start - first)
            offset = second
            cache[hour] = offset
        }
        lastHour = hour
        lastOffset = offset
        return local - offset
    }
}
