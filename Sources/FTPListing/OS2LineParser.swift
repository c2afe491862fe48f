// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// IBM OS/2 FTP server lines: `size  [attributes] [DIR]  MM-DD-YY  HH:MM  name`, e.g.
/// `     0           DIR   05-12-97   16:44  LANGUAGE` or `149473      A          11-17-98   16:07  POPUPLOG.OS2`.
///
/// The year has two digits, four, or three for 2000 and later on servers that print `year - 1900`
/// (`04-23-103`). Attributes are upper-case letters (`A`, `R`, `S`, `H`, `RSA`).
extension ListingReader {
    /// Reads an OS/2 line; nil when the line is not shaped like one.
    func parseOS2(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 4, let size = line.decimal(t.starts[0], t.ends[0]) else { return nil }
        var k = 1
        var isDir = false
        while k < t.count && k <= 3 && !Byte.isDigit(line[t.starts[k]]) {
            for i in t.starts[k]..<t.ends[k] where line[i] &- 0x41 >= 26 { return nil }  // A-Z only
            if line.equalsIgnoringCase(t.starts[k], t.ends[k], "DIR") { isDir = true }
            k += 1
        }
        guard k + 2 < t.count, let date = NumericDate.scan(line, t.starts[k], t.ends[k]), date.separator == 0x2D,
            date.widths.0 <= 2, date.widths.1 <= 2, date.widths.2 >= 2,
            let clock = DateTokens.time(line, t.starts[k + 1], t.ends[k + 1]), clock.second == nil
        else { return nil }
        let (month, day, yy) = date.fields
        let year: Int
        switch date.widths.2 {
        case 2: year = expandTwoDigitYear(yy, month: month, day: day)
        case 3: year = 1900 + yy
        default: year = yy
        }
        guard CivilTime.isValid(year: year, month: month, day: day) else { return reject("invalid date", line) }
        let name = line.slice(t.starts[k + 2], line.count)
        if let refused = refusal(ofName: name, in: line) { return refused }
        let decoded = decodeName(name)
        let modified = listedTime(
            year: year, month: month, day: day, hour: clock.hour, minute: clock.minute, second: 0, precision: .minute)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: isDir ? .dir : .file, size: isDir ? nil : size,
                modified: modified))
    }
}
