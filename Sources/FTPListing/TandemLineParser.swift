// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// HP NonStop (Tandem) Guardian lines: `name  code  EOF  D-Mon-YY HH:MM:SS  owner  "rwep"`, e.g.
/// `REPORT1   101   528  6-Apr-07 14:21:18 255, 0 "oooo"`; the owner is `group,user`, sometimes with
/// a space after the comma. EOF is the size in bytes.
extension ListingReader {
    /// Reads a NonStop line; nil when the line is not shaped like one.
    func parseTandem(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 6, line.decimal(t.starts[1], t.ends[1]) != nil,
            let size = line.decimal(t.starts[2], t.ends[2]),
            let clock = DateTokens.time(line, t.starts[4], t.ends[4]), let second = clock.second,
            line[t.ends[t.count - 1] - 1] == 0x22, line[t.starts[t.count - 1]] == 0x22 || t.count >= 7
        else { return nil }
        // Date: D-Mon-YY.
        let s = t.starts[3]
        let e = t.ends[3]
        var dash = s
        while dash < e && line[dash] != 0x2D { dash += 1 }
        guard dash - s >= 1, dash - s <= 2, let day = line.smallNumber(s, dash), dash + 4 < e,
            line[dash + 4] == 0x2D, let month = DateTokens.month(line, dash + 1, dash + 4),
            !Byte.isDigit(line[dash + 1]), e - (dash + 5) == 2, let yy = line.smallNumber(dash + 5, e)
        else { return nil }
        let year = expandTwoDigitYear(yy, month: month, day: day)
        guard CivilTime.isValid(year: year, month: month, day: day) else { return reject("invalid date", line) }
        let name = line.slice(t.starts[0], t.ends[0])
        if let refused = refusal(ofName: name, in: line) { return refused }
        let decoded = decodeName(name)
        let modified = listedTime(
            year: year, month: month, day: day, hour: clock.hour, minute: clock.minute, second: second,
            precision: .second)
        return .entry(
            ListingEntry(name: decoded.name, rawName: decoded.raw, type: .file, size: size, modified: modified))
    }

    /// `File  Code  EOF  Last Modification  Owner  RWEP`.
    func isTandemHeader(_ line: Line) -> Bool {
        tokens.count >= 3 && line.equalsIgnoringCase(tokens.starts[0], tokens.ends[0], "File")
            && line.equalsIgnoringCase(tokens.starts[1], tokens.ends[1], "Code")
            && line.equalsIgnoringCase(tokens.starts[2], tokens.ends[2], "EOF")
    }
}
