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
        let walked = try PushWalk(policy: policy, partials: partials, source: source, writer: writer).run()

        let (walkedCounts, expectedCounts) = (actionCounts(writer.actions), actionCounts(expected.plan.actions))
        let differing = Set(walkedCounts.keys).union(expectedCounts.keys).filter {
            walkedCounts[$0] != expectedCounts[$0]
        }
        #expect(differing.isEmpty, "seed \(seed): \(differing.map { "\($0.kind) \($0.path) \($0.reason)" })")
        #expect(Set(walked.notes) == Set(expected.plan.notes), "seed \(seed)")
        #expect(walked.notes.count == expected.plan.notes.count, "seed \(seed)")
        #expect(Set(walked.skipped) == Set(expected.plan.skipped), "seed \(seed)")
        #expect(walked.unchanged == expected.plan.unchanged, "seed \(seed)")
        #expect(walked.refusal == expected.refusal, "seed \(seed)")
        #expect(Set(writer.adoptions) == Set(expected.adoptions), "seed \(seed)")
        #expect(walked.adopted == writer.adoptions.count, "seed \(seed)")
        #expect(writer.forgotten.sorted() == expected.forgotten, "seed \(seed)")
        #expect(walked.forgotten == writer.forgotten.count, "seed \(seed)")
        #expect(walked.abandonedUploads == expected.abandonedUploads, "seed \(seed)")
        #expect(walked.records == records.count, "seed \(seed)")
        // Each folder of the device listed once, after its parent.
        for (index, folder) in source.listed.enumerated() where !folder.isRoot {
            #expect(source.listed[..<index].contains(folder.parent), "seed \(seed)")
        }
        #expect(Set(source.listed).count == source.listed.count, "seed \(seed)")
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
