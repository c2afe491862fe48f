// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation

/// The document `ls --json` prints (CONTRACT.md, "JSON output").
struct LsDocument: Encodable {
    var device: String
    var path: String
    var entries: [LsEntry]

    /// The document of `entries`; with `verdicts` (same order: `--show-excluded`) each entry
    /// also says what the filters say of it.
    init(device: String, path: String, entries: [ListingEntry], verdicts: [LsFilter.Verdict]? = nil) {
        self.device = device
        self.path = path
        self.entries = entries.enumerated().map { index, entry in
            LsEntry(entry, verdict: verdicts.map { index < $0.count ? $0[index] : LsFilter.Verdict() })
        }
    }
}

/// One entry of `ls --json`: `size` in bytes (files with an exact size only), `modified` in UTC
/// ISO 8601 to the listing's precision, `target` for links; with `--show-excluded` also
/// `excluded` (why the filters leave it out) and `held` (why `min_age` leaves it for a later
/// run); absent values are `null`.
struct LsEntry: Encodable {
    var name: String
    var type: String
    var size: UInt64?
    var modified: String?
    var target: String?
    /// What the filters say of it; nil: not asked (no `--show-excluded`), the keys left out.
    var verdict: LsFilter.Verdict?

    init(_ entry: ListingEntry, verdict: LsFilter.Verdict?) {
        name = entry.name
        type = entry.type.rawValue
        size = LsListing.reportedSize(entry)
        modified = entry.modified.map(LsListing.isoTime)
        target = entry.type == .link ? entry.target : nil
        self.verdict = verdict
    }

    enum CodingKeys: String, CodingKey { case name, type, size, modified, target, excluded, held }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(type, forKey: .type)
        try c.encode(size, forKey: .size)
        try c.encode(modified, forKey: .modified)
        try c.encode(target, forKey: .target)
        if let verdict {
            try c.encode(verdict.excluded, forKey: .excluded)
            try c.encode(verdict.held, forKey: .held)
        }
    }
}

/// Rendering helpers of `ftpsync ls`.
enum LsListing {
    /// The entries worth showing: no `.`/`..` (nor MLSD `cdir`/`pdir`), sorted by name
    /// (Unicode scalar order).
    static func visibleEntries(_ entries: [ListingEntry]) -> [ListingEntry] {
        entries.filter { entry in
            if entry.name == "." || entry.name == ".." { return false }
            let kind = entry.facts["type"]?.lowercased()
            return kind != "cdir" && kind != "pdir"
        }.sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
    }

    /// The size shown: a file's exact size in bytes, else nil (folders, links, `12.5M`).
    static func reportedSize(_ entry: ListingEntry) -> UInt64? {
        entry.type == .file && entry.sizeIsExact ? entry.size : nil
    }

    /// `2024-05-01T10:20:00Z`: UTC, seconds always shown (zero below the listing's precision: a
    /// day-precise time is midnight), milliseconds when the listing gave a fraction.
    static func isoTime(_ time: ListedTime) -> String {
        let (day, clock) = utcParts(time.date)
        var text = day + "T" + clock
        if time.precision == .subsecond {
            let seconds = time.date.timeIntervalSince1970
            let millis = Int(((seconds - seconds.rounded(.down)) * 1000).rounded())
            if millis > 0 && millis < 1000 { text += "." + UTCFields.padded(millis, 3) }
        }
        return text + "Z"
    }

    /// `ls -l`-like lines: mode, owner, group, size, UTC time, name (` -> target` for links),
    /// then what the filters say of it (`verdicts`, same order): `[excluded: why]`, `[held: why]`.
    static func text(_ entries: [ListingEntry], verdicts: [LsFilter.Verdict] = []) -> String {
        let rows = entries.enumerated().map { index, entry -> [String] in
            let size = reportedSize(entry).map(String.init) ?? (entry.type == .file ? "?" : "-")
            var name = displayName(entry.name)
            if entry.type == .link, let target = entry.target { name += " -> " + displayName(target) }
            if index < verdicts.count, let why = verdicts[index].excluded { name += "  [excluded: \(why)]" }
            if index < verdicts.count, let why = verdicts[index].held { name += "  [held: \(why)]" }
            return [modeText(entry), entry.owner ?? "-", entry.group ?? "-", size, shortTime(entry.modified), name]
        }
        var widths = [Int](repeating: 0, count: 5)
        for row in rows { for k in 0..<5 { widths[k] = max(widths[k], row[k].count) } }
        var out = ""
        for row in rows {
            var line = row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0)
            line += " " + row[1].padding(toLength: widths[1], withPad: " ", startingAt: 0)
            line += " " + row[2].padding(toLength: widths[2], withPad: " ", startingAt: 0)
            line += " " + String(repeating: " ", count: widths[3] - row[3].count) + row[3]
            line += " " + row[4].padding(toLength: widths[4], withPad: " ", startingAt: 0)
            line += " " + row[5]
            out += line + "\n"
        }
        return out
    }

    /// `name` for a terminal, by the `SafeText` rules: bytes the listing could not decode
    /// (U+F780...U+F7FF, see `ListingNameCodec`) shown as `\xNN`, C0 and DEL as `\xNN`, C1 as `\u{NN}`.
    static func displayName(_ name: String) -> String {
        SafeText.escaped(name)
    }

    /// The listing's mode string (or MLSD's `unix.mode` fact), else one made from the type.
    private static func modeText(_ entry: ListingEntry) -> String {
        let letter: String
        switch entry.type {
        case .file: letter = "-"
        case .dir: letter = "d"
        case .link: letter = "l"
        case .other: letter = "?"
        }
        // LIST: the permission string as listed, without the type letter (`rw-r--r--`).
        if let mode = entry.mode, !mode.isEmpty { return letter + mode }
        guard let fact = entry.facts["unix.mode"], let bits = Int(fact, radix: 8) else {
            return letter + "?????????"  // not given: `---------` would read as "no permissions"
        }
        let symbols = Array("rwxrwxrwx")
        var text = letter
        for k in 0..<9 { text += bits & (1 << (8 - k)) != 0 ? String(symbols[k]) : "-" }
        return text
    }

    /// `2024-05-01 10:20` (UTC; `10:20:30` when the listing gives seconds), the date only for a
    /// day-precise time that is midnight UTC (a device-local midnight elsewhere shows its UTC
    /// hour, so the date is not a day off), `-` when unknown.
    private static func shortTime(_ time: ListedTime?) -> String {
        guard let time else { return "-" }
        let (day, clock) = utcParts(time.date)
        switch time.precision {
        case .day: return clock == "00:00:00" ? day : day + " " + clock.prefix(5)
        case .minute: return day + " " + clock.prefix(5)
        case .second, .subsecond: return day + " " + clock
        }
    }

    /// (`YYYY-MM-DD`, `HH:MM:SS`) of `date` in UTC, proleptic Gregorian.
    private static func utcParts(_ date: Date) -> (String, String) {
        let fields = UTCFields(date)
        return (fields.isoDate, fields.isoClock)
    }
}
