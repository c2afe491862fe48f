// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// Every listing case of ftp-cases.json, with the interpretation its `expected` gives.
///
/// Where the file records two readings, this suite pins one:
/// - UL-14: the group is "Domain Users" (owner "tkowal"); the file calls the split ambiguous.
/// - UL-16: a size glued to the group is unknown (nil), not the owner-stripping heuristic.
/// - UL-20: `12.5M` gives `size` = the approximation (13107200) with `sizeIsExact == false`
///   (the file writes `size: null` plus `size_approx`; ListingEntry keeps the approximation and
///   flags it, so nothing may use it for equality or REST).
/// - DL-05: two-digit years use the sliding window "latest year not in the future" (ftpparse's
///   reading: 79 → 1979, 68 → 1968), not chromium's or POSIX %y's fixed pivot.
/// - DL-08: first number > 12 means YY-MM-DD, else MM-DD-YY.
/// - MD-10: an MLSD line without facts has type "unknown", which is `EntryType.other` here.
/// - MD-06: `sizd` of a folder is not a size (size nil), as for every folder.
/// - UL-28: NetWare omits the year for up to 12 months; the year rule (latest year not after
///   now + 1 day) covers that and the ~6 months of `ls` alike.
struct CaseTableTests {
    /// LIST times are server-local: the cases run in a fixed zone that is not UTC, so a parser that
    /// ignored the zone would fail.
    static let zone = TimeZone(secondsFromGMT: 8 * 3600)!

    /// Decoders some cases need (the device's `encoding`); everything else is UTF-8.
    static let decoders: [String: @Sendable ([UInt8]) -> String?] = [
        "EN-01": { String(bytes: $0, encoding: .isoLatin1) },
        "EN-03": { String(bytes: $0, encoding: .shiftJIS) },
    ]

    @Test func allListingCasesAreLoaded() {
        // 20 unix_list + 7 dos_list + 12 mlsd + 2 encoding + MS-11.
        #expect(CaseFile.listingIDs.count == 42)
    }

    @Test(arguments: CaseFile.listingIDs)
    func listingCase(_ id: String) throws {
        let item = try #require(CaseFile.item(id))
        let input = try #require(item["input"] as? String)
        let expected = try #require(item["expected"] as? [String: Any])
        let given = expected["given"] as? [String: Any]
        let nowText = given?["now_server_local"] as? String ?? "2024-06-15T12:00:00"
        let now = try #require(ExpectedTime.instant(nowText, zone: Self.zone))
        let context = ListingContext(now: now, timeZone: Self.zone, decodeName: Self.decoders[id])
        let bytes = CaseFile.bytes(of: input)

        let entries: [ListingEntry]
        let warnings: [String]
        if input.hasPrefix("250") {
            let entry = try #require(ListingParser.parseMLSTReply(bytes, context: context))
            entries = [entry]
            warnings = []
        } else {
            let format: ListingFormat = item["category"] as? String == "mlsd" ? .mlsd : .list
            let parsed = ListingParser.parse(bytes, format: format, context: context)
            entries = parsed.entries
            warnings = parsed.warnings
        }

        let expectedEntries = try #require(expected["entries"] as? [[String: Any]])
        let rejected = expected["rejected_lines"] as? [Any] ?? []
        #expect(warnings.count == rejected.count, "warnings: \(warnings)")
        for warning in warnings { #expect(warning.contains("\"")) }
        try #require(entries.count == expectedEntries.count, "entries: \(entries.map(\.name))")
        for (entry, want) in zip(entries, expectedEntries) {
            try check(entry, against: want, id: id)
        }
    }

    private func check(_ entry: ListingEntry, against want: [String: Any], id: String) throws {
        #expect(entry.name == want["name"] as? String)
        let type = want["type"] as? String == "unknown" ? "other" : want["type"] as? String
        #expect(entry.type.rawValue == type, "\(entry.name)")

        if want["size_exact"] as? Bool == false {
            #expect(entry.sizeIsExact == false)
            #expect(entry.size == (want["size_approx"] as? NSNumber)?.uint64Value)
        } else if let size = want["size"] as? NSNumber {
            #expect(entry.size == size.uint64Value && entry.sizeIsExact, "\(entry.name)")
        } else {
            #expect(entry.size == nil, "\(entry.name)")
        }

        if let mtime = want["mtime"] as? String {
            let instant = try #require(ExpectedTime.instant(mtime, zone: Self.zone))
            let got = try #require(entry.modified, "\(entry.name)")
            #expect(abs(got.date.timeIntervalSince(instant)) < 0.0005, "\(entry.name): \(got.date) vs \(instant)")
            let precision: TimePrecision? =
                switch want["mtime_precision"] as? String {
                case "day": .day
                case "minute": .minute
                case "second": .second
                case "millisecond", "sub-second": .subsecond
                default: nil
                }
            #expect(got.precision == precision, "\(entry.name)")
        } else if want.keys.contains("mtime") {
            #expect(entry.modified == nil)
        }

        if want.keys.contains("link_target") {
            #expect(entry.target == want["link_target"] as? String, "\(entry.name)")
        }
        if let owner = want["owner"] as? String { #expect(entry.owner == owner) }
        if want.keys.contains("group") { #expect(entry.group == want["group"] as? String) }
        if let pair = want["owner_group_ambiguous"] as? [String] {
            #expect(entry.owner == pair[0] && entry.group == pair[1])
        }
        if let mode = want["mode"] as? String { #expect(entry.mode == mode) }
        if let inferred = want["year_inferred"] as? Bool { #expect(entry.yearInferred == inferred) }
        if let unixMode = want["unix_mode"] as? String {
            #expect(entry.permissions == UInt16(unixMode, radix: 8), "\(entry.name)")
        }
        if want["setgid"] as? Bool == true { #expect((entry.permissions ?? 0) & 0o2000 != 0) }
        if let perm = want["perm"] as? String { #expect(entry.facts["perm"] == perm) }
        if let unique = want["unique"] as? String { #expect(entry.facts["unique"] == unique) }
        if let hex = want["raw_name_hex"] as? String {
            let raw = hex.split(separator: " ").compactMap { UInt8($0, radix: 16) }
            #expect(entry.rawName == raw)
        }
    }

    /// EN-01 and EN-03 without a decoder: the name is kept reversibly and the raw bytes exactly.
    @Test(arguments: ["EN-01", "EN-03"])
    func undecodableNamesStayReversible(_ id: String) throws {
        let item = try #require(CaseFile.item(id))
        let bytes = CaseFile.bytes(of: try #require(item["input"] as? String))
        let context = ListingContext(now: Date(timeIntervalSince1970: 1_718_452_800))
        let parsed = ListingParser.parse(bytes, format: .list, context: context)
        #expect(parsed.warnings.isEmpty)
        let first = try #require(parsed.entries.first)
        #expect(!first.name.contains("\u{FFFD}"))
        #expect(ListingNameCodec.originalBytes(of: first.name) == first.rawName)
        #expect(first.rawName.contains { $0 >= 0x80 })
    }
}
