// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// Size and age bounds (`min_size`, `max_size`, `max_age`): files only, unknown values kept.
struct FileBoundsTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func file(_ size: UInt64?, age: Double?) -> SnapshotEntry {
        SnapshotEntry(
            path: RelativePath(trusted: "a/f.bin"), kind: .file, size: size,
            modified: age.map { FileTime(seconds: 1_700_000_000 - $0, granularity: .second) })
    }

    @Test func sizesAndAges() {
        let bounds = FileBounds(minimumSize: 10, maximumSize: 1_000, maximumAge: 86_400)
        #expect(bounds.excludes(file(9, age: 0), now: now) != nil)
        #expect(bounds.excludes(file(10, age: 0), now: now) == nil)
        #expect(bounds.excludes(file(1_000, age: 0), now: now) == nil)
        #expect(bounds.excludes(file(1_001, age: 0), now: now) != nil)
        #expect(bounds.excludes(file(500, age: 86_400), now: now) == nil)
        #expect(bounds.excludes(file(500, age: 86_401), now: now) != nil)
        // Unknown size or time: not left out by that bound.
        #expect(bounds.excludes(file(nil, age: 0), now: now) == nil)
        #expect(bounds.excludes(file(500, age: nil), now: now) == nil)
        // Folders are never out of bounds.
        let folder = SnapshotEntry(path: RelativePath(trusted: "a"), kind: .directory, size: 0, modified: nil)
        #expect(bounds.excludes(folder, now: now) == nil)
        #expect(FileBounds().isEmpty)
        #expect(FileBounds().excludes(file(0, age: 1e9), now: now) == nil)
    }
}
