// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// DOS/IIS `dir`-style lines: `MM-DD-YY  hh:mmAM  <DIR>|size  name`, with the variants real
/// servers send (four-digit years, `YY-MM-DD`, `a`/`p`, a separate AM/PM, 24-hour clocks).
extension ListingReader {
    /// True when token `k` looks like a DOS date: digits separated by two '-' or '/'.
    func isDOSDate(_ line: Line, _ k: Int) -> Bool {
        var separators = 0
        for i in tokens.starts[k]..<tokens.ends[k] {
            let b = line[i]
            if b == 0x2D || b == 0x2F {
                separators += 1
            } else if !Byte.isDigit(b) {
                return false
            }
        }
        return separators == 2 && tokens.length(0) >= 6
    }

    /// Reads a DOS line whose first token is a date.
    func parseDOS(_ line: Line) -> ParsedLine {
        let t = tokens
        guard t.count >= 3 else { return reject("DOS line without size and name", line) }
        // Date fields.
        var fields: [Int] = []
        var widths: [Int] = []
        var fieldStart = t.starts[0]
        for i in t.starts[0]...t.ends[0] where i == t.ends[0] || line[i] == 0x2D || line[i] == 0x2F {
            guard let value = line.smallNumber(fieldStart, i) else { return reject("invalid date", line) }
            fields.append(value)
            widths.append(i - fieldStart)
            fieldStart = i + 1
        }
        var year: Int
        var month: Int
        var day: Int
        if widths[0] == 4 {
            (year, month, day) = (fields[0], fields[1], fields[2])
        } else if fields[0] > 12 {
            (month, day) = (fields[1], fields[2])  // YY-MM-DD from old DOS servers
            year = expandTwoDigitYear(fields[0], month: month, day: day)
        } else {
            (month, day) = (fields[0], fields[1])
            year = widths[2] == 4 ? fields[2] : expandTwoDigitYear(fields[2], month: month, day: day)
        }
        guard widths[2] <= 4, CivilTime.isValid(year: year, month: month, day: day) else {
            return reject("invalid date", line)
        }

        // Time: "07:50PM", "11:02a", "14:12", or "07:50 PM".
        var k = 1
        let ts = t.starts[1]
        let te = t.ends[1]
        var clockEnd = ts
        while clockEnd < te && (Byte.isDigit(line[clockEnd]) || line[clockEnd] == 0x3A) { clockEnd += 1 }
        guard let clock = DateTokens.time(line, ts, clockEnd) else { return reject("invalid time", line) }
        var meridiem = meridiemOf(line, clockEnd, te)
        guard let suffix = meridiem else { return reject("invalid time", line) }
        if suffix == 0 && clockEnd == te && t.count >= 4 {
            if let separate = meridiemOf(line, t.starts[2], t.ends[2]), separate != 0 {
                meridiem = separate
                k += 1
            }
        }
        var hour = clock.hour
        if let m = meridiem, m != 0 {
            guard hour >= 1 && hour <= 12 else { return reject("invalid time", line) }
            hour = hour % 12 + (m == 2 ? 12 : 0)
        }
        k += 1
        guard k < t.count else { return .ignored }  // "<DIR>" alone: no name

        // Size or <DIR>, then the name after the blanks.
        let ss = t.starts[k]
        let se = t.ends[k]
        var type = EntryType.file
        var size: UInt64? = nil
        if line[ss] == 0x3C {
            if line.equalsIgnoringCase(ss, se, "<DIR>") {
                type = .dir
            } else if line.equalsIgnoringCase(ss, se, "<JUNCTION>") || line.equalsIgnoringCase(ss, se, "<SYMLINK>")
                || line.equalsIgnoringCase(ss, se, "<SYMLINKD>")
            {
                type = .link
            } else {
                type = .other
            }
        } else {
            var digits: [UInt8] = []
            for i in ss..<se where line[i] != 0x2C { digits.append(line[i]) }  // "1,234,567"
            guard let value = digits.withUnsafeBufferPointer({ $0.decimal(0, $0.count) }) else {
                return reject("invalid size", line)
            }
            size = value
        }
        guard k + 1 < t.count else { return .ignored }
        let name = line.slice(t.starts[k + 1], line.count)
        if name.allSatisfy(Byte.isBlank) { return .ignored }
        if let refused = refusal(ofName: name, in: line) { return refused }
        let modified = listedTime(
            year: year, month: month, day: day, hour: hour, minute: clock.minute, second: clock.second ?? 0,
            precision: clock.second == nil ? .minute : .second)
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(name: decoded.name, rawName: decoded.raw, type: type, size: size, modified: modified))
    }

    /// 0 for no suffix, 1 for AM/A, 2 for PM/P, nil for anything else.
    private func meridiemOf(_ line: Line, _ s: Int, _ e: Int) -> Int? {
        if s == e { return 0 }
        if line.equalsIgnoringCase(s, e, "AM") || line.equalsIgnoringCase(s, e, "A") { return 1 }
        if line.equalsIgnoringCase(s, e, "PM") || line.equalsIgnoringCase(s, e, "P") { return 2 }
        return nil
    }
}
