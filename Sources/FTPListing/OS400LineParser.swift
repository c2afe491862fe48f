// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// IBM OS/400 (AS/400, IBM i) lines: `owner  size date time *TYPE  name`, e.g.
/// `QSYS   77824 02/23/00 15:09:55 *DIR   docs/` or, for members, `QPGMR   *MEM   FILE.FILE/MBR.MBR`.
///
/// The date's order follows the job's date format: `.` means day first; with `/` or `-`, a first
/// number above 12 means day first, otherwise month first (the IBM default, MDY). Object types:
/// `*DIR`, `*LIB`, `*FLR` are folders; `*STMF`, `*FILE`, `*MEM`, `*DOC` files; others `other`.
/// A member listed as `FILE.FILE/MBR.MBR` belongs to that file's own listing and is skipped; a
/// name given with its path keeps only its last component.
extension ListingReader {
    /// Reads an OS/400 line; nil when the line is not shaped like one.
    func parseOS400(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 3 else { return nil }
        var k = 1
        var size: UInt64? = nil
        var modified: ListedTime? = nil
        if line[t.starts[1]] != 0x2A {
            guard t.count >= 6, let value = line.decimal(t.starts[1], t.ends[1]),
                let date = NumericDate.scan(line, t.starts[2], t.ends[2]),
                let clock = DateTokens.time(line, t.starts[3], t.ends[3]), let second = clock.second,
                line[t.starts[4]] == 0x2A
            else { return nil }
            var (month, day, yy) = date.fields
            if date.separator == 0x2E || (month > 12 && day <= 12) { swap(&month, &day) }
            let year = date.widths.2 == 4 ? yy : expandTwoDigitYear(yy, month: month, day: day)
            guard date.widths.2 == 2 || date.widths.2 == 4, CivilTime.isValid(year: year, month: month, day: day)
            else { return reject("invalid date", line) }
            size = value
            modified = listedTime(
                year: year, month: month, day: day, hour: clock.hour, minute: clock.minute, second: second,
                precision: .second)
            k = 4
        }
        let ts = t.starts[k]
        let te = t.ends[k]
        guard te - ts >= 3, k + 1 < t.count else { return k + 1 < t.count ? nil : .ignored }
        let type: EntryType
        if line.equalsIgnoringCase(ts, te, "*DIR") || line.equalsIgnoringCase(ts, te, "*LIB")
            || line.equalsIgnoringCase(ts, te, "*FLR")
        {
            type = .dir
        } else if line.equalsIgnoringCase(ts, te, "*STMF") || line.equalsIgnoringCase(ts, te, "*FILE")
            || line.equalsIgnoringCase(ts, te, "*MEM") || line.equalsIgnoringCase(ts, te, "*DOC")
        {
            type = .file
        } else {
            for i in (ts + 1)..<te where line[i] &- 0x41 >= 26 { return nil }  // "*PGM", "*SAVF"
            type = .other
        }
        var end = line.count
        while end > t.starts[k + 1] + 1 && line[end - 1] == 0x2F { end -= 1 }  // "docs/"
        var start = t.starts[k + 1]
        for i in start..<end where line[i] == 0x2F {
            if line.equalsIgnoringCase(ts, te, "*MEM") { return .ignored }
            start = i + 1
        }
        guard start < end else { return .ignored }  // "*DIR  /"
        let name = line.slice(start, end)
        if let refused = refusal(ofName: name, in: line) { return refused }
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: type == .file ? size : nil,
                modified: modified, owner: text(line, t.starts[0], t.ends[0])))
    }
}
