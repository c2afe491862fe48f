// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a VMS listing carries from line to line: a name whose fields follow on the next line,
/// and the version kept of each name (VMS lists every version of a file).
final class VMSListingState {
    /// The name of an entry whose fields are on the next line (`LONG_NAME.TXT;12` alone).
    var pendingName: [UInt8]? = nil
    /// The warning for a lone name whose fields did not follow, until the listing takes it.
    var orphanWarning: String? = nil
    /// Per name (uppercased, version removed): the highest version given and its entry's index
    /// among the listing's entries.
    var kept: [[UInt8]: (version: Int, index: Int)] = [:]
    /// The name key and version of the entry the last line gave, until the listing places it.
    var lastEntry: (key: [UInt8], version: Int)? = nil
}

/// OpenVMS `DIRECTORY/SIZE/DATE/OWNER/PROTECTION`-style lines:
/// `NAME.EXT;3   12/16   2-JUN-1998 07:32:04.15  [GROUP,OWNER]  (RWED,RWED,RE,)`.
///
/// The fields after the name come in any order and any may be missing except the date; a long
/// name stands alone on its line and its fields follow on the next (when they do not, the name
/// is reported as an unreadable line). Names are given without `;version`: VMS servers read a
/// name without version as its highest version, so only that version's line gives the entry,
/// whatever the order the versions are listed in. `NAME.DIR;1` is the folder `NAME`.
/// Sizes in 512-byte blocks (`12` or `12/16`, used/allocated) are approximate.
extension ListingReader {
    /// Reads a line whose first token is a VMS name with `;version`; nil when it is not one.
    func parseVMS(_ line: Line) -> ParsedLine? {
        guard vmsVersionStart(line, tokens.starts[0], tokens.ends[0]) != nil else { return nil }
        if tokens.count == 1 {
            vms.pendingName = Array(line.slice(tokens.starts[0], tokens.ends[0]))
            return .ignored
        }
        return parseVMSFields(line, nameFrom: 1, name: line.slice(tokens.starts[0], tokens.ends[0]))
            ?? reject("unreadable VMS fields", line)
    }

    /// Reads the line after a lone VMS name as that name's fields; nil when there is no such name
    /// or the line does not hold its fields (the name is then reported, see `flushVMSName`, and
    /// the line read by itself).
    func parseAfterPendingVMSName(_ line: Line) -> ParsedLine? {
        guard let name = vms.pendingName else { return nil }
        if let fields = name.withUnsafeBufferPointer({ parseVMSFields(line, nameFrom: 0, name: $0) }) {
            vms.pendingName = nil
            return fields
        }
        flushVMSName()
        return nil
    }

    /// Turns a lone VMS name whose fields never came (a blank line, another entry, the totals or
    /// the end of the data followed it) into the warning `takeVMSWarning` gives.
    func flushVMSName() {
        guard let name = vms.pendingName else { return }
        vms.pendingName = nil
        let message = name.withUnsafeBufferPointer { warning("VMS name without its fields", quoting: $0) }
        vms.orphanWarning = message
    }

    /// The warning of a lone VMS name whose fields did not follow, once.
    func takeVMSWarning() -> String? {
        guard let message = vms.orphanWarning else { return nil }
        vms.orphanWarning = nil
        return message
    }

    /// Adds the entry the last line gave to `entries`: for a VMS version, in place of a lower
    /// version of the same name listed before, or not at all when a higher one was.
    func place(_ entry: ListingEntry, in entries: inout [ListingEntry]) {
        guard let last = vms.lastEntry else {
            entries.append(entry)
            return
        }
        vms.lastEntry = nil
        if let kept = vms.kept[last.key] {
            guard last.version > kept.version else { return }
            entries[kept.index] = entry
            vms.kept[last.key] = (last.version, kept.index)
        } else {
            vms.kept[last.key] = (last.version, entries.count)
            entries.append(entry)
        }
    }

