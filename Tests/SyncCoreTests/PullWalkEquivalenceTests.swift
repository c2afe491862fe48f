// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// The folder walk (`PullWalk`) makes the plan the whole-tree planner makes (`PullPlanner.plan`,
/// with the move evidence of its first plan), on random trees.
struct PullWalkEquivalenceTests {
    /// The whole-tree plan as the engine makes it: plan, check the move candidates, plan again.
    static func wholeTree(
        _ remote: Snapshot, _ local: Snapshot, _ records: [RelativePath: FileRecord],
        _ partials: [RelativePath: PartialTransfer], _ policy: SyncPolicy, source: SnapshotWalkSource
    ) -> PlanResult {
        let planner = PullPlanner(policy: policy)
        let first = planner.plan(remote: remote, local: local, records: records, partials: partials)
        guard !first.moveCandidates.isEmpty else { return first }
        return planner.plan(
            remote: remote, local: local, records: records, partials: partials,
            evidence: source.evidence(for: first.moveCandidates))
    }

    /// True when an unknown device folder lies deeper below a device folder whose path holds a
    /// local file: the walk clears that file having read only the folder's own listing (a known
    /// difference, see `PullWalk`), so such trees are not compared.
    static func listsUnknownBelowATypeChange(_ remote: Snapshot, _ local: Snapshot) -> Bool {
        let changed = remote.entries.filter { $0.kind == .directory && local[$0.path]?.kind == .file }.map(\.path)
        let unknown = remote.unknown.union(remote.hiddenUnknown)
        return changed.contains { path in unknown.contains { path.isAncestor(of: $0) } }
    }

    @Test(arguments: 0..<400)
    func theWalkPlansWhatTheWholeTreePlannerPlans(seed: UInt64) throws {
        var random = RandomPullTrees(seed: seed)
        let (remote, local, records, partials, policy) = random.make()
        guard !Self.listsUnknownBelowATypeChange(remote, local) else { return }
        let source = SnapshotWalkSource(remote: remote, local: local, records: records) {
            $0.to.string.utf8.count % 2 == 0
        }
        let expected = Self.wholeTree(remote, local, records, partials, policy, source: source)
        let writer = SectionWriter()
        var walk = PullWalk(policy: policy, partials: partials, source: source, writer: writer)
        // A folder planned a slice at a time plans what it plans whole.
        walk.ledger.planSlice = [1, 2, 3, 4_096][Int(seed % 4)]
        let walked = try walk.run()

        #expect(actionCounts(writer.actions) == actionCounts(expected.plan.actions), "seed \(seed)")
        expectWalkEnd(
            notes: walked.notes, skipped: walked.skipped, unchanged: walked.unchanged, refusal: walked.refusal,
            adopted: walked.adopted, forgotten: walked.forgotten, writer: writer, listed: source.listed,
            expected: expected, seed: seed)
        #expect(Set(walked.moveCandidates) == Set(expected.moveCandidates), "seed \(seed)")
        if records.count >= ListingOverlap.minimumRecords {
            #expect(walked.overlap == ListingOverlap(remote: remote, records: records), "seed \(seed)")
        }
        expectOrder(writer, seed: seed)
    }

    /// The trees left out of the comparison above are few.
    @Test func nearlyEveryRandomTreeIsCompared() {
        let left = (0..<400).filter { seed in
            var random = RandomPullTrees(seed: UInt64(seed))
            let (remote, local, _, _, _) = random.make()
            return Self.listsUnknownBelowATypeChange(remote, local)
        }
        #expect(left.count <= 20, "\(left.count) of 400 left out")
    }

    /// The one difference (see `PullWalk`): a local file where the device now has a folder is
    /// cleared once the folder's own listing is read, though a folder deeper below it could not
    /// be listed; the whole-tree planner leaves the file. Either way nothing is lost (the
    /// file goes to the trash as recorded, or is set aside when it changed).
    @Test func aFolderUnknownDeepBelowATypeChangeDoesNotKeepTheLocalFile() throws {
        let record = FileRecord(
            path: Fixture.path("clip"), remoteSize: 1, remoteModified: FileTime(seconds: 1e9, granularity: .second),
            localSize: 1, localModified: FileTime(seconds: 1e9, granularity: .exact), digest: nil)
        let remote = Snapshot(
            [Fixture.folder("clip"), Fixture.folder("clip/sub"), Fixture.folder("clip/sub/deep")],
            unknown: [Fixture.path("clip/sub/deep")])
        let local = Snapshot([Fixture.local("clip", 1, 1e9)])
        let records = [record.path: record]
        let policy = SyncPolicy(direction: .pull)
        let whole = PullPlanner(policy: policy).plan(remote: remote, local: local, records: records, partials: [:])
        #expect(Fixture.kinds(whole) == [])
        let source = SnapshotWalkSource(remote: remote, local: local, records: records) { _ in false }
        let writer = SectionWriter()
        _ = try PullWalk(policy: policy, partials: [:], source: source, writer: writer).run()
        #expect(
            writer.actions.map { "\($0.kind.rawValue) \($0.path)" } == [
                "delete_local clip", "mkdir_local clip", "mkdir_local clip/sub", "mkdir_local clip/sub/deep",
            ])
    }

    /// Folders before their content, clearing before what takes its path, renames before
    /// transfers (sections), deletes deepest first.
    private func expectOrder(_ writer: SectionWriter, seed: UInt64) {
        let prepare = writer.sections[.prepare] ?? []
        let made = prepare.filter { $0.kind == .mkdirLocal }.map(\.path)
        for (index, folder) in made.enumerated() {
            #expect(!made[(index + 1)...].contains { $0.isAncestor(of: folder) }, "seed \(seed)")
        }
        for (index, action) in prepare.enumerated() where action.kind == .mkdirLocal {
            let later = prepare[(index + 1)...]
            #expect(!later.contains { $0.kind != .mkdirLocal && $0.path == action.path }, "seed \(seed)")
        }
        let deletes = writer.sections[.deletes] ?? []
        for (index, delete) in deletes.enumerated() {
            #expect(!deletes[(index + 1)...].contains { delete.path.isAncestor(of: $0.path) }, "seed \(seed)")
        }
        #expect((writer.sections[.renames] ?? []).allSatisfy { $0.kind == .renameLocal })
    }
}
