// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The all-numeric `ls` variant some servers send: octal `st_mode`, uid, gid, size, modification
/// time in seconds since the epoch (UTC), then the name (`0100644 500 101 12345 123456789 name`).
extension ListingReader {
    /// Reads a numeric UNIX line; nil when the line is not one.
    func parseNumericUnix(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 6, t.length(0) >= 6, t.length(0) <= 7, line[t.starts[0]] == Byte.zero else { return nil }
        var mode = 0
        for i in t.starts[0]..<t.ends[0] {
            let d = Int(line[i] &- Byte.zero)
            guard d < 8 else { return nil }
            mode = mode * 8 + d
        }
        for k in 1...3 where line.decimal(t.starts[k], t.ends[k]) == nil { return nil }
        guard let size = line.decimal(t.starts[3], t.ends[3]), let seconds = line.decimal(t.starts[4], t.ends[4]),
            seconds < 1 << 40
        else { return nil }
        let type: EntryType
        switch mode & 0o170000 {
        case 0o100000: type = .file
        case 0o040000: type = .dir
        case 0o120000: type = .link
        default: type = .other
        }
        let name = line.slice(t.starts[5], line.count)
        if let refused = refusal(ofName: name, in: line) { return refused }
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: type == .file ? size : nil,
                modified: ListedTime(date: Date(timeIntervalSince1970: Double(seconds)), precision: .second),
                owner: text(line, t.starts[1], t.ends[1]), group: text(line, t.starts[2], t.ends[2])))
    }
}
