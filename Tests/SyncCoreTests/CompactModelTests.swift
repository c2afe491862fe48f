// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// `RecordTable`, `Snapshot` and `PathTable` hold what a dictionary model holds, on random
/// contents: names that sort apart as bytes and as paths, NFC and NFD spellings of one name,
/// duplicates, any order, digests in lower and upper case, empty and odd.
struct CompactModelTests {
    static let names = [
        "a", "a b", "a-b", "a.b", "a/b", "ab", "A", "é", "e\u{301}", "😀", "日本語のフォルダ名前", "x\u{7f}",
        "long-file-name-over-fifteen-bytes", "Å", "A\u{30a}", "\u{212b}",
    ]
    static let digests: [String?] = [
        nil, "", "0123456789abcdef0123456789abcdef", "0123456789ABCDEF0123456789ABCDEF",
        "ffffffffffffffffffffffffffffffff",
        "00000000000000000000000000000000", "0123456789abcdef0123456789abcde", "g123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef0",
    ]

    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    }

    private static func paths(_ random: inout Random) -> [RelativePath] {
        (0..<Int(random.next() % 40)).map { _ in
            let depth = 1 + Int(random.next() % 3)
            return Fixture.path((0..<depth).map { _ in random.pick(names) }.joined(separator: "/"))
        }
    }

    @Test(arguments: 0..<500)
    func aRecordTableHoldsWhatADictionaryHolds(seed: UInt64) {
        var random = Random(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        var paths = Self.paths(&random)
        if seed % 2 == 0 { paths.sort() }
        var model: [RelativePath: FileRecord] = [:]
        var records: [FileRecord] = []
        for path in paths {
            let granularity = random.pick([TimeGranularity.day, .minute, .second, .exact])
            let record = FileRecord(
                path: path, remoteSize: random.next() % 3 == 0 ? nil : random.next() % 1000,
                remoteModified: random.next() % 3 == 0
                    ? nil : FileTime(seconds: Double(random.next() % 100_000) + 0.25, granularity: granularity),
                localSize: random.next(), localModified: FileTime(seconds: -1.5, granularity: granularity),
                digest: random.pick(Self.digests))
            records.append(record)
            model[path] = record
        }
        let table = RecordTable(records)
        #expect(table.count == model.count, "seed \(seed)")
        for (path, record) in model {
            #expect(table[path] == record, "seed \(seed): \(path)")
            let other = Fixture.path(path.string.decomposedStringWithCanonicalMapping)
            #expect(table[other] == record, "seed \(seed): \(other) (NFD)")
        }
        #expect(table.indices.dropFirst().allSatisfy { table[$0 - 1].path < table[$0].path }, "seed \(seed)")
        for path in Self.paths(&random) where model[path] == nil { #expect(table[path] == nil, "seed \(seed)") }
    }

    @Test(arguments: 0..<500)
    func aSnapshotHoldsWhatADictionaryHolds(seed: UInt64) {
        var random = Random(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        var paths = Self.paths(&random)
        if seed % 2 == 0 { paths.sort() }
        var model: [RelativePath: SnapshotEntry] = [:]
        var entries: [SnapshotEntry] = []
        for path in paths {
            let entry = SnapshotEntry(
                path: path, kind: random.pick([.file, .directory, .symlink, .other]),
                size: random.next() % 2 == 0 ? nil : random.next(),
                modified: random.next() % 2 == 0
                    ? nil : FileTime(seconds: Double(random.next() % 1000), granularity: random.pick([.day, .exact])),
                digest: random.pick(Self.digests), rawName: random.next() % 5 == 0 ? [0xE9, 0x41] : nil)
            entries.append(entry)
            if model[path] == nil { model[path] = entry }  // the first is kept
        }
        let snapshot = Snapshot(entries)
        #expect(snapshot.count == model.count, "seed \(seed)")
        for (path, entry) in model { #expect(snapshot[path] == entry, "seed \(seed): \(path)") }
        let other = Snapshot(Self.paths(&random).map { SnapshotEntry(path: $0, kind: .file) })
        let positions = snapshot.positions(in: other)
        for (position, entry) in snapshot.entries.enumerated() {
            let expected = other.position(of: entry.path)
            #expect(positions[position] == (expected ?? -1), "seed \(seed): \(entry.path)")
        }
        let kept = snapshot.filter { $0.kind != .file }
        for (path, entry) in model {
            #expect(kept[path] == (entry.kind == .file ? nil : entry), "seed \(seed): \(path)")
        }
        var table = PathTable(entries.map { ($0.path, $0.size) })
        for path in Set(paths) {
            #expect(table[path] == entries.last { $0.path == path }?.size, "seed \(seed): \(path)")
        }
        table = PathTable()
        #expect(table.count == 0)
    }
}
