// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// LIST lines in a legacy charset (GBK, Shift_JIS, ...): the line is decoded to UTF-8 before it
/// is tokenised, so date signs such as `月` read as they do in UTF-8 listings and a trail byte
/// that happens to be an ASCII letter (Shift_JIS `年` is 0x94 0x4E) is never read as a letter.
/// Names and link targets are still taken from the line's original bytes.
///
/// Only fields that can be a date token are decoded: at most `maxDateField` bytes with a digit
/// and a non-ASCII byte (`5月`, `2003年`, `18日`). Other fields are read as bytes, as before, so a
/// long name with bytes invalid in the encoding costs no decoding until its entry is built.
extension ListingReader {
    /// The longest field (in bytes) decoded as a possible date token: `2024年12月31日` in GBK is 13.
    static let maxDateField = 16

    /// Where the fields of a decoded line came from: one piece per field that was decoded
    /// (other fields and the blanks between fields are copied unchanged).
    struct LegacyLine {
        /// The original line.
        let raw: Line
        /// The decoded copy that the parsers read.
        let decoded: Line
        /// Per decoded field: its start and end in the raw line and in the decoded copy.
        let pieces: [(rawStart: Int, rawEnd: Int, start: Int, end: Int)]

        /// The raw bytes of the decoded bytes `slice`, or nil when the slice starts or ends inside
        /// a decoded field (its original bytes cannot be told apart then) or is not part of the
        /// decoded copy.
        func original(of slice: Line) -> Line? {
            guard let base = slice.baseAddress else { return raw.slice(0, 0) }
            guard let origin = decoded.baseAddress, base >= origin, base + slice.count <= origin + decoded.count
            else { return nil }
            let start = base - origin
            guard let from = rawOffset(start), let to = rawOffset(start + slice.count), from <= to, to <= raw.count
            else { return nil }
            return raw.slice(from, to)
        }

        private func rawOffset(_ offset: Int) -> Int? {
            var shift = 0
            for piece in pieces {
                if offset <= piece.start { break }
                if offset < piece.end { return nil }
                shift = piece.rawEnd - piece.end
            }
            return offset + shift
        }
    }

    /// Reads a LIST line, decoding its possible date tokens first when the context has a decoder
    /// and the line has non-ASCII bytes. When a name cannot be mapped back to its bytes (it would
    /// start or end inside a decoded field), the raw line is read instead.
    func parseListDecoding(_ line: Line) -> ParsedLine {
        guard let decoder = context.decodeName, line.contains(where: { $0 >= 0x80 }) else {
            return parseList(line)
        }
        var text: [UInt8] = []
        text.reserveCapacity(line.count * 3 / 2)
        var pieces: [(rawStart: Int, rawEnd: Int, start: Int, end: Int)] = []
        var i = 0
        let n = line.count
        while i < n {
            if Byte.isBlank(line[i]) {
                text.append(line[i])
                i += 1
                continue
            }
            let s = i
            var high = false
            var digit = false
            while i < n && !Byte.isBlank(line[i]) {
                if line[i] >= 0x80 { high = true }
                if Byte.isDigit(line[i]) { digit = true }
                i += 1
            }
            let field = line.slice(s, i)
            if high, digit, i - s <= Self.maxDateField, let decoded = decoder(Array(field)) {
                let start = text.count
                text.append(contentsOf: decoded.utf8)
                pieces.append((s, i, start, text.count))
            } else {
                text.append(contentsOf: field)
            }
        }
        let result = text.withUnsafeBufferPointer { utf8 -> ParsedLine? in
            legacyLine = LegacyLine(raw: line, decoded: utf8, pieces: pieces)
            legacyMappingFailed = false
            defer { legacyLine = nil }
            let parsed = parseList(utf8)
            return legacyMappingFailed ? nil : parsed
        }
        return result ?? parseList(line)
    }

    /// The bytes a parser's name or target slice stands for: itself, or while a decoded line is
    /// read, the original bytes (nil, and the decoded reading abandoned, when they are unknown).
    func originalBytes(_ slice: Line) -> Line? {
        guard let legacy = legacyLine else { return slice }
        guard let raw = legacy.original(of: slice) else {
            legacyMappingFailed = true
            return nil
        }
        return raw
    }
}
