// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// `RecordTable`, the compact records of a folder walk (issue 17): every field comes back as it
/// went in, lookups find what a dictionary finds, in any order and spelling.
@Suite struct RecordTableTests {
    typealias F = Fixture

    static func record(
        _ path: String, remote: UInt64? = 10, remoteTime: FileTime? = FileTime(seconds: 1_000, granularity: .minute),
        local: UInt64 = 10, localTime: FileTime = FileTime(seconds: 1_000.25, granularity: .exact),
        digest: String? = nil
    ) -> FileRecord {
        FileRecord(
            path: F.path(path), remoteSize: remote, remoteModified: remoteTime, localSize: local,
            localModified: localTime, digest: digest)
    }

    /// Real shapes of a record: LIST minutes, MLSD seconds, no remote time or size, the largest
    /// sizes, a digest, an odd digest (a state written by another version), non-ASCII names.
    static let records: [FileRecord] = [
        record("DCIM/100CANON/IMG_0001.JPG", digest: "0123456789abcdef0123456789abcdef"),
        record("DCIM/100CANON/IMG_0002.JPG", remote: nil, remoteTime: nil),
        record("DCIM/100CANON/IMG_0003.JPG", remote: UInt64.max, local: UInt64.max),
        record("DCIM/100CANON/IMG_0004.JPG", remoteTime: FileTime(seconds: -86_400, granularity: .day)),
        record("DCIM/100CANON/IMG_0005.JPG", remoteTime: FileTime(seconds: 1.7e9, granularity: .second)),
        record("DCIM/100CANON/IMG_0006.JPG", digest: "ABCDEF"),
        record("DCIM/100CANON/a very long name that does not fit in a small string.mov"),
        record("DCIM/100CANON/photo \u{7167}\u{7247}.jpg", digest: "ffffffffffffffffffffffffffffffff"),
        record("DCIM/100CANON/z", localTime: FileTime(seconds: 0, granularity: .second)),
    ]

    @Test func everyFieldComesBackInOrderAndByPath() {
        let table = RecordTable(Self.records)
        #expect(Array(table) == Self.records.sorted { $0.path < $1.path })
        for record in Self.records {
            #expect(table[record.path] == record)
        }
        #expect(table[F.path("DCIM/100CANON/IMG_0007.JPG")] == nil)
        #expect(table[F.path("DCIM/100CANON")] == nil)
        #expect(table[F.path("DCIM/100CANON/IMG_0001.JPG/x")] == nil)
        #expect(RecordTable().isEmpty && RecordTable()[F.path("a")] == nil)
    }

    @Test(arguments: [0, 1, 2])
    func anyOrderAndDuplicatesAsADictionaryKeepsThem(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        var input =
            Self.records
            + Self.records.prefix(3).map { record in
                var changed = record
                changed.localSize = 77
                return changed
            }
        input.shuffle(using: &generator)
        var byPath: [RelativePath: FileRecord] = [:]
        for record in input { byPath[record.path] = record }
        let table = RecordTable(input)
        #expect(table.count == byPath.count)
        #expect(Array(table) == byPath.values.sorted { $0.path < $1.path })
        for (path, record) in byPath { #expect(table[path] == record) }
    }

    @Test func aNameInAnotherSpellingIsFoundAsADictionaryFindsIt() {
        // "é" decomposed (NFD, as macOS writes it) in the table, asked for in NFC, and the reverse.
        let decomposed = Self.record("caf\u{65}\u{301}.txt")
        let table = RecordTable([Self.record("a.txt"), decomposed, Self.record("z.txt")])
        #expect(table[F.path("caf\u{e9}.txt")] == decomposed)
        let composed = Self.record("caf\u{e9}.txt")
        #expect(RecordTable([composed])[F.path("caf\u{65}\u{301}.txt")] == composed)
    }

    /// Two rows of one name in two spellings, NFC first (as SQLite's byte order gives "ά" U+03AC
    /// before "α" U+03B1 + U+0301): the table keeps the last, not in NFC, and must still find it
    /// by either spelling (it looked for NFC bytes among paths kept in NFD, and missed).
    @Test(arguments: ["\u{3ac}", "\u{c5}", "\u{e9}"])
    func twoSpellingsOfOneNameNFCFirstAreFoundByEither(composed: String) {
        let decomposed = composed.decomposedStringWithCanonicalMapping
        let angstrom = composed == "\u{c5}" ? "\u{212b}" : decomposed
        for later in [decomposed, angstrom] {
            let last = Self.record("d/" + later, local: 2)
            let table = RecordTable([Self.record("d/a"), Self.record("d/" + composed), last])
            #expect(table.count == 2)
            #expect(table[F.path("d/" + composed)] == last, "\(later.unicodeScalars.map(\.value))")
            #expect(table[F.path("d/" + later)] == last, "\(later.unicodeScalars.map(\.value))")
            #expect(table[F.path("d/a")] != nil)
        }
    }
}

/// A small deterministic generator for shuffles (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
