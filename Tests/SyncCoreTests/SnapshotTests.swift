// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

@Suite struct SnapshotTests {
    /// Each case: the paths handed to `Snapshot.init` (with a size marking which entry they
    /// are), then the paths and sizes the snapshot must hold, in order.
    static let cases: [(input: [String], expected: [String], sizes: [UInt64])] = [
        (["a", "a/b", "c"], ["a", "a/b", "c"], [0, 1, 2]),  // already sorted: kept as is
        (["c", "a", "a/b"], ["a", "a/b", "c"], [1, 2, 0]),  // unsorted: sorted
        (["a", "a", "b"], ["a", "b"], [0, 2]),  // sorted with a repeat: the first is kept
        (["b", "a", "b"], ["a", "b"], [1, 0]),  // unsorted with a repeat: the first is kept
        (["caf\u{E9}", "cafe\u{301}"], ["caf\u{E9}"], [0]),  // NFC then NFD: one path
        ([], [], []),
    ]

    @Test(arguments: cases.indices)
    func sortsAndKeepsFirstOfEachPath(_ index: Int) throws {
        let (input, expected, sizes) = Self.cases[index]
        let entries = try input.enumerated().map { i, path in
            SnapshotEntry(path: try RelativePath(validating: path), kind: .file, size: UInt64(i))
        }
        let snapshot = Snapshot(entries)
        #expect(snapshot.entries.map(\.path.string) == expected)
        #expect(snapshot.entries.map(\.size) == sizes.map { Optional($0) })
        for entry in snapshot.entries { #expect(snapshot[entry.path]?.size == entry.size) }
    }
}
