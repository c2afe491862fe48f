// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// IBM z/VM (CMS) minidisk lines: `FNAME  FTYPE  F|V  lrecl  records  blocks  YYYY-MM-DD HH:MM:SS
/// label`, e.g. `PROFILE  EXEC  V  65  107  2  2005-10-04 15:28:42 060191`.
///
/// The name is `FNAME.FTYPE` (what RETR takes). The size is records × record length: exact for
/// fixed-length records (`F`), an upper bound for variable ones (`V`), so approximate.
extension ListingReader {
    /// Reads a z/VM line; nil when the line is not shaped like one.
    func parseZVM(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 8, t.length(2) == 1 else { return nil }
        let format = line[t.starts[2]]
        guard format == 0x46 || format == 0x56, let lrecl = line.decimal(t.starts[3], t.ends[3]),
            let records = line.decimal(t.starts[4], t.ends[4]), line.decimal(t.starts[5], t.ends[5]) != nil,
            let date = DateTokens.numericDate(line, t.starts[6], t.ends[6]),
            let clock = DateTokens.time(line, t.starts[7], t.ends[7])
        else { return nil }
        guard CivilTime.isValid(year: date.year, month: date.month, day: date.day) else {
            return reject("invalid date", line)
        }
        var name = Array(line.slice(t.starts[0], t.ends[0]))
        name.append(0x2E)
        name.append(contentsOf: line.slice(t.starts[1], t.ends[1]))
        let (bytes, overflow) = lrecl.multipliedReportingOverflow(by: records)
        let modified = listedTime(
            year: date.year, month: date.month, day: date.day, hour: clock.hour, minute: clock.minute,
            second: clock.second ?? 0, precision: clock.second == nil ? .minute : .second)
        return name.withUnsafeBufferPointer { bytesOfName in
            if let refused = refusal(ofName: bytesOfName, in: line) { return refused }
            let decoded = decodeName(bytesOfName)
            return .entry(
                ListingEntry(
                    name: decoded.name, rawName: decoded.raw, type: .file, size: overflow ? nil : bytes,
                    sizeIsExact: format == 0x46, modified: modified))
        }
    }
}
