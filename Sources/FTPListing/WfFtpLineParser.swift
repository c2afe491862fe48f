// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Lines of the wfFtp server of Nortel (Bay Networks) routers: name, size, `MM/DD/YY`, a weekday
/// with a dot, `HH:MM:SS`: `boot.cfg       1014196  06/03/04  Thur.   10:20:03`.
extension ListingReader {
    /// Reads a wfFtp line, or nil when the line does not have that shape.
    func parseWfFtp(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count == 5, t.length(2) == 8, line[t.ends[3] - 1] == 0x2E, t.length(3) <= 5,
            let size = line.decimal(t.starts[1], t.ends[1]),
            let clock = DateTokens.time(line, t.starts[4], t.ends[4]), let second = clock.second
        else { return nil }
        let d = t.starts[2]
        guard line[d + 2] == 0x2F, line[d + 5] == 0x2F, let month = line.smallNumber(d, d + 2),
            let day = line.smallNumber(d + 3, d + 5), let yy = line.smallNumber(d + 6, d + 8),
            CivilTime.isValid(year: 2000, month: month, day: day)
        else { return nil }
        let year = expandTwoDigitYear(yy, month: month, day: day)
        guard CivilTime.isValid(year: year, month: month, day: day) else { return nil }
        let name = line.slice(t.starts[0], t.ends[0])
        if let refused = refusal(ofName: name, in: line) { return refused }
        let modified = listedTime(
            year: year, month: month, day: day, hour: clock.hour, minute: clock.minute, second: second,
            precision: .second)
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(name: decoded.name, rawName: decoded.raw, type: .file, size: size, modified: modified))
    }
}
