import Foundation

/// UNIX `ls -l` lines and their relatives (NetWare, classic Mac servers), anchored on the date:
/// the size is the token before the date, the name starts one space after it.
extension ListingReader {
    private struct FoundDate {
        var year: Int?
        var month: Int
        var day: Int
        var time: (hour: Int, minute: Int, second: Int?)?
        var lastToken: Int
    }

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
        let typeChar = line[mode0]
        var netware = false
        var gluedLinks = false
        if t.length(0) == 1 && (typeChar == 0x64 || typeChar == 0x2D) && line[t.starts[1]] == 0x5B {
            netware = true  // "d [RWCEAFMS] owner size date name"
        } else {
            guard t.length(0) >= 10, isModeType(typeChar) else { return nil }
            for i in (mode0 + 1)..<(mode0 + 10) where !isModeChar(line[i]) { return nil }
            var i = mode0 + 10
            if i < t.ends[0] && (line[i] == 0x2B || line[i] == 0x2E || line[i] == 0x40) { i += 1 }
            if i < t.ends[0] {
                guard line.decimal(i, t.ends[0]) != nil else { return nil }
                gluedLinks = true  // "drwxr-xr-x1520"
            }
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
        guard let date = found else { return reject("no date found", line) }

        var type: EntryType
        switch typeChar {
        case 0x2D: type = .file
        case 0x64: type = .dir
        case 0x6C: type = .link
        default: type = .other
        }

        // Name: one space after the date (NetWare pads with several).
        var nameStart = t.ends[date.lastToken]
        let n = line.count
        if netware {
            while nameStart < n && Byte.isBlank(line[nameStart]) { nameStart += 1 }
        } else if nameStart < n {
            nameStart += 1
        }
        if nameStart >= n { return .ignored }
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
        switch check(name: name) {
        case .ok: break
        case .skip: return .ignored
        case .bad(let reason): return reject(reason, line)
        }

        // Time.
        let modified: ListedTime
        var inferred = false
        if let year = date.year {
            guard CivilTime.isValid(year: year, month: date.month, day: date.day) else {
                return reject("invalid date", line)
            }
            if let time = date.time {
                modified = listedTime(
                    year: year, month: date.month, day: date.day, hour: time.hour, minute: time.minute,
                    second: time.second ?? 0, precision: time.second == nil ? .minute : .second)
            } else {
                modified = listedTime(
                    year: year, month: date.month, day: date.day, hour: 0, minute: 0, second: 0, precision: .day)
            }
        } else {
            let time = date.time ?? (0, 0, nil)
            guard let year = inferYear(month: date.month, day: date.day, hour: time.hour, minute: time.minute) else {
                return reject("invalid date", line)
            }
            inferred = true
            modified = listedTime(
                year: year, month: date.month, day: date.day, hour: time.hour, minute: time.minute,
                second: time.second ?? 0, precision: time.second == nil ? .minute : .second)
        }

        // Size, and the owner/group columns between the link count and the size.
        let sizeIndex = dateIndex - 1
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
        let mode: String? =
            netware ? text(line, t.starts[1], t.ends[1]) : text(line, mode0 + 1, mode0 + 10)
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: size, sizeIsExact: exact,
                modified: modified, target: targetRange.map { decode(line.slice($0.0, $0.1)) }, mode: mode,
                owner: owner, group: group, yearInferred: inferred))
    }

    @inline(__always) private func isModeType(_ b: UInt8) -> Bool {
        switch b {
        case 0x2D, 0x64, 0x6C, 0x62, 0x63, 0x70, 0x73, 0x44, 0x6E, 0x77, 0x3F: return true  // - d l b c p s D n w ?
        default: return false
        }
    }

    @inline(__always) private func isModeChar(_ b: UInt8) -> Bool {
        switch b {
        case 0x2D, 0x72, 0x77, 0x78, 0x73, 0x53, 0x74, 0x54, 0x6C, 0x4C: return true  // - r w x s S t T l L
        default: return false
        }
    }

    /// The token at `k` read as a size column: digits, `12.5M`-style, or a group glued to digits.
    private func sizeField(_ line: Line, _ k: Int) -> SizeField? {
        let s = tokens.starts[k]
        let e = tokens.ends[k]
        if let value = line.decimal(s, e) { return .exact(value) }
        if Byte.isDigit(line[s]) {
            if line[e - 1] == 0x2C, line.decimal(s, e - 1) != nil { return .unknown }  // device "8,"
            return approximateSize(line, s, e).map { .approximate($0) }
        }
        var digits = 0
        var i = e
        while i > s && Byte.isDigit(line[i - 1]) {
            i -= 1
            digits += 1
        }
        return digits >= 3 && i > s ? .unknown : nil  // "webupld218853376"
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

    /// A date starting at token `k`: `Mon DD YYYY|HH:MM`, `DD[.] Mon YYYY|HH:MM`, `M月 D[日] ...`,
    /// or `YYYY-MM-DD HH:MM`.
    private func findDate(_ line: Line, at k: Int) -> FoundDate? {
        let t = tokens
        let s0 = t.starts[k]
        let e0 = t.ends[k]
        if k + 2 < t.count {
            let s1 = t.starts[k + 1]
            let e1 = t.ends[k + 1]
            let s2 = t.starts[k + 2]
            let e2 = t.ends[k + 2]
            var month: Int? = nil
            var day: Int? = nil
            if let m = DateTokens.month(line, s0, e0), let d = DateTokens.day(line, s1, e1) {
                month = m
                day = d
            } else if let d = DateTokens.day(line, s0, e0), let m = DateTokens.month(line, s1, e1) {
                month = m
                day = d
            }
            if let month, let day {
                if let time = DateTokens.time(line, s2, e2) {
                    return FoundDate(year: nil, month: month, day: day, time: time, lastToken: k + 2)
                }
                if let year = DateTokens.year(line, s2, e2) {
                    return FoundDate(year: year, month: month, day: day, time: nil, lastToken: k + 2)
                }
            }
        }
        if let iso = DateTokens.isoDate(line, s0, e0), k + 1 < t.count,
            let time = DateTokens.time(line, t.starts[k + 1], t.ends[k + 1])
        {
            return FoundDate(year: iso.year, month: iso.month, day: iso.day, time: time, lastToken: k + 1)
        }
        return nil
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
