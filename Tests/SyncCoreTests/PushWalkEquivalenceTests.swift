// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// The folder walk of a push (`PushWalk`) makes the plan the whole-tree planner makes
/// (`PushPlanner.plan`), on random trees.
struct PushWalkEquivalenceTests {
    @Test(arguments: 0..<400)
    func theWalkPlansWhatTheWholeTreePlannerPlans(seed: UInt64) throws {
        var random = RandomPushTrees(seed: seed)
        let (local, remote, records, partials, policy) = random.make()
        let expected = PushPlanner(policy: policy).plan(
            local: local, remote: remote, records: records, partials: partials)
        let source = SnapshotPushSource(local: local, remote: remote, records: records)
        let writer = SectionWriter()
        var walk = PushWalk(policy: policy, partials: partials, source: source, writer: writer)
        // A folder planned a slice at a time plans what it plans whole.
        walk.ledger.planSlice = [1, 2, 3, 4_096][Int(seed % 4)]
        let walked = try walk.run()

        let (walkedCounts, expectedCounts) = (actionCounts(writer.actions), actionCounts(expected.plan.actions))
        let differing = Set(walkedCounts.keys).union(expectedCounts.keys).filter {
            walkedCounts[$0] != expectedCounts[$0]
        }
        #expect(differing.isEmpty, "seed \(seed): \(differing.map { "\($0.kind) \($0.path) \($0.reason)" })")
        expectWalkEnd(
            notes: walked.notes, skipped: walked.skipped, unchanged: walked.unchanged, refusal: walked.refusal,
            adopted: walked.adopted, forgotten: walked.forgotten, writer: writer, listed: source.listed,
            expected: expected, seed: seed)
        #expect(walked.abandonedUploads == expected.abandonedUploads, "seed \(seed)")
        #expect(walked.records == records.count, "seed \(seed)")
        expectOrder(writer, seed: seed)
    }

    /// Folders before their content, renames before transfers (sections), deletes deepest first.
    private func expectOrder(_ writer: SectionWriter, seed: UInt64) {
        let made = (writer.sections[.prepare] ?? []).filter { $0.kind == .mkdirRemote }.map(\.path)
        for (index, folder) in made.enumerated() {
            #expect(!made[(index + 1)...].contains { $0.isAncestor(of: folder) }, "seed \(seed)")
        }
        let deletes = writer.sections[.deletes] ?? []
        for (index, delete) in deletes.enumerated() {
            #expect(!deletes[(index + 1)...].contains { delete.path.isAncestor(of: $0.path) }, "seed \(seed)")
        }
        #expect((writer.sections[.renames] ?? []).allSatisfy { $0.kind == .renameRemote }, "seed \(seed)")
    }
}