    /// The index of the `;` before the version digits that end `from..<to`, or nil.
    func vmsVersionStart(_ line: Line, _ from: Int, _ to: Int) -> Int? {
        var i = to
        while i > from && Byte.isDigit(line[i - 1]) { i -= 1 }
        guard i < to, to - i <= 5, i - 1 > from, line[i - 1] == 0x3B else { return nil }
        return i - 1
    }

    /// The fields from token `first` on, for `name` (with its `;version`).
    private func parseVMSFields(_ line: Line, nameFrom first: Int, name: Line) -> ParsedLine? {
        let t = tokens
        var size: UInt64? = nil
        var date: (year: Int, month: Int, day: Int)? = nil
        var time: (hour: Int, minute: Int, second: Int?, hundredths: Int?)? = nil
        var sawOwner = false
        var sawProtection = false
        var noAccess = false
        for k in first..<t.count {
            let s = t.starts[k]
            let e = t.ends[k]
            let b = line[s]
            if b == 0x5B {  // [GROUP,OWNER]
                guard !sawOwner, vmsOwner(line, s + 1, e) else { return nil }
                sawOwner = true
            } else if b == 0x28 {  // (RWED,RWED,RE,)
                guard !sawProtection, vmsProtection(line, s, e) else { return nil }
                sawProtection = true
            } else if b == 0x25 && k == first {  // %RMS-E-PRV, insufficient privilege
                noAccess = true
                break
            } else if Byte.isDigit(b) {
                if date == nil, let d = vmsDate(line, s, e) {
                    date = d
                } else if date != nil, time == nil, let clock = vmsTime(line, s, e) {
                    time = clock
                } else if size == nil, let blocks = vmsSize(line, s, e) {
                    size = blocks
                } else {
                    return nil
                }
            } else if date != nil && !sawOwner && isVMSWord(line, s, e) {
                sawOwner = true  // an owner without brackets: "PRONAS"
            } else {
                return nil
            }
        }
        guard noAccess || date != nil else { return nil }
        guard let semicolon = vmsVersionStart(name, 0, name.count) else { return nil }
        var type = EntryType.file
        var end = semicolon
        if end >= 5 && name.equalsIgnoringCase(end - 4, end, ".DIR") {
            type = .dir
            end -= 4
        }
        let bare = name.slice(0, end)
        if let refused = refusal(ofName: bare, in: line) { return refused }
        var key = [UInt8]()
        key.reserveCapacity(bare.count)
        for c in bare { key.append(c &- 0x61 < 26 ? c - 0x20 : c) }
        let version = name.smallNumber(semicolon + 1, name.count) ?? 0
        var modified: ListedTime? = nil
        if let date {
            guard CivilTime.isValid(year: date.year, month: date.month, day: date.day) else { return nil }
            let clock = time ?? (0, 0, nil, nil)
            let precision: TimePrecision = time == nil ? .day : clock.second == nil ? .minute : .second
            var listed = listedTime(
                year: date.year, month: date.month, day: date.day, hour: clock.hour, minute: clock.minute,
                second: clock.second ?? 0, precision: precision)
            if let hundredths = clock.hundredths {
                listed.date += Double(hundredths) / 100
                listed.precision = .subsecond
            }
            modified = listed
        }
        let decoded = decodeName(bare)
        vms.lastEntry = (key, version)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: type == .file ? size : nil,
                sizeIsExact: false, modified: modified))
    }

    /// `2-JUN-1998`, `15-JUI-2002` (French July): day, English month (or `JUI`), four-digit year.
    private func vmsDate(_ line: Line, _ s: Int, _ e: Int) -> (year: Int, month: Int, day: Int)? {
        var dash1 = s
        while dash1 < e && line[dash1] != 0x2D { dash1 += 1 }
        guard dash1 < e, dash1 - s <= 2, let day = line.smallNumber(s, dash1), dash1 + 4 < e,
            line[dash1 + 4] == 0x2D, e - (dash1 + 5) == 4, let year = line.smallNumber(dash1 + 5, e)
        else { return nil }
        var month = DateTokens.month(line, dash1 + 1, dash1 + 4)
        if month == nil && line.equalsIgnoringCase(dash1 + 1, dash1 + 4, "JUI") { month = 7 }
        guard let month, !Byte.isDigit(line[dash1 + 1]) else { return nil }
        return (year, month, day)
    }

    /// `07:32`, `07:32:04` or `07:32:04.15` (hundredths).
    private func vmsTime(_ line: Line, _ s: Int, _ e: Int) -> (hour: Int, minute: Int, second: Int?, hundredths: Int?)?
    {
        var end = e
        var hundredths: Int? = nil
        if e - s == 11 && line[e - 3] == 0x2E {
            guard let h = line.smallNumber(e - 2, e) else { return nil }
            hundredths = h
            end = e - 3
        }
        guard let clock = DateTokens.time(line, s, end) else { return nil }
        return (clock.hour, clock.minute, clock.second, hundredths)
    }

    /// Blocks used (`12`, `12/16`) as bytes (×512), or `2KB`/`3MB`/`1GB` as bytes; nil on overflow.
    private func vmsSize(_ line: Line, _ s: Int, _ e: Int) -> UInt64? {
        var i = s
        while i < e && Byte.isDigit(line[i]) { i += 1 }
        guard let value = line.decimal(s, i) else { return nil }
        var unit: UInt64 = 512
        if i < e {
            if line[i] == 0x2F {
                guard line.decimal(i + 1, e) != nil else { return nil }
            } else if line.equalsIgnoringCase(i, e, "KB") {
                unit = 1 << 10
            } else if line.equalsIgnoringCase(i, e, "MB") {
                unit = 1 << 20
            } else if line.equalsIgnoringCase(i, e, "GB") {
                unit = 1 << 30
            } else {
                return nil
            }
        }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : bytes
    }

    /// `GROUP,OWNER]`, `TRANSLATED]`, or a closing bracket cut off by a long owner.
    private func vmsOwner(_ line: Line, _ s: Int, _ e: Int) -> Bool {
        var end = e
        if end > s && line[end - 1] == 0x5D { end -= 1 }
        guard end > s else { return false }
        for i in s..<end where !(isVMSWordByte(line[i]) || line[i] == 0x2C) { return false }
        return true
    }

    /// `(RWED,RWED,RE,)`: four groups of R, W, E, D.
    private func vmsProtection(_ line: Line, _ s: Int, _ e: Int) -> Bool {
        guard e - s >= 5, line[e - 1] == 0x29 else { return false }
        var commas = 0
        for i in (s + 1)..<(e - 1) {
            switch line[i] {
            case 0x2C: commas += 1
            case 0x52, 0x57, 0x45, 0x44: break  // R W E D
            default: return false
            }
        }
        return commas == 3
    }

    private func isVMSWord(_ line: Line, _ s: Int, _ e: Int) -> Bool {
        if line.equalsIgnoringCase(s, e, "AM") || line.equalsIgnoringCase(s, e, "PM") { return false }
        for i in s..<e where !isVMSWordByte(line[i]) { return false }
        return true
    }

    @inline(__always) private func isVMSWordByte(_ b: UInt8) -> Bool {
        Byte.isDigit(b) || (b | 0x20) &- 0x61 < 26 || b == 0x5F || b == 0x24 || b == 0x2E
    }

    /// `Directory USER1:[DIR]`, `Total of 4 files, 12/64 blocks.`, `Grand total of ...`.
    func isVMSNoise(_ line: Line) -> Bool {
        let s = tokens.starts[0]
        let e = tokens.ends[0]
        if line.equalsIgnoringCase(s, e, "Directory") && tokens.count == 2 {
            for i in tokens.starts[1]..<tokens.ends[1] where line[i] == 0x5B || line[i] == 0x3A { return true }
            return false
        }
        guard tokens.count >= 2, line.equalsIgnoringCase(s, e, "Total") || line.equalsIgnoringCase(s, e, "Grand")
        else { return false }
        let s1 = tokens.starts[1]
        let e1 = tokens.ends[1]
        return line.equalsIgnoringCase(s1, e1, "of") || line.equalsIgnoringCase(s1, e1, "total")
            || line.decimal(s1, e1) != nil
    }
}
