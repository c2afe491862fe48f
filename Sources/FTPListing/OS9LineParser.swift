// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Microware OS-9 `dir -e` lines: `group.user  YY/MM/DD  HHMM  attributes  sector  bytes  name`,
/// e.g. `20.20 07/03/29 1026 d-ewrewr 2650 85920 CMDS`; attributes starting with `d` mark a folder.
extension ListingReader {
    /// Reads an OS-9 line; nil when the line is not shaped like one.
    func parseOS9(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 7, t.length(2) == 4, t.length(3) == 8 else { return nil }
        let s0 = t.starts[0]
        let e0 = t.ends[0]
        var dot = s0
        while dot < e0 && line[dot] != 0x2E { dot += 1 }
        guard line.decimal(s0, dot) != nil, dot < e0, line.decimal(dot + 1, e0) != nil,
            let date = NumericDate.scan(line, t.starts[1], t.ends[1]), date.separator == 0x2F,
            date.widths == (2, 2, 2), let hour = line.smallNumber(t.starts[2], t.starts[2] + 2),
            let minute = line.smallNumber(t.starts[2] + 2, t.ends[2]), hour < 24, minute < 60,
            hexValue(line, t.starts[4], t.ends[4]) != nil, let size = line.decimal(t.starts[5], t.ends[5])
        else { return nil }
        let typeChar = line[t.starts[3]]
        guard typeChar == 0x64 || typeChar == 0x2D else { return nil }
        for i in (t.starts[3] + 1)..<t.ends[3] {
            switch line[i] {
            case 0x2D, 0x65, 0x77, 0x72, 0x73: break  // - e w r s
            default: return nil
            }
        }
        let (yy, month, day) = date.fields
        let year = expandTwoDigitYear(yy, month: month, day: day)
        guard CivilTime.isValid(year: year, month: month, day: day) else { return reject("invalid date", line) }
        let name = line.slice(t.starts[6], line.count)
        if let refused = refusal(ofName: name, in: line) { return refused }
        let isDir = typeChar == 0x64
        let decoded = decodeName(name)
        let modified = listedTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: 0, precision: .minute)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: isDir ? .dir : .file, size: isDir ? nil : size,
                modified: modified, owner: text(line, s0, e0)))
    }
}
