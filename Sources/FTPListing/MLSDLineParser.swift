// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// MLSD and MLST fact lines (RFC 3659 §7): `fact=value;fact=value; name`.
extension ListingReader {
    /// Reads one MLSD line. With `inReply` (MLST on the control connection) the name is a path
    /// that may contain `/`, and `cdir`/`pdir` are reported as folders instead of being skipped.
    /// Facts end at the first space or TAB after a `;` (some servers separate the name by a TAB).
    func parseMLSD(_ line: Line, inReply: Bool) -> ParsedLine {
        let n = line.count
        var factsEnd = 0
        var nameStart = 0
        if line[0] == Byte.space {
            nameStart = 1  // no facts at all
        } else {
            var firstSpace = -1
            for i in 0..<n where Byte.isBlank(line[i]) {
                firstSpace = i
                break
            }
            guard firstSpace > 0 else { return reject("no space between facts and name", line) }
            if line[firstSpace - 1] == 0x3B {
                factsEnd = firstSpace
                nameStart = firstSpace + 1
            } else if let split = factSeparatorWithSpaces(line, after: firstSpace) {
                factsEnd = split
                nameStart = split + 2
            } else {
                factsEnd = firstSpace  // last fact without ';' (NcFTPd)
                nameStart = firstSpace + 1
            }
            // Facts are certain once found; a malformed piece costs only itself.
            guard line.slice(0, factsEnd).contains(0x3D) else { return reject("no facts before the name", line) }
        }
        let name = line.slice(nameStart, n)
        if name.isEmpty || name.allSatisfy(Byte.isBlank) { return reject("no pathname", line) }

        var facts: [String: String] = [:]
        var typeValue: Line? = nil
        var sizeText: Line? = nil
        var modifyText: Line? = nil
        var pieceStart = 0
        while pieceStart < factsEnd {
            var pieceEnd = pieceStart
            while pieceEnd < factsEnd && line[pieceEnd] != 0x3B { pieceEnd += 1 }
            var eq = pieceStart
            while eq < pieceEnd && line[eq] != 0x3D { eq += 1 }
            if eq > pieceStart && eq < pieceEnd {  // a piece without '=' or name is malformed: dropped
                let key = String(decoding: line.slice(pieceStart, eq).map(Byte.lower), as: UTF8.self)
                let value = line.slice(eq + 1, pieceEnd)
                facts[key] = String(decoding: value, as: UTF8.self)
                switch key {
                case "type": typeValue = value
                case "size": sizeText = value
                case "modify": modifyText = value
                default: break
                }
            }
            pieceStart = pieceEnd + 1
        }

        var type = EntryType.other
        var target: String? = nil
        if let value = typeValue {
            if value.equalsIgnoringCase(0, value.count, "file") {
                type = .file
            } else if value.equalsIgnoringCase(0, value.count, "dir") {
                type = .dir
            } else if value.equalsIgnoringCase(0, value.count, "cdir")
                || value.equalsIgnoringCase(0, value.count, "pdir")
            {
                if !inReply { return .ignored }
                type = .dir
            } else if value.count >= 13, value.equalsIgnoringCase(0, 13, "os.unix=slink") {
                type = .link
                if value.count > 14 && value[13] == 0x3A { target = decode(value.slice(14, value.count)) }
            } else if value.equalsIgnoringCase(0, value.count, "os.unix=symlink") {
                type = .link
            }
        }
        if !inReply {
            if let refused = refusal(ofName: name, in: line) { return refused }
        }
        var size: UInt64? = nil
        if type == .file, let sizeText { size = sizeText.decimal(0, sizeText.count) }
        let modified = modifyText.flatMap { TimeValParser.parse($0) }
        let owner = facts["unix.ownername"] ?? facts["unix.owner"] ?? facts["unix.uid"]
        let group = facts["unix.groupname"] ?? facts["unix.group"] ?? facts["unix.gid"]
        let decoded = decodeName(name)
        return .entry(
            ListingEntry(
                name: decoded.name, rawName: decoded.raw, type: type, size: size, modified: modified,
                target: target, owner: owner, group: group, facts: facts))
    }

    /// The position of the first `"; "` when everything before it reads as facts (a fact value with
    /// a space, as in `UNIX.ownername=John Smith;size=1; name`), else nil.
    private func factSeparatorWithSpaces(_ line: Line, after firstSpace: Int) -> Int? {
        var i = firstSpace
        while i + 1 < line.count {
            if line[i] == 0x3B && line[i + 1] == Byte.space {
                return hasFact(line, 0, i) ? i : nil
            }
            i += 1
        }
        return nil
    }

    /// True when `from..<to` holds at least one `name=value` piece and every non-empty piece has '='.
    private func hasFact(_ line: Line, _ from: Int, _ to: Int) -> Bool {
        var any = false
        var pieceStart = from
        while pieceStart < to {
            var pieceEnd = pieceStart
            var eq = false
            while pieceEnd < to && line[pieceEnd] != 0x3B {
                if line[pieceEnd] == 0x3D { eq = true }
                pieceEnd += 1
            }
            if pieceEnd > pieceStart {
                if !eq { return false }
                any = true
            }
            pieceStart = pieceEnd + 1
        }
        return any
    }

    /// The first fact line of an MLST reply (RFC 3659 §7.2), see `ListingParser.parseMLSTReply`.
    func parseMLSTReply(_ reply: Line) -> ListingEntry? {
        var lines: [(Int, Int)] = []
        var start = 0
        while start < reply.count {
            var end = start
            while end < reply.count && reply[end] != 0x0A { end += 1 }
            let next = end + 1
            if end > start && reply[end - 1] == 0x0D { end -= 1 }
            lines.append((start, end))
            start = next
        }
        for (index, (s, e)) in lines.enumerated() {
            var from = s
            let code = e - s >= 3 && Byte.isDigit(reply[s]) && Byte.isDigit(reply[s + 1]) && Byte.isDigit(reply[s + 2])
            if code && (e - s == 3 || reply[s + 3] == Byte.space) { continue }  // final "250 End"
            if code && reply[s + 3] == 0x2D {
                if index == 0 { continue }  // "250-Begin": the reply's own text
                from = s + 4  // "250-facts; name": every line prefixed
            }
            while from < e && Byte.isBlank(reply[from]) { from += 1 }
            guard from < e else { continue }
            let line = reply.slice(from, e)
            guard line[0] != Byte.space, hasFactBeforeSpace(line) else { continue }
            if case .entry(let entry) = parseMLSD(line, inReply: true) { return entry }
        }
        return nil
    }

    private func hasFactBeforeSpace(_ line: Line) -> Bool {
        for b in line {
            if b == Byte.space { return false }
            if b == 0x3D { return true }
        }
        return false
    }
}
