// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Lines of VxWorks-based servers (routers, PLCs, printers): size first, then
/// `Mon-DD-YYYY HH:MM:SS`, then the name, with ` <DIR>` after the name of a folder:
/// `  2048    Feb-28-1998  05:23:30   configs <DIR>`.
extension ListingReader {
    /// Reads a VxWorks line, or nil when the line does not have that shape.
    func parseVxWorks(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 4, let date = vxWorksDate(line, t.starts[1], t.ends[1]),
            let clock = DateTokens.time(line, t.starts[2], t.ends[2]), let second = clock.second
        else { return nil }
        guard let size = line.decimal(t.starts[0], t.ends[0]) else { return nil }
        var nameEnd = line.count
        while nameEnd > t.starts[3] && Byte.isBlank(line[nameEnd - 1]) { nameEnd -= 1 }
        var type = EntryType.file
        let last = t.count - 1
        if last > 3, line.equalsIgnoringCase(t.starts[last], t.ends[last], "<DIR>") {
            type = .dir
            nameEnd = t.starts[last]
            while nameEnd > t.starts[3] && Byte.isBlank(line[nameEnd - 1]) { nameEnd -= 1 }
        }
        let name = line.slice(t.starts[3], nameEnd)
        if let refused = refusal(ofName: name, in: line) { return refused }
        let modified = listedTime(
            year: date.year, month: date.month, day: date.day, hour: clock.hour, minute: clock.minute,
            second: second, precision: .second)
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: type == .file ? size : nil,
                modified: modified))
    }

    /// `Mon-DD-YYYY` (English month name, one or two day digits, four year digits), or nil.
    private func vxWorksDate(_ line: Line, _ from: Int, _ to: Int) -> (year: Int, month: Int, day: Int)? {
        guard to - from >= 10, to - from <= 11, line[from + 3] == 0x2D, line[to - 5] == 0x2D,
            let month = DateTokens.month(line, from, from + 3),
            let day = line.smallNumber(from + 4, to - 5), let year = line.smallNumber(to - 4, to),
            CivilTime.isValid(year: year, month: month, day: day)
        else { return nil }
        return (year, month, day)
    }
}
