/// Readers for the date tokens of UNIX-style lines: month names in several languages, CJK
/// `4月`/`9日`/`2006年` forms, days, years, times of day and ISO dates.
enum DateTokens {
    private static let names: [Int: [String]] = [
        1: ["jan", "january", "janv", "jän", "jänner", "ene", "enero", "gen", "sty", "янв", "января", "январь"],
        2: ["feb", "february", "févr", "fév", "fevr", "febr", "fev", "lut", "фев", "февр", "февраля", "февраль"],
        3: ["mar", "march", "mars", "mär", "märz", "mrz", "mrt", "marzo", "мар", "марта", "март"],
        4: ["apr", "april", "avr", "avril", "abr", "abril", "kwi", "апр", "апреля", "апрель"],
        5: ["may", "mai", "mag", "mei", "mayo", "maj", "май", "мая"],
        6: ["jun", "june", "juin", "giu", "juni", "junio", "cze", "июн", "июня", "июнь"],
        7: ["jul", "july", "juil", "lug", "juli", "julio", "lip", "июл", "июля", "июль"],
        8: ["aug", "august", "août", "aou", "ago", "agosto", "sie", "авг", "августа", "август"],
        9: ["sep", "sept", "september", "set", "wrz", "сен", "сент", "сентября", "сентябрь"],
        10: ["oct", "october", "okt", "ott", "out", "paź", "окт", "октября", "октябрь"],
        11: ["nov", "november", "lis", "ноя", "нояб", "ноября", "ноябрь"],
        12: ["dec", "december", "déc", "dez", "dic", "gru", "дек", "декабря", "декабрь"],
    ]

    /// Month names of up to 8 bytes, packed little-endian into a UInt64 (ASCII lowercased).
    private static let packed: [UInt64: Int] = {
        var table: [UInt64: Int] = [:]
        for (month, words) in names {
            for word in words {
                for variant in [word, word.prefix(1).uppercased() + word.dropFirst()] {
                    let bytes = Array(variant.utf8)
                    if bytes.count <= 8 { table[pack(bytes[...])] = month }
                }
            }
        }
        return table
    }()

    /// Month names longer than 8 bytes, lowercased.
    private static let long: [String: Int] = {
        var table: [String: Int] = [:]
        for (month, words) in names {
            for word in words where word.utf8.count > 8 { table[word] = month }
        }
        return table
    }()

