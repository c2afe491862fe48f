// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Lines of old VShell servers: size first, then `Mon DD, YYYY HH:MM`, then the name, a folder's
/// name ending in `/`: `206876  Apr 04, 2000 21:06 report.doc`, `0  Dec 12, 2002 02:13 backups/`.
extension ListingReader {
    /// Reads a VShell line, or nil when the line does not have that shape.
    func parseVShell(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 6, line[t.ends[2] - 1] == 0x2C,
            let month = DateTokens.month(line, t.starts[1], t.ends[1]),
            let day = line.smallNumber(t.starts[2], t.ends[2] - 1), t.length(3) == 4,
            let year = line.smallNumber(t.starts[3], t.ends[3]), CivilTime.isValid(year: year, month: month, day: day),
            let clock = DateTokens.time(line, t.starts[4], t.ends[4]), clock.second == nil,
            let size = line.decimal(t.starts[0], t.ends[0])
        else { return nil }
        var nameEnd = line.count
        var type = EntryType.file
        if line[nameEnd - 1] == 0x2F {
            type = .dir
            nameEnd -= 1
        }
        let name = line.slice(t.starts[5], nameEnd)
        if name.isEmpty { return reject("VShell line without a name", line) }
        if let refused = refusal(ofName: name, in: line) { return refused }
        let modified = listedTime(
            year: year, month: month, day: day, hour: clock.hour, minute: clock.minute, second: 0, precision: .minute)
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: type == .file ? size : nil,
                modified: modified))
    }
}
