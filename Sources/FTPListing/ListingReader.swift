// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The state of one parse: the context, the clock read in the server's zone, the zone-offset cache
/// and a reusable token buffer. Dispatches each line to the right format parser.
final class ListingReader {
    let context: ListingContext
    let zone: ZoneOffsets
    /// `context.now` as server-local wall-clock seconds.
    let nowLocal: Int
    /// The year of `context.now` in the server's zone.
    let nowYear: Int
    let tokens = Tokens()
    /// The legacy-charset line being read, while `parseListDecoding` reads its decoded copy.
    var legacyLine: LegacyLine? = nil
    /// Set when a name of the decoded copy could not be mapped back to its original bytes.
    var legacyMappingFailed = false
    /// What a VMS listing carries from one line to the next.
    let vms = VMSListingState()

    init(context: ListingContext) {
        self.context = context
        zone = ZoneOffsets(zone: context.timeZone)
        let nowUTC = Int(context.now.timeIntervalSince1970.rounded(.down))
        nowLocal = nowUTC + zone.offset(atUTC: nowUTC)
        let days = nowLocal >= 0 ? nowLocal / 86_400 : (nowLocal - 86_399) / 86_400
        nowYear = CivilTime.date(days: days).year
    }

    /// Reads one line (line ending removed). A VMS entry is then placed with `place(_:in:)`, and
    /// `takeVMSWarning` gives the warning of a lone VMS name this line showed had no fields.
    func parse(line: Line, format: ListingFormat) -> ParsedLine {
        vms.lastEntry = nil
        switch format {
        case .mlsd:
            if line.isEmpty { return .ignored }
            return parseMLSD(line, inReply: false)
        case .list:
            return parseListDecoding(line)
        }
    }

    func parseList(_ line: Line) -> ParsedLine {
        tokens.split(line, limit: 32)
        if tokens.count == 0 {
            flushVMSName()
            return .ignored
        }
        if let result = parseAfterPendingVMSName(line) { return result }
        if isNoise(line) { return .ignored }
        let first = line[tokens.starts[0]]
        if Byte.isDigit(first), isDOSDate(line, 0) {
            return parseDOS(line)
        }
        if line[0] == 0x2B { return parseEPLF(line) }
        if Byte.isDigit(first), let result = parseVxWorks(line) ?? parseVShell(line) { return result }
        if let result = parseUnix(line) { return result }
        if let result = parseWfFtp(line) { return result }
        if looksLikeFacts(line) { return parseMLSD(line, inReply: false) }
        if let result = parseOtherFormat(line) { return result }
        if looksLikeReply(line) { return .ignored }
        return reject("not a known listing format", line)
    }

    /// True when `line` (its CRs aside) is blank, or noise that `isNoise` skips.
    func isBlankOrNoise(_ line: Line) -> Bool {
        var end = line.count
        while end > 0 && line[end - 1] == 0x0D { end -= 1 }
        let body = line.slice(0, end)
        tokens.split(body, limit: 32)
        return tokens.count == 0 || isNoise(body)
    }

    /// `total N` in any language and `ls`/`ftpd` error messages; expects `line` split into `tokens`.
    func isNoise(_ line: Line) -> Bool {
        let t0s = tokens.starts[0]
        let t0e = tokens.ends[0]
        if tokens.count == 2, line.decimal(tokens.starts[1], tokens.ends[1]) != nil {
            var hasDigit = false
            for i in t0s..<t0e where Byte.isDigit(line[i]) { hasDigit = true }
            if !hasDigit && tokens.length(0) < 16 && line[t0s] != 0x2D { return true }
        }
        return line[t0e - 1] == 0x3A && tokens.count >= 2  // "ftpd: .: Permission denied", "ls: cannot …"
    }

    /// A reply line leaked into the data (`226 Transfer complete`, `150-Opening`): a first token of
    /// a reply code 100...599, alone or with `-`. Asked only once no format parser read the line,
    /// since VxWorks, OS/2 and VShell sizes and wfFtp or z/VM names can be such numbers too.
    private func looksLikeReply(_ line: Line) -> Bool {
        let s = tokens.starts[0]
        let length = tokens.length(0)
        guard length == 3 || (length == 4 && line[s + 3] == 0x2D) else { return false }
        return line[s] >= 0x31 && line[s] <= 0x35 && Byte.isDigit(line[s + 1]) && Byte.isDigit(line[s + 2])
    }

    /// A line is MLSD-shaped when the text before its first space holds `fact=value;`.
    private func looksLikeFacts(_ line: Line) -> Bool {
        var sawEquals = false
        for b in line {
            if Byte.isBlank(b) { return false }
            if b == 0x3D { sawEquals = true }
            if b == 0x3B { return sawEquals }
        }
        return false
    }

