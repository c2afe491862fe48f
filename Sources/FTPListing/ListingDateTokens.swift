// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Readers for the date tokens of UNIX-style lines: month names in several languages, CJK
/// `4月`/`9日`/`2006年` forms, days, years and times of day.
enum DateTokens {
    private static let names: [Int: [String]] = [
        1: [
            "jan", "january", "janv", "jän", "jänner", "ene", "enero", "gen", "sty", "янв", "января", "январь",
            "január",
        ],
        2: [
            "feb", "february", "févr", "fév", "fevr", "febr", "fev", "lut", "фев", "февр", "февраля", "февраль",
            "február",
        ],
        3: ["mar", "march", "mars", "mär", "märz", "mrz", "mrt", "marzo", "мар", "марта", "март", "márc", "március"],
        4: ["apr", "april", "avr", "avril", "abr", "abril", "kwi", "апр", "апреля", "апрель", "ápr", "április"],
        5: ["may", "mai", "mag", "mei", "mayo", "maj", "май", "мая", "máj", "május"],
        6: ["jun", "june", "juin", "giu", "juni", "junio", "cze", "июн", "июня", "июнь", "jún", "június"],
        7: ["jul", "july", "juil", "lug", "juli", "julio", "lip", "июл", "июля", "июль", "júl", "július"],
        8: ["aug", "august", "août", "aou", "ago", "agosto", "sie", "авг", "августа", "август", "augusztus"],
        9: ["sep", "sept", "september", "set", "wrz", "сен", "сент", "сентября", "сентябрь", "szept", "szeptember"],
        10: ["oct", "october", "okt", "ott", "out", "paź", "окт", "октября", "октябрь", "október"],
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

    /// The month (1...12) of the token `from..<to`: a name (`Okt.`, `Juli,`), or `<n>月` / `<n>월`
    /// or a number with another non-ASCII marker (`3\xed\xef`).
    static func month(_ l: Line, _ from: Int, _ to: Int) -> Int? {
        var end = to
        if end - from > 1 && l[end - 1] == 0x2C { end -= 1 }  // "Juli,"
        if end - from > 1 && l[end - 1] == 0x2E { end -= 1 }  // "janv."
        let length = end - from
        guard length >= 2 else { return nil }
        if Byte.isDigit(l[from]) { return markedMonth(l, from, end) }
        guard length >= 3 else { return nil }
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

    /// A month number with a marker after it: `4月`, `1월`, or 1-3 other non-ASCII bytes.
    static func markedMonth(_ l: Line, _ from: Int, _ to: Int) -> Int? {
        guard let n = numberWithSuffix(l, from, to), n.digits <= 2, n.suffix == .month || n.suffix == .other,
            (1...12).contains(n.value)
        else { return nil }
        return n.value
    }

    enum Suffix {
        /// `.other`: 1-3 bytes starting with a non-ASCII one, a marker in a legacy charset
        /// (`\x8c\x8e`, whose Shift_JIS trail byte may be ASCII).
        case none, dot, comma, month, day, year, other
    }

    /// Leading digits (at most 4) and what follows them: nothing, '.', ',', a CJK month/day/year
    /// sign, or another non-ASCII marker.
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
        if rest == 1 && l[i] == 0x2C { return (value, digits, .comma) }
        guard rest <= 3, l[i] >= 0x80 else { return nil }
        if rest == 3, let mark = cjkMark(l, i) { return (value, digits, mark) }
        return (value, digits, .other)
    }

    /// The CJK month, day or year sign in UTF-8 at `i` (three bytes, `i + 3 <= l.count`), or nil.
    static func cjkMark(_ l: Line, _ i: Int) -> Suffix? {
        switch (l[i], l[i + 1], l[i + 2]) {
        case (0xE6, 0x9C, 0x88), (0xEC, 0x9B, 0x94): return .month  // 月 월
        case (0xE6, 0x97, 0xA5), (0xEC, 0x9D, 0xBC): return .day  // 日 일
        case (0xE5, 0xB9, 0xB4), (0xEB, 0x85, 0x84): return .year  // 年 년
        default: return nil
        }
    }

    /// A day of month 1...31: `9`, `09`, `24.`, `08,`, `9日`, `18\x93\xfa`.
    static func day(_ l: Line, _ from: Int, _ to: Int) -> Int? {
        guard let n = numberWithSuffix(l, from, to), n.digits <= 2, (1...31).contains(n.value) else { return nil }
        switch n.suffix {
        case .none, .dot, .comma, .day, .other: return n.value
        default: return nil
        }
    }

    /// A four-digit year: `2009`, `2006年`, `2003\x94\x4e`.
    static func year(_ l: Line, _ from: Int, _ to: Int) -> Int? {
        guard let n = numberWithSuffix(l, from, to), n.digits == 4, n.value >= 1900 else { return nil }
        switch n.suffix {
        case .none, .year, .other: return n.value
        default: return nil
        }
    }

    /// A time of day `H:MM`, `HH:MM` or `HH:MM:SS` (seconds nil when absent); `24:00` and
    /// `24:00:00` give hour 24, the next day's midnight.
    static func time(_ l: Line, _ from: Int, _ to: Int) -> (hour: Int, minute: Int, second: Int?)? {
        let length = to - from
        guard length >= 4 else { return nil }
        let colon = l[from + 1] == 0x3A ? from + 1 : from + 2
        guard colon < to, l[colon] == 0x3A, let hour = l.smallNumber(from, colon), hour <= 24,
            colon + 3 <= to, let minute = l.smallNumber(colon + 1, colon + 3), minute < 60, hour < 24 || minute == 0
        else { return nil }
        if colon + 3 == to { return (hour, minute, nil) }
        guard colon + 6 == to, l[colon + 3] == 0x3A, let second = l.smallNumber(colon + 4, colon + 6), second <= 60,
            hour < 24 || second == 0
        else { return nil }
        return (hour, minute, second)
    }
}
