/// Nortel (Bay Networks) router `wfFtp` lines: `name  size  MM/DD/YY  Weekday.  HH:MM:SS`, e.g.
/// `config       1014196  06/03/04  Thur.   10:20:03`.
extension ListingReader {
    /// Reads a wfFtp line; nil when the line is not shaped like one.
    func parseWfFtp(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count == 5, let size = line.decimal(t.starts[1], t.ends[1]),
            let date = NumericDate.read(line, t.starts[2], t.ends[2]), date.separator == 0x2F,
            date.widths == (2, 2, 2), line[t.ends[3] - 1] == 0x2E, t.length(3) >= 4,
            let clock = DateTokens.time(line, t.starts[4], t.ends[4])
        else { return nil }
        for i in t.starts[3]..<(t.ends[3] - 1) where (line[i] | 0x20) &- 0x61 >= 26 { return nil }
        let (month, day, yy) = date.fields
        let year = expandTwoDigitYear(yy, month: month, day: day)
        guard CivilTime.isValid(year: year, month: month, day: day) else { return reject("invalid date", line) }
        let name = line.slice(t.starts[0], t.ends[0])
        switch check(name: name) {
        case .ok: break
        case .skip: return .ignored
        case .bad(let reason): return reject(reason, line)
        }
        let decoded = decodeName(name)
        let modified = listedTime(
            year: year, month: month, day: day, hour: clock.hour, minute: clock.minute, second: clock.second ?? 0,
            precision: clock.second == nil ? .minute : .second)
        return .entry(
            ListingEntry(name: decoded.name, rawName: decoded.raw, type: .file, size: size, modified: modified))
    }
}