    /// A warning that quotes the line (its original bytes while a legacy-charset line is read).
    func reject(_ reason: String, _ line: Line) -> ParsedLine {
        .rejected(warning(reason, quoting: legacyLine?.raw ?? line))
    }

    /// `unreadable listing line (reason): "text"`; while a legacy-charset LIST line is read
    /// (`parseListDecoding`), the text decoded with the context's decoder when it reads it, else
    /// as UTF-8 with invalid bytes replaced. (Only there: the decoder is costly, and MLSD text is
    /// UTF-8 by RFC 3659 §2.2.)
    func warning(_ reason: String, quoting text: Line) -> String {
        var decoded: String? = nil
        if legacyLine != nil, let decoder = context.decodeName { decoded = decoder(Array(text)) }
        let quoted = decoded ?? String(decoding: text, as: UTF8.self)
        return "unreadable listing line (\(reason)): \"\(quoted)\""
    }

    // MARK: names

    /// Decodes a name or link target with the context's decoder, else reversible UTF-8.
    func decode(_ line: Line) -> String {
        guard let bytes = originalBytes(line) else { return "" }
        if let decoder = context.decodeName, let text = decoder(Array(bytes)) { return text }
        return ListingNameCodec.decodeUTF8Reversibly(bytes)
    }

    /// A listed name and, when they differ from its UTF-8, its raw bytes.
    func decodeName(_ line: Line) -> (name: String, raw: [UInt8]?) {
        guard let bytes = originalBytes(line) else { return ("", nil) }
        if let decoder = context.decodeName {
            let raw = Array(bytes)
            if let text = decoder(raw) { return (text, raw) }
        }
        var ascii = true
        for b in bytes where b >= 0x80 {
            ascii = false
            break
        }
        let plain = String(decoding: bytes, as: UTF8.self)
        if ascii || plain.utf8.elementsEqual(bytes) { return (plain, nil) }
        return (ListingNameCodec.decodeUTF8Reversibly(bytes), Array(bytes))
    }

    /// Owner, group and other informational text: UTF-8, invalid bytes replaced.
    @inline(__always) func text(_ line: Line, _ from: Int, _ to: Int) -> String {
        String(decoding: line.slice(from, to), as: UTF8.self)
    }

    enum NameCheck {
        case ok
        case skip
        case bad(String)
    }

    /// Listing names are single path components: `.`/`..` are skipped, `/` and NUL rejected.
    func check(name: Line) -> NameCheck {
        if name.count == 1 && name[0] == 0x2E { return .skip }
        if name.count == 2 && name[0] == 0x2E && name[1] == 0x2E { return .skip }
        for b in name {
            if b == 0x2F { return .bad("name contains '/'") }
            if b == 0 { return .bad("name contains NUL") }
        }
        return .ok
    }

    /// What a line gives when its name cannot be an entry's: `.ignored` for `.`/`..`, a rejection
    /// quoting the line for a name with `/` or NUL; nil for a good name.
    func refusal(ofName name: Line, in line: Line) -> ParsedLine? {
        switch check(name: name) {
        case .ok: return nil
        case .skip: return .ignored
        case .bad(let reason): return reject(reason, line)
        }
    }

    // MARK: times

    /// The instant of a server-local wall-clock time.
    func listedTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, precision: TimePrecision)
        -> ListedTime
    {
        let local = CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        let utc = zone.utcSeconds(fromLocal: local)
        return ListedTime(date: Date(timeIntervalSince1970: Double(utc)), precision: precision)
    }

    /// The year of a date listed without one: the latest of {Y+1, Y, Y-1} (Y = the server's year now)
    /// that is a real date not later than now + 1 day, i.e. the date lies in (now + 1 day - 1 year,
    /// now + 1 day] — this covers `ls` (6 months) and NetWare (12 months). Feb 29 falls back to the
    /// last leap year.
    func inferYear(month: Int, day: Int, hour: Int, minute: Int) -> Int? {
        let limit = nowLocal + 86_400
        var year = nowYear + 1
        while year >= nowYear - 8 {
            if CivilTime.isValid(year: year, month: month, day: day),
                CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: 0) <= limit
            {
                return year
            }
            year -= 1
        }
        return nil
    }

    /// The full year of a two-digit year: the latest year ending in those digits whose date is
    /// not after now + 1 day.
    func expandTwoDigitYear(_ yy: Int, month: Int, day: Int) -> Int {
        let limit = nowLocal + 86_400
        var year = nowYear - nowYear % 100 + yy
        if year > nowYear + 1 { year -= 100 }
        if CivilTime.seconds(year: year, month: month, day: min(day, 28), hour: 0, minute: 0, second: 0) > limit {
            year -= 100
        }
        return year
    }
}
