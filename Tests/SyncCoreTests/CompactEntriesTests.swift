// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// The compact forms of issue 17 (`Snapshot`'s columns, `PathTable`): every field comes back as
/// it went in, in path order, and lookups and merges find what they found on arrays of entries.
@Suite struct CompactEntriesTests {
    typealias F = Fixture

    /// Real shapes of an entry: a listed file without a time or size (LIST of an embedded
    /// server), LIST minutes, MLSD seconds, a local file with nanoseconds and a digest, a name
    /// in a legacy encoding, a folder, a link, names past the small-string length, non-ASCII.
    static let entries: [SnapshotEntry] = [
        SnapshotEntry(path: F.path("DCIM"), kind: .directory, modified: FileTime(seconds: 86_400, granularity: .day)),
        SnapshotEntry(path: F.path("DCIM/IMG_0001.JPG"), kind: .file),
        SnapshotEntry(
            path: F.path("DCIM/IMG_0002.JPG"), kind: .file, size: 4_718_592,
            modified: FileTime(seconds: 1_700_000_040, granularity: .minute)),
        SnapshotEntry(
            path: F.path("DCIM/IMG_0003.JPG"), kind: .file, size: UInt64.max,
            modified: FileTime(seconds: 1_700_000_001, granularity: .second)),
        SnapshotEntry(
            path: F.path("DCIM/a name longer than fifteen bytes.mov"), kind: .file, size: 0,
            modified: FileTime(seconds: 1_700_000_000.123456789, granularity: .exact),
            digest: "00112233445566778899aabbccddeeff"),
        SnapshotEntry(
            path: F.path("DCIM/r\u{e9}sum\u{e9}.txt"), kind: .file, size: 3,
            rawName: [0x72, 0xE9, 0x73, 0x75, 0x6D, 0xE9]),
        SnapshotEntry(path: F.path("DCIM/link"), kind: .symlink, modified: FileTime(seconds: -1, granularity: .exact)),
        SnapshotEntry(path: F.path("DCIM/odd"), kind: .other, digest: "not hex"),
        SnapshotEntry(
            path: F.path("\u{4e2d}\u{6587}/\u{7167}\u{7247}.jpg"), kind: .file, size: 9,
            digest: String(repeating: "f", count: 32)),
    ]

    @Test func everyFieldComesBackInPathOrder() {
        for input in [Self.entries, Self.entries.reversed()] {
            let snapshot = Snapshot(input)
            #expect(Array(snapshot.entries) == Self.entries.sorted { $0.path < $1.path })
            for entry in Self.entries { #expect(snapshot[entry.path] == entry) }
            #expect(snapshot[F.path("DCIM/IMG_0004.JPG")] == nil)
        }
    }

    @Test func aFilterKeepsEveryFieldOfWhatItKeeps() {
        let snapshot = Snapshot(Self.entries)
        for skip in 0..<Self.entries.count {
            let dropped = Array(snapshot.entries)[skip].path
            let kept = snapshot.filter { $0.path != dropped }
            #expect(Array(kept.entries) == Array(snapshot.entries).filter { $0.path != dropped })
            #expect(kept[dropped] == nil)
        }
        let all = snapshot.filter { _ in true }
        #expect(all.entries == snapshot.entries)
    }

    @Test func digestsFirstSeenLateComeBackInPlace() {
        // The digest column takes room only from its first digest on.
        let entries = (0..<50).map { index in
            SnapshotEntry(
                path: F.path(String(format: "f%03d", index)), kind: .file, size: UInt64(index),
                digest: index % 7 == 6 ? String(format: "%032x", index) : nil)
        }
        let snapshot = Snapshot(entries)
        #expect(Array(snapshot.entries) == entries)
        #expect(Array(snapshot.filter { $0.size! % 2 == 0 }.entries) == entries.filter { $0.size! % 2 == 0 })
    }

    @Test func theMergeFindsWhatLookupsFind() {
        let mine = Snapshot(Self.entries.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        let theirs = Snapshot(Self.entries.enumerated().filter { $0.offset % 3 != 1 }.map(\.element))
        let merged = mine.positions(in: theirs)
        for (position, entry) in mine.entries.enumerated() {
            #expect(merged[position] == (theirs.position(of: entry.path) ?? -1))
        }
    }

    @Test func aPathTableFindsWhatADictionaryFinds() {
        let identity = { (n: UInt64) in FileIdentity(size: n, mtimeNanoseconds: Int64(n), inode: n, device: 1) }
        let paths = Self.entries.map(\.path) + [F.path("caf\u{65}\u{301}")]
        for order in [paths, paths.reversed()] {
            let table = PathTable(order.enumerated().map { ($0.element, identity(UInt64($0.offset))) })
            var byPath: [RelativePath: FileIdentity] = [:]
            for (offset, path) in order.enumerated() { byPath[path] = identity(UInt64(offset)) }
            #expect(table.count == byPath.count)
            for (path, value) in byPath { #expect(table[path] == value) }
            #expect(table[F.path("caf\u{e9}")] == byPath[F.path("caf\u{65}\u{301}")])
            #expect(table[F.path("missing")] == nil)
        }
    }

    /// The snapshot of `entries` as a model: the first entry of each path (string equality),
    /// sorted.
    static func model(_ entries: [SnapshotEntry]) -> [SnapshotEntry] {
        var seen = Set<RelativePath>()
        return entries.filter { seen.insert($0.path).inserted }.sorted { $0.path < $1.path }
    }

    @Test func aBuilderMakesWhatTheModelMakes() {
        let twin = SnapshotEntry(path: F.path("DCIM/IMG_0002.JPG"), kind: .file, size: 1)
        let decomposed = SnapshotEntry(path: F.path("caf\u{65}\u{301}"), kind: .file, size: 2)
        for input in [Self.entries, Self.entries.reversed(), Self.entries + [twin], Self.entries + [decomposed]] {
            var builder = Snapshot.Builder()
            for entry in input { builder.append(entry) }
            let built = builder.finish(unknown: [F.path("DCIM")])
            let expected = Self.model(input)
            #expect(Array(built.entries) == expected)
            #expect(built.unknown == [F.path("DCIM")])
            for entry in expected { #expect(built[entry.path] == entry) }
            #expect(Array(Snapshot(input).entries) == expected)
        }
    }
}

extension CompactEntriesTests {
    /// Listings in a server's order (unsorted, some names twice): the builder sorts them once.
    @Test(arguments: 0..<20)
    func shuffledListingsWithRepeatsComeOutAsTheModel(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let names = ["a", "a b", "a-b", "a.b", "a/b", "ab", "B", "z", "\u{e9}t\u{e9}", "\u{1F4F7}.jpg", "x y z"]
        var input: [SnapshotEntry] = []
        for index in 0..<60 {
            let name = names.randomElement(using: &generator)!
            input.append(SnapshotEntry(path: F.path("d/" + name), kind: .file, size: UInt64(index)))
        }
        var builder = Snapshot.Builder()
        for entry in input { builder.append(entry) }
        #expect(Array(builder.finish().entries) == Self.model(input))
    }
}
