/// Old VanDyke VShell (Windows) lines: `size  Mon DD, YYYY HH:MM name`, a folder's name ending in
/// `/`, e.g. `206876  Apr 04, 2000 21:06 setup.exe` or `0  Dec 12, 2002 02:13 backups/`.
extension ListingReader {
    /// Reads a VShell line; nil when the line is not shaped like one.
    func parseVShell(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 6, let size = line.decimal(t.starts[0], t.ends[0]),
            let month = DateTokens.month(line, t.starts[1], t.ends[1]), line[t.ends[2] - 1] == 0x2C,
            let day = DateTokens.day(line, t.starts[2], t.ends[2] - 1),
            let year = DateTokens.year(line, t.starts[3], t.ends[3]),
            let clock = DateTokens.time(line, t.starts[4], t.ends[4])
        else { return nil }
        guard CivilTime.isValid(year: year, month: month, day: day) else { return reject("invalid date", line) }
        var end = line.count
        var isDir = false
        while end - t.starts[5] > 1 && line[end - 1] == 0x2F {
            end -= 1
            isDir = true
        }
        let name = line.slice(t.starts[5], end)
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
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: isDir ? .dir : .file, size: isDir ? nil : size,
                modified: modified))
    }
}
