// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// One listing line and what it must read as: a row of the table tests, read by a device whose
/// zone is UTC.
struct ListingRow: Sendable, CustomTestStringConvertible {
    var note: String
    /// The line; non-UTF-8 bytes written as the four characters `\xNN` (`CaseFile.bytes`).
    var line: String
    var format: ListingFormat = .list
    /// The server's clock, UTC wall clock.
    var now = "2024-06-15T12:00:00"
    var name: String
    var type: EntryType = .file
    var size: UInt64? = nil
    var exact = true
    /// UTC wall clock to the listing's precision (`YYYY-MM-DD`, `…THH:MM`, `…THH:MM:SS`); nil when
    /// the line gives no time.
    var mtime: String? = nil
    /// The time's precision where it is not the one `mtime`'s form shows.
    var precision: TimePrecision? = nil
    var target: String? = nil
    var permissions: UInt16? = nil
    var testDescription: String { note }

    static let utc = TimeZone(identifier: "UTC")!

    /// The line as the parser reads it.
    func parse() -> ParsedLine {
        let context = ListingContext(now: ExpectedTime.instant(now, zone: Self.utc)!, timeZone: Self.utc)
        return ListingParser.parseLine(CaseFile.bytes(of: line), format: format, context: context)
    }

    /// Records an issue for every field the parser reads otherwise.
    func check() {
        let result = parse()
        guard case .entry(let entry) = result else {
            Issue.record("\(note): not an entry: \(result)")
            return
        }
        #expect(entry.name == name)
        if !line.contains("\\x") { #expect(entry.rawName == Array(name.utf8)) }
        #expect(entry.type == type)
        #expect(entry.size == size)
        #expect(entry.sizeIsExact == exact)
        #expect(entry.target == target)
        if let mtime {
            #expect(entry.modified?.date == ExpectedTime.instant(mtime, zone: Self.utc), "\(note)")
            #expect(entry.modified?.precision == precision ?? Self.precision(of: mtime), "\(note)")
        } else {
            #expect(entry.modified == nil, "\(note)")
        }
        if let permissions { #expect(entry.permissions == permissions) }
    }

    /// The precision a wall-clock text shows: a day, a minute, a second, or finer.
    static func precision(of text: String) -> TimePrecision {
        switch text.count {
        case ...10: .day
        case ...16: .minute
        case ...19: .second
        default: .subsecond
        }
    }
}