    private static func pack<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var key: UInt64 = 0
        var shift: UInt64 = 0
        for b in bytes {
            key |= UInt64(Byte.lower(b)) << shift
            shift += 8
        }
        return key
    }

    /// The English three-letter month of a token packed big-endian into 24 bits, lowercased.
    @inline(__always) private static func englishMonth(_ key: UInt32) -> Int? {
        switch key {
        case 0x6A_616E: return 1  // jan
        case 0x66_6562: return 2  // feb
        case 0x6D_6172: return 3  // mar
        case 0x61_7072: return 4  // apr
        case 0x6D_6179: return 5  // may
        case 0x6A_756E: return 6  // jun
        case 0x6A_756C: return 7  // jul
        case 0x61_7567: return 8  // aug
        case 0x73_6570: return 9  // sep
        case 0x6F_6374: return 10  // oct
        case 0x6E_6F76: return 11  // nov
        case 0x64_6563: return 12  // dec
        default: return nil
        }
    }

    /// The month (1...12) of the token `from..<to`: a name, or `<n>月` / `<n>월`.
    static func month(_ l: Line, _ from: Int, _ to: Int) -> Int? {
        var end = to
        if end - from > 1 && l[end - 1] == 0x2E { end -= 1 }  // "janv."
        let length = end - from
        guard length >= 3 else { return nil }
        if Byte.isDigit(l[from]) {
            guard let number = numberWithSuffix(l, from, end), number.suffix == .month else { return nil }
            return (1...12).contains(number.value) ? number.value : nil
        }
        if length == 3 {
            let key =
                UInt32(Byte.lower(l[from])) << 16 | UInt32(Byte.lower(l[from + 1])) << 8
                | UInt32(Byte.lower(l[from + 2]))
            if let english = englishMonth(key) { return english }
        }
        if length <= 8 {
            return packed[pack(UnsafeBufferPointer(rebasing: l[from..<end]))]
        }
        return long[String(decoding: l.slice(from, end), as: UTF8.self).lowercased()]
    }

    enum Suffix {
        case none, dot, month, day, year
    }

    /// Leading digits (at most 4) and what follows them: nothing, '.', or a CJK month/day/year sign.
    static func numberWithSuffix(_ l: Line, _ from: Int, _ to: Int) -> (value: Int, digits: Int, suffix: Suffix)? {
        var i = from
        var value = 0
        while i < to && i - from < 5 && Byte.isDigit(l[i]) {
            value = value * 10 + Int(l[i] - Byte.zero)
            i += 1
        }
        let digits = i - from
        guard digits > 0 && digits <= 4 else { return nil }
        let rest = to - i
        if rest == 0 { return (value, digits, .none) }
        if rest == 1 && l[i] == 0x2E { return (value, digits, .dot) }
        guard rest == 3 else { return nil }
        switch (l[i], l[i + 1], l[i + 2]) {
        case (0xE6, 0x9C, 0x88), (0xEC, 0x9B, 0x94): return (value, digits, .month)  // 月 월
        case (0xE6, 0x97, 0xA5), (0xEC, 0x9D, 0xBC): return (value, digits, .day)  // 日 일
        case (0xE5, 0xB9, 0xB4), (0xEB, 0x85, 0x84): return (value, digits, .year)  // 年 년
        default: return nil
        }
    }

    /// A day of month 1...31: `9`, `09`, `24.`, `9日`.
    static func day(_ l: Line, _ from: Int, _ to: Int) -> Int? {
        guard let n = numberWithSuffix(l, from, to), n.digits <= 2, (1...31).contains(n.value) else { return nil }
        switch n.suffix {
        case .none, .dot, .day: return n.value
        default: return nil
        }
    }

    /// A four-digit year: `2009`, `2006年`.
    static func year(_ l: Line, _ from: Int, _ to: Int) -> Int? {
        guard let n = numberWithSuffix(l, from, to), n.digits == 4, n.value >= 1900 else { return nil }
        switch n.suffix {
        case .none, .year: return n.value
        default: return nil
        }
    }

    /// A time of day `H:MM`, `HH:MM` or `HH:MM:SS` (seconds nil when absent).
    static func time(_ l: Line, _ from: Int, _ to: Int) -> (hour: Int, minute: Int, second: Int?)? {
        let length = to - from
        guard length >= 4 else { return nil }
        let colon = l[from + 1] == 0x3A ? from + 1 : from + 2
        guard colon < to, l[colon] == 0x3A, let hour = l.smallNumber(from, colon), hour < 24,
            colon + 3 <= to, let minute = l.smallNumber(colon + 1, colon + 3), minute < 60
        else { return nil }
        if colon + 3 == to { return (hour, minute, nil) }
        guard colon + 6 == to, l[colon + 3] == 0x3A, let second = l.smallNumber(colon + 4, colon + 6), second <= 60
        else { return nil }
        return (hour, minute, second)
    }

    /// An ISO date `YYYY-MM-DD` (fields not yet checked against the calendar).
    static func isoDate(_ l: Line, _ from: Int, _ to: Int) -> (year: Int, month: Int, day: Int)? {
        guard to - from == 10, l[from + 4] == 0x2D, l[from + 7] == 0x2D,
            let year = l.smallNumber(from, from + 4), let month = l.smallNumber(from + 5, from + 7),
            let day = l.smallNumber(from + 8, from + 10)
        else { return nil }
        return (year, month, day)
    }
}
