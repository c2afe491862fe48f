// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// `PlacedDownloads`: which local files a killed run placed before recording them.
struct PlacedDownloadsTests {
    typealias F = Fixture

    static func partial(_ p: String, _ size: UInt64, _ t: Double) -> PartialTransfer {
        PartialTransfer(
            path: F.path(p), remoteSize: size, remoteModified: FileTime(seconds: t, granularity: .minute), bytesDone: 0)
    }

    /// (what the partial row says, what is here, the record, whether it is taken as placed)
    static let cases: [(String, PartialTransfer, SnapshotEntry?, FileRecord?, Bool)] = [
        ("size and time of the row: placed", partial("a", 10, 600), F.local("a", 10, 600), nil, true),
        (
            "an older recorded version under it: placed", partial("a", 10, 600), F.local("a", 10, 600),
            F.record(F.listed("a", 9, 60), F.local("a", 9, 60)), true
        ),
        ("another size here: not ours", partial("a", 10, 600), F.local("a", 11, 600), nil, false),
        ("another time here: not ours", partial("a", 10, 600), F.local("a", 10, 601), nil, false),
        ("nothing here", partial("a", 10, 600), nil, nil, false),
        ("a folder here", partial("a", 10, 600), F.folder("a"), nil, false),
        (
            "the record says so already", partial("a", 10, 600), F.local("a", 10, 600),
            F.record(F.listed("a", 10, 600), F.local("a", 10, 600)), false
        ),
        (
            "a row with no time", PartialTransfer(path: F.path("a"), remoteSize: 10, remoteModified: nil, bytesDone: 0),
            F.local("a", 10, 600), nil, false
        ),
    ]

    @Test(arguments: cases.indices)
    func placedFilesAreKnownByTheirRow(index: Int) {
        let (label, row, here, record, placed) = Self.cases[index]
        let found = PlacedDownloads.records(
            partials: [row.path: row], local: Snapshot(here.map { [$0] } ?? []),
            records: record.map { [row.path: $0] } ?? [:])
        #expect(found.count == (placed ? 1 : 0), "\(label)")
        if placed, let first = found.first {
            #expect(first.remoteSize == row.remoteSize && first.localSize == here?.size, "\(label)")
        }
    }
}

/// `pull --delete` never trashes the local versions that conflicts kept (nor their folders).
struct PullDeleteKeepsConflictCopiesTests {
    typealias F = Fixture

    @Test func conflictCopiesWithNoRecordAreKept() {
        let local = Snapshot([
            F.folder("d"), F.local("d/a.conflict-20261201T113945Z.jpg", 5, 600), F.local("d/extra.jpg", 5, 600),
            F.local("x.conflict-20261201T113945Z", 5, 600), F.local("x.conflict-later", 5, 600),
        ])
        var policy = SyncPolicy(direction: .pull)
        policy.deleteExtraneous = true
        policy.maxDelete = nil
        let result = PullPlanner(policy: policy).plan(remote: Snapshot([]), local: local, records: [:], partials: [:])
        #expect(F.kinds(result) == ["delete_local d/extra.jpg", "delete_local x.conflict-later"])
        #expect(result.plan.notes.filter { $0.contains("a conflict copy here; kept") }.count == 2)
    }
}
