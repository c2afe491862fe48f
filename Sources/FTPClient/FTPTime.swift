import Foundation

/// The `YYYYMMDDHHMMSS[.sss]` time values of MDTM, MFMT and MLSD (RFC 3659 §2.3), always UTC.
public enum FTPTime {
    /// Parses a time value; a fraction of any length is kept. Year fields `19100`...`19199`
    /// from Y2K-era servers (`"19"` + years since 1900) are read as 2000...2099.
    /// - Returns: the instant, or nil when the text is not a valid time value.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingSpaces()
        let parts = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var whole = Array(parts[0].utf8)
        guard whole.allSatisfy({ (48...57).contains($0) }) else { return nil }
        if whole.count == 15, whole.starts(with: Array("191".utf8)) {
            let years = Int(String(decoding: whole[2..<5], as: UTF8.self)) ?? 0
            whole = Array(String(1900 + years).utf8) + whole[5...]
        }
        guard whole.count == 14 else { return nil }
        func number(_ range: Range<Int>) -> Int { whole[range].reduce(0) { $0 * 10 + Int($1 - 48) } }
        let year = number(0..<4)
        let month = number(4..<6)
        let day = number(6..<8)
        let hour = number(8..<10)
        let minute = number(10..<12)
        let second = number(12..<14)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else {
            return nil
        }
        var fraction = 0.0
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }),
                let value = Double("0." + digits)
            else { return nil }
            fraction = value
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Formats `date` as `YYYYMMDDHHMMSS` in UTC, whole seconds (rounded down).
    public static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        var yearText = String(year)
        while yearText.count < 4 { yearText = "0" + yearText }
        return yearText + two(month) + two(day) + two(secondsOfDay / 3_600) + two(secondsOfDay % 3_600 / 60)
            + two(secondsOfDay % 60)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
