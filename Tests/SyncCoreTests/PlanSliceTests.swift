// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// A huge folder is planned a slice at a time (issue 17): the actions of one slice are written
/// before the next slice is planned, so what waits in memory is one slice's actions, not the
/// folder's (100,000 downloads held 70 MB).
struct PlanSliceTests {
    /// One log of what the walk asked (a record of a new file's size, which the walk asks for
    /// each new file of a slice it plans) and what it wrote, in order.
    final class Log: PlanWriter {
        var events: [String] = []
        func append(_ action: Action, to section: PlanSection) throws { events.append("write \(action.path)") }
        func adopt(_ adoption: Adoption) throws {}
        func forget(_ path: RelativePath) throws {}
    }

    final class AskingSource: SnapshotFolderSource, PullWalkSource {
        let log: Log
        init(remote: Snapshot, records: [RelativePath: FileRecord], log: Log) {
            self.log = log
            super.init(remote: remote, local: Snapshot([]), records: records)
        }
        func records(in folder: RelativePath, local: Snapshot) throws -> RecordTable {
            RecordTable(records(directlyIn: folder))
        }
        func hasRecord(remoteSize size: UInt64, matching time: FileTime) throws -> Bool {
            log.events.append("ask \(size)")
            return false
        }
        func refined(_ listing: Snapshot, records: RecordTable) throws -> Snapshot { listing }
        func evidence(for candidates: [MoveCandidate]) -> MoveEvidence { MoveEvidence() }
    }

    @Test func aFoldersDownloadsAreWrittenASliceAtATime() throws {
        // Ten new files in the root; a record elsewhere, so the walk asks whether each may be a move.
        let listed = (0..<10).map { Fixture.listed(String(format: "f%02d", $0), 100 + UInt64($0), 1_700_000_000) }
        let old = Fixture.listed("gone/x", 1, 1)
        let records = [old.path: Fixture.record(old, Fixture.local("gone/x", 1, 1))]
        let log = Log()
        let source = AskingSource(remote: Snapshot(listed), records: records, log: log)
        var walk = PullWalk(policy: SyncPolicy(direction: .pull), partials: [:], source: source, writer: log)
        walk.ledger.planSlice = 4
        _ = try walk.run()
        let asks = log.events.enumerated().filter { $0.element.hasPrefix("ask") }.map(\.offset)
        let writes = log.events.enumerated().filter { $0.element.hasPrefix("write") }.map(\.offset)
        #expect(asks.count == 10 && writes.count == 10)
        // The first slice's four downloads are written before the fifth file is asked about.
        #expect(writes.prefix(4).allSatisfy { $0 < asks[4] }, "\(log.events)")
    }
}
