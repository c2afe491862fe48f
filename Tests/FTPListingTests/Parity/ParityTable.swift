// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import Testing

@testable import FTPListing

/// One peer suite's entries, as `Fixtures/parity/<suite>-<group>.json` holds them.
///
/// Each entry is a line (or the lines of one entry) of a peer's parser tests, with its names,
/// sizes and dates rewritten, the suite's reading (`theirs`) and, where ftpsync deliberately
/// reads it otherwise, ftpsync's reading (`ours`) and the reason (`why`).
struct ParityFile: Decodable {
    /// The suite's name as docs/server-quirks.md shows it (`FileZilla`, `FluentFTP`, ...).
    var suite: String
    /// Where the suite's entries come from: repository, file, test names.
    var source: String
    var entries: [ParityEntry]
}

/// One entry of a peer suite.
struct ParityEntry: Decodable, Sendable, CustomTestStringConvertible {
    /// Unique over all files, e.g. `fz-unix-012`.
    var id: String
    /// Which test (or line of the suite's file) the entry comes from.
    var origin: String?
    /// The listing data: one line, or the lines of one entry (VMS continuation lines); non-UTF-8
    /// bytes written as the four characters `\xNN`, as in ftp-cases.json.
    var line: String
    /// `list` (default) or `mlsd`.
    var format: String?
    /// The device's file-name encoding (`gbk`, `shift_jis`, `latin1`), nil for UTF-8.
    var encoding: String?
    /// The server's clock, server-local `YYYY-MM-DDTHH:MM:SS`; default 2024-06-15T12:00:00.
    var now: String?
    /// The server's zone as hours east of UTC; default +8 (a parser that ignored it would fail).
    var zoneHours: Int?
    /// The suite's reading.
    var theirs: ParityReading
    /// ftpsync's reading where it differs from the suite's by choice; nil when the same.
    var ours: ParityReading?
    /// Why ftpsync reads it otherwise; required with `ours`.
    var why: String?

    var testDescription: String { id }

    /// What the parser must give.
    var expected: ParityReading { ours ?? theirs }
}

/// One reading of a line.
struct ParityReading: Decodable, Sendable, Equatable {
    /// `file`, `dir`, `link`, `other`; `none` when the line gives no entry (ignored or rejected).
    var type: String
    var name: String?
    /// The exact size in bytes; nil when the listing gives none (or only an approximation).
    var size: UInt64?
    /// An approximate size (`12.5M`): `size` nil, ListingEntry.size this with sizeIsExact false.
    var approximateSize: UInt64?
    /// Server-local wall-clock time to the listing's precision: `YYYY-MM-DD` (day),
    /// `YYYY-MM-DDTHH:MM` (minute), `...:SS` (second), `...:SS.fff` (sub-second); a trailing `Z`
    /// means UTC (MLSD). Nil when the line gives no time.
    var modified: String?
    /// A link's target, when the line names it.
    var target: String?
}

/// Loads the parity fixtures and reads entries with ftpsync's parser.
enum ParityTable {
    /// The suites in the order docs/server-quirks.md lists them.
    static let suites = ["FileZilla", "FluentFTP", "basic-ftp", "ftputil", "commons-net"]

    /// Every fixture file, sorted by file name (read once).
    static let files: [ParityFile] = readFiles()

    private static func readFiles() -> [ParityFile] {
        guard
            let folder = Bundle.module.url(forResource: "parity", withExtension: nil, subdirectory: "Fixtures"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return nil }
            do {
                return try JSONDecoder().decode(ParityFile.self, from: data)
            } catch {
                fatalError("Fixtures/parity/\(name): \(error)")
            }
        }
    }

    /// Every entry of every file.
    static let entries: [ParityEntry] = files.flatMap(\.entries)

    /// What ftpsync's parser reads from an entry's line.
    static func read(_ entry: ParityEntry) throws -> ParityReading {
        let zone = TimeZone(secondsFromGMT: (entry.zoneHours ?? 8) * 3600)!
        let now = ExpectedTime.instant(entry.now ?? "2024-06-15T12:00:00", zone: zone)!
        var decode: (@Sendable ([UInt8]) -> String?)? = nil
        if let encoding = entry.encoding {
            let codec = try NameCodec(encoding: encoding)
            decode = { codec.decode($0) }
        }
        let context = ListingContext(now: now, timeZone: zone, decodeName: decode)
        let format: ListingFormat = entry.format == "mlsd" ? .mlsd : .list
        let parsed = ListingParser.parse(CaseFile.bytes(of: entry.line), format: format, context: context)
        guard let first = parsed.entries.first else { return ParityReading(type: "none") }
        precondition(parsed.entries.count == 1, "\(entry.id): one entry per fixture, got \(parsed.entries.count)")
        return reading(of: first, zone: zone)
    }

    /// A parsed entry in the fixtures' terms.
    static func reading(of entry: ListingEntry, zone: TimeZone) -> ParityReading {
        var result = ParityReading(type: entry.type.rawValue, name: entry.name)
        if entry.type == .file, let size = entry.size {
            if entry.sizeIsExact { result.size = size } else { result.approximateSize = size }
        }
        result.modified = entry.modified.map { wallClock($0, zone: zone) }
        result.target = entry.type == .link ? entry.target : nil
        return result
    }

    /// A listed time written as the fixtures write it (server-local, to its precision).
    static func wallClock(_ time: ListedTime, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time.date)
        func two(_ n: Int?) -> String { String(format: "%02d", n ?? 0) }
        var text = String(format: "%04d", c.year ?? 0) + "-" + two(c.month) + "-" + two(c.day)
        if time.precision >= .minute { text += "T" + two(c.hour) + ":" + two(c.minute) }
        if time.precision >= .second { text += ":" + two(c.second) }
        if time.precision == .subsecond {
            let seconds = time.date.timeIntervalSince1970
            text += String(format: ".%03d", Int(((seconds - seconds.rounded(.down)) * 1000).rounded()))
        }
        return text
    }
}
