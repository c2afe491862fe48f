// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// EPLF lines (D. J. Bernstein's "Easily Parsed LIST Format"): `+` facts separated by `,`, a TAB,
/// then the name, e.g. `+i8388621.48594,m825718503,r,s280,up755<TAB>notes.txt`.
/// Facts: `/` a folder, `r` a file that can be retrieved, `s` the size in bytes, `m` the
/// modification time in seconds since 1970 UTC; others (`i` id, `up` permissions) are skipped.
extension ListingReader {
    /// Reads a line that starts with `+`.
    func parseEPLF(_ line: Line) -> ParsedLine {
        var tab = 1
        while tab < line.count && line[tab] != Byte.tab { tab += 1 }
        guard tab < line.count else { return reject("EPLF line without a TAB before the name", line) }
        let name = line.slice(tab + 1, line.count)
        if name.isEmpty { return reject("EPLF line without a name", line) }
        if let refused = refusal(ofName: name, in: line) { return refused }
        var isDir = false
        var isFile = false
        var size: UInt64? = nil
        var modified: ListedTime? = nil
        var start = 1
        while start < tab {
            var end = start
            while end < tab && line[end] != 0x2C { end += 1 }
            if end > start {
                let value = line.slice(start + 1, end)
                switch line[start] {
                case 0x2F: isDir = true
                case 0x72: isFile = true
                case 0x73: size = value.decimal(0, value.count)
                case 0x6D:
                    // Seconds since 1970; bounded to years before 5000 so the Date stays exact.
                    if let seconds = value.decimal(0, value.count), seconds < 95_617_584_000 {
                        modified = ListedTime(date: Date(timeIntervalSince1970: Double(seconds)), precision: .second)
                    }
                default: break
                }
            }
            start = end + 1
        }
        let type: EntryType = isDir ? .dir : isFile ? .file : .other
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: type == .file ? size : nil,
                modified: modified))
    }
}
