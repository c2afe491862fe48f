// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// UNIX `ls -l` lines and their relatives (NetWare, classic Mac servers), anchored on the date:
/// the size is the token before the date, the name starts one space after it.
extension ListingReader {
    private enum SizeField {
        case exact(UInt64)
        case approximate(UInt64)
        case unknown
    }

    /// Reads a UNIX-style line; nil when the line does not start like one.
    func parseUnix(_ line: Line) -> ParsedLine? {
        let t = tokens
        guard t.count >= 4 else { return nil }
        let mode0 = t.starts[0]
        var typeChar = line[mode0]
        var netware = false
        var gluedLinks = false
        var modeRange = (mode0 + 1, mode0 + 10)
        if t.length(0) == 1 && (typeChar == 0x64 || typeChar == 0x2D) && line[t.starts[1]] == 0x5B {
            netware = true  // "d [RWCEAFMS] owner size date name"
            modeRange = (t.starts[1], t.ends[1])
        } else if Byte.isDigit(typeChar) {
            return parseNumericUnix(line)
        } else {
            guard let mode = modeField(line) else { return nil }
            typeChar = mode.type
            modeRange = mode.range
            gluedLinks = mode.gluedLinks
        }

        var found: FoundDate? = nil
        var dateIndex = 2
        while dateIndex + 1 < t.count {
            if sizeField(line, dateIndex - 1) != nil, let date = findDate(line, at: dateIndex) {
                found = date
                break
            }
            dateIndex += 1
        }
        let sizeIndex: Int
        var nameStart: Int
        if let found {
            sizeIndex = dateIndex - 1
            nameStart = t.ends[found.lastToken]
        } else {
            guard !netware, let k = datelessSizeIndex(line, gluedLinks: gluedLinks) else {
                return reject("no date found", line)
            }
            sizeIndex = k
            nameStart = t.ends[k]
        }

        var type: EntryType
        switch typeChar {
        case 0x2D, 0x66: type = .file  // "-", and "f" of a few servers
        case 0x64: type = .dir
        case 0x6C: type = .link
        default: type = .other
        }

        // Name: one space after the date (NetWare and one-token dates pad with several).
        let n = line.count
        if netware || found?.padded == true {
            while nameStart < n && Byte.isBlank(line[nameStart]) { nameStart += 1 }
        } else if nameStart < n {
            nameStart += 1
        }
        if nameStart >= n { return .ignored }
        // A date this reader did not read must not become the start of a name.
        if found?.padded ?? true, DateTokens.startsWithDateFragment(line, nameStart) {
            return reject("date not read", line)
        }
        var nameEnd = n
        var targetRange: (Int, Int)? = nil
        if type == .link, let arrow = findArrow(line, from: nameStart) {
            nameEnd = arrow
            targetRange = (arrow + 4, n)
        }
        if type == .dir {
            while nameEnd - nameStart > 1 && line[nameEnd - 1] == 0x2F { nameEnd -= 1 }  // "photos/"
        }
        let name = line.slice(nameStart, nameEnd)
        if name.allSatisfy(Byte.isBlank) { return .ignored }
        if let refused = refusal(ofName: name, in: line) { return refused }

        // Time.
        var modified: ListedTime? = nil
        var inferred = false
        if let date = found, let year = date.year {
            guard CivilTime.isValid(year: year, month: date.month, day: date.day) else {
                return reject("invalid date", line)
            }
            modified = instant(of: date, year: year)
        } else if let date = found {
            let time = date.time ?? (0, 0, nil)
            guard let year = inferYear(month: date.month, day: date.day, hour: time.hour, minute: time.minute) else {
                return reject("invalid date", line)
            }
            inferred = true
            modified = instant(of: date, year: year)
        }

        // Size, and the owner/group columns between the link count and the size.
        var size: UInt64? = nil
        var exact = true
        var lastOwnerIndex = sizeIndex - 1
        let device = typeChar == 0x62 || typeChar == 0x63
        if device {
            if lastOwnerIndex >= 1 && line[t.ends[lastOwnerIndex] - 1] == 0x2C { lastOwnerIndex -= 1 }  // "8, 1"
        } else if type == .file, let field = sizeField(line, sizeIndex) {
            switch field {
            case .exact(let value): size = value
            case .approximate(let value):
                size = value
                exact = false
            case .unknown: size = nil
            }
        }
        var firstOwnerIndex = netware ? 2 : 1
        if !netware && !gluedLinks && firstOwnerIndex <= lastOwnerIndex
            && line.decimal(t.starts[firstOwnerIndex], t.ends[firstOwnerIndex]) != nil
        {
            firstOwnerIndex += 1  // the link count
        }
        var owner: String? = nil
        var group: String? = nil
        if firstOwnerIndex <= lastOwnerIndex {
            owner = text(line, t.starts[firstOwnerIndex], t.ends[firstOwnerIndex])
            if firstOwnerIndex < lastOwnerIndex {
                group = text(line, t.starts[firstOwnerIndex + 1], t.ends[lastOwnerIndex])
            }
        }
        let mode: String? = text(line, modeRange.0, modeRange.1)
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: size, sizeIsExact: exact,
                modified: modified, target: targetRange.map { decode(line.slice($0.0, $0.1)) }, mode: mode,
                owner: owner, group: group, yearInferred: inferred))
    }

    /// The mode column: a type letter and nine permission characters, perhaps followed by up to
    /// three ACL/extended marks (`+`, `@`, `.`, `FTP`) and a glued link count; or nine permission
    /// characters without the type letter (`rw-r--r--`, a file); or a type letter and eight
    /// (`drw-r--rw`). `range` is the permission characters.
    private func modeField(_ line: Line) -> (type: UInt8, range: (Int, Int), gluedLinks: Bool)? {
        let s = tokens.starts[0]
        let e = tokens.ends[0]
        let length = e - s
        guard length >= 9 else { return nil }
        let first = line[s]
        if length >= 10 && isModeType(first)
            && (isPermissionTriplets(line, s + 1, 9) || isPermissionLike(line, s, s + 10))
        {
            var i = s + 10
            while i < e && i < s + 13 && !Byte.isDigit(line[i]) { i += 1 }
            if i < e && line.decimal(i, e) == nil { return nil }
            return (first, (s + 1, s + 10), i < e)
        }
        if length == 9 || isPermissionTriplets(line, s, 9) {
            if isPermissionTriplets(line, s, 9) {
                if length > 9 {
                    guard length <= 12, !Byte.isDigit(line[s + 9]) else { return nil }
                }
                return (0x2D, (s, s + 9), false)
            }
            if isModeType(first) && isPermissionTriplets(line, s + 1, 8) {
                return (first, (s + 1, e), false)
            }
        }
        return nil
    }

    @inline(__always) private func isModeType(_ b: UInt8) -> Bool {
        switch b {
        // - d l b c p s D n w ? f
        case 0x2D, 0x64, 0x6C, 0x62, 0x63, 0x70, 0x73, 0x44, 0x6E, 0x77, 0x3F, 0x66: return true
        default: return false
        }
    }

    /// Letters and at least two dashes, as odd servers write modes: `dxrwr-xr-x`, Connect:Enterprise's
    /// `-C--E-----`.
    private func isPermissionLike(_ line: Line, _ from: Int, _ to: Int) -> Bool {
        var dashes = 0
        for i in from..<to {
            if line[i] == 0x2D {
                dashes += 1
            } else if Byte.lower(line[i]) &- 0x61 >= 26 {
                return false
            }
        }
        return dashes >= 2
    }

    /// `count` characters at `from` in the `rwx` layout: r or -, w or -, then x s S t T l L or -.
    private func isPermissionTriplets(_ line: Line, _ from: Int, _ count: Int) -> Bool {
        guard from + count <= tokens.ends[0] else { return false }
        for k in 0..<count {
            let b = line[from + k]
            if b == 0x2D { continue }
            switch k % 3 {
            case 0: if b != 0x72 { return false }
            case 1: if b != 0x77 { return false }
            default:
                switch b {
                case 0x78, 0x73, 0x53, 0x74, 0x54, 0x6C, 0x4C: break
                default: return false
                }
            }
        }
        return true
    }

    /// For a line without a date (`-rw-r--r-- 1 owner group 1234 name`): the index of the size
    /// column — after link count, owner and group, or after link count and owner — when no token
    /// after it could be part of a date the parser failed to read; nil otherwise.
    private func datelessSizeIndex(_ line: Line, gluedLinks: Bool) -> Int? {
        let t = tokens
        if !gluedLinks && line.decimal(t.starts[1], t.ends[1]) == nil { return nil }
        let first = gluedLinks ? 2 : 3
        var k = first + 1
        if !(k + 1 < t.count && line.decimal(t.starts[k], t.ends[k]) != nil) {
            k = first
            guard k + 1 < t.count, line.decimal(t.starts[k], t.ends[k]) != nil else { return nil }
        }
        for j in (k + 1)..<t.count {
            let s = t.starts[j]
            let e = t.ends[j]
            if DateTokens.month(line, s, e) != nil { return nil }
            var numeric = true
            for i in s..<e {
                let b = line[i]
                if !(Byte.isDigit(b) || b == 0x3A || b == 0x2D || b == 0x2F || b == 0x2E || b == 0x2C) {
                    numeric = false
                    break
                }
            }
            if numeric { return nil }
        }
        return k
    }

    /// The token at `k` read as a size column: digits, `12.5M`-style, or a group glued to digits.
    private func sizeField(_ line: Line, _ k: Int) -> SizeField? {
        let s = tokens.starts[k]
        let e = tokens.ends[k]
        if let value = line.decimal(s, e) { return .exact(value) }
        if Byte.isDigit(line[s]) {
            if line[e - 1] == 0x2C, line.decimal(s, e - 1) != nil { return .unknown }  // device "8,"
            if let comma = firstComma(line, s, e), line.decimal(s, comma) != nil, line.decimal(comma + 1, e) != nil {
                return .unknown  // device "1,3"
            }
            return approximateSize(line, s, e).map { .approximate($0) }
        }
        if line[s] == 0x2D, let magnitude = line.decimal(s + 1, e), magnitude > 0, magnitude <= 1 << 31 {
            return .approximate((1 << 32) - magnitude)  // a 32-bit server's size above 2^31: "-1294967296"
        }
        var digits = 0
        var i = e
        while i > s && Byte.isDigit(line[i - 1]) {
            i -= 1
            digits += 1
        }
        return digits >= 3 && i > s ? .unknown : nil  // "webupld218853376"
    }

    /// The first ',' in `from..<to`.
    private func firstComma(_ line: Line, _ from: Int, _ to: Int) -> Int? {
        var i = from
        while i < to && line[i] != 0x2C { i += 1 }
        return i < to ? i : nil
    }

    /// `12.5M`, `88.2k`, `3G`: bytes with a binary multiplier, truncated.
    private func approximateSize(_ line: Line, _ s: Int, _ e: Int) -> UInt64? {
        var multiplier: UInt64
        switch Byte.lower(line[e - 1]) {
        case 0x6B: multiplier = 1 << 10
        case 0x6D: multiplier = 1 << 20
        case 0x67: multiplier = 1 << 30
        case 0x74: multiplier = 1 << 40
        case 0x70: multiplier = 1 << 50
        default: return nil
        }
        var dot = s
        while dot < e - 1 && line[dot] != 0x2E { dot += 1 }
        guard let whole = line.decimal(s, dot) else { return nil }
        var scale: UInt64 = 1
        var fraction: UInt64 = 0
        if dot < e - 1 {
            guard let f = line.decimal(dot + 1, e - 1), e - 1 - (dot + 1) <= 6 else { return nil }
            fraction = f
            for _ in 0..<(e - 1 - (dot + 1)) { scale *= 10 }
        }
        let (scaled, scaleOverflow) = whole.multipliedReportingOverflow(by: scale)
        let (exact, sumOverflow) = scaled.addingReportingOverflow(fraction)
        let (m, overflow) = exact.multipliedReportingOverflow(by: multiplier)
        return scaleOverflow || sumOverflow || overflow ? nil : m / scale
    }

    /// The first " -> " at or after `from`.
    private func findArrow(_ line: Line, from: Int) -> Int? {
        var i = from
        while i + 3 < line.count {
            if line[i] == Byte.space && line[i + 1] == 0x2D && line[i + 2] == 0x3E && line[i + 3] == Byte.space {
                return i
            }
            i += 1
        }
        return nil
    }
}
