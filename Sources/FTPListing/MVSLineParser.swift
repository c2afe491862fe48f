// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// IBM MVS / z/OS lines: the dataset list (`Volume Unit Referred Ext Used Recfm Lrecl BlkSz Dsorg
/// Dsname`) and the two member lists of a partitioned dataset (PDS): source members
/// (`Name VV.MM Created Changed Size Init Mod Id`) and load modules (`Name Size TTR ...`, hex size).
///
/// A partitioned dataset (`PO`, `PO-E`) is a folder of members; every other dataset and every
/// member is a file. Dataset lines give tracks, not bytes, and source members give a count of
/// lines, so neither has a size; load modules give their size in bytes (hex). A dataset line's
/// date is the last reference, which every read (a download too) moves, so it is not a
/// modification time and is left out; a source member's `Changed` time is one (to the minute).
extension ListingReader {
    /// Reads an MVS dataset line; nil when the line is not shaped like one.
    func parseMVSDataset(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 2 else { return nil }
        var type = EntryType.file
        if line.equalsIgnoringCase(t.starts[0], t.ends[0], "Migrated")
            || line.equalsIgnoringCase(t.starts[0], t.ends[0], "ARCIVE")
        {
            guard t.count == 2 else { return nil }
        } else {
            guard t.count >= 3, t.length(0) <= 6 else { return nil }
            let s1 = t.starts[1]
            let e1 = t.ends[1]
            let unit = (e1 - s1 == 4 && line.decimal(s1, e1) != nil) || line.equalsIgnoringCase(s1, e1, "Tape")
            guard unit else { return nil }
            let s2 = t.starts[2]
            let e2 = t.ends[2]
            if let date = NumericDate.scan(line, s2, e2) {
                guard date.separator == 0x2F, date.widths.0 == 4, t.count >= 5 else { return nil }
            } else if !(line.equalsIgnoringCase(s2, e2, "**NONE**") || line.equalsIgnoringCase(s2, e2, "VSAM")
                || t.count == 3)
            {
                return nil
            }
            if t.count >= 5 {
                let ds = t.starts[t.count - 2]
                let de = t.ends[t.count - 2]
                if de - ds >= 2 && line[ds] == 0x50 && line[ds + 1] == 0x4F { type = .dir }  // PO, PO-E
            }
        }
        return mvsEntry(line, nameToken: t.count - 1, type: type, size: nil, sizeIsExact: true, modified: nil)
    }

    /// Reads a PDS member line (with statistics, load-module columns, or the bare name of a member
    /// without statistics); nil when the line is not shaped like one.
    func parseMVSMember(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard isMemberName(line, t.starts[0], t.ends[0]) else { return nil }
        if t.count == 1 {
            return mvsEntry(line, nameToken: 0, type: .file, size: nil, sizeIsExact: true, modified: nil)
        }
        if t.count >= 8, let changed = NumericDate.scan(line, t.starts[3], t.ends[3]), changed.widths.0 == 4,
            changed.separator == 0x2F, NumericDate.scan(line, t.starts[2], t.ends[2]) != nil,
            let clock = DateTokens.time(line, t.starts[4], t.ends[4]),
            line.decimal(t.starts[5], t.ends[5]) != nil
        {
            let (year, month, day) = changed.fields
            guard CivilTime.isValid(year: year, month: month, day: day) else { return reject("invalid date", line) }
            let modified = listedTime(
                year: year, month: month, day: day, hour: clock.hour, minute: clock.minute,
                second: clock.second ?? 0, precision: clock.second == nil ? .minute : .second)
            return mvsEntry(line, nameToken: 0, type: .file, size: nil, sizeIsExact: true, modified: modified)
        }
        if t.count >= 4, t.length(1) == 6, t.length(2) == 6, let size = hexValue(line, t.starts[1], t.ends[1]),
            hexValue(line, t.starts[2], t.ends[2]) != nil
        {
            return mvsEntry(line, nameToken: 0, type: .file, size: size, sizeIsExact: true, modified: nil)
        }
        return nil
    }

    /// The column headers of the three list kinds.
    func isMVSHeader(_ line: Line) -> Bool {
        let t = tokens
        guard t.count >= 3 else { return false }
        let s1 = t.starts[1]
        let e1 = t.ends[1]
        if line.equalsIgnoringCase(t.starts[0], t.ends[0], "Volume") { return line.equalsIgnoringCase(s1, e1, "Unit") }
        guard line.equalsIgnoringCase(t.starts[0], t.ends[0], "Name") else { return false }
        return line.equalsIgnoringCase(s1, e1, "VV.MM") || line.equalsIgnoringCase(s1, e1, "Size")
    }

    /// 1-8 of A-Z, 0-9, `$`, `#`, `@`, not starting with a digit.
    private func isMemberName(_ line: Line, _ s: Int, _ e: Int) -> Bool {
        guard e - s >= 1, e - s <= 8, !Byte.isDigit(line[s]) else { return false }
        for i in s..<e {
            let b = line[i]
            guard b &- 0x41 < 26 || Byte.isDigit(b) || b == 0x24 || b == 0x23 || b == 0x40 else { return false }
        }
        return true
    }

    /// The upper-case hexadecimal number `s..<e` (1-15 digits, so it cannot overflow), or nil.
    func hexValue(_ line: Line, _ s: Int, _ e: Int) -> UInt64? {
        guard e > s, e - s <= 15 else { return nil }
        var value: UInt64 = 0
        for i in s..<e {
            let b = line[i]
            let digit: UInt8
            if Byte.isDigit(b) {
                digit = b - Byte.zero
            } else if b &- 0x41 < 6 {
                digit = b - 0x41 + 10
            } else {
                return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    private func mvsEntry(
        _ line: Line, nameToken k: Int, type: EntryType, size: UInt64?, sizeIsExact: Bool, modified: ListedTime?
    ) -> ParsedLine {
        let name = line.slice(tokens.starts[k], tokens.ends[k])
        if let refused = refusal(ofName: name, in: line) { return refused }
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: size, sizeIsExact: sizeIsExact,
                modified: modified))
    }
}
