// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// The folder walks plan what the whole-tree planners plan on random trees whose names sort
/// differently as bytes and as paths: `/`-adjacent ASCII (` `, `-`, `.`), non-ASCII, emoji,
/// names longer than 15 bytes; and a folder is deleted only once what it holds is deleted.
struct TrickyNameWalkTests {
    static let folders = ["a", "a b", "a-b", "a.b", "ab", "é", "z", "日本語のフォルダ名前", "😀", ".d", "A"]
    static let files = [
        "1.jpg", "a", "a-b", "a.b", "é.jpg", "long-file-name-over-fifteen-bytes.jpg", "😀.mov", ".h",
        "x.conflict-20261201T112233Z.jpg",
    ]

    /// Names in NFD (as macOS writes them), none with an NFC twin.
    static let decomposed = ["a", "e\u{301}", "a-b", "u\u{308}ber", "ab"]
    static let decomposedFiles = ["1.jpg", "e\u{301}.jpg", "a.b", "n\u{303}-long-name-over-fifteen.mov"]

    @Test(arguments: 0..<300)
    func aPullWalkPlansWhatTheWholeTreePlans(seed: UInt64) throws {
        var random =
            seed % 2 == 0
            ? RandomPullTrees(seed: seed, folderNames: Self.folders, fileNames: Self.files)
            : RandomPullTrees(seed: seed, folderNames: Self.decomposed, fileNames: Self.decomposedFiles)
        var (remote, local, records, partials, policy) = random.make()
        // A third of the trees: the local side spelled in NFD, the device's in NFC.
        if seed % 3 == 0 { local = Self.decomposing(local) }
        guard !PullWalkEquivalenceTests.listsUnknownBelowATypeChange(remote, local) else { return }
        let source = SnapshotWalkSource(remote: remote, local: local, records: records) {
            $0.to.string.utf8.count % 2 == 0
        }
        let expected = PullWalkEquivalenceTests.wholeTree(remote, local, records, partials, policy, source: source)
        let writer = SectionWriter()
        let walked = try PullWalk(policy: policy, partials: partials, source: source, writer: writer).run()
        expectSame(writer.actions, expected.plan.actions, seed: seed)
        #expect(walked.refusal == expected.refusal, "seed \(seed)")
        #expect(Set(walked.notes) == Set(expected.plan.notes), "seed \(seed)")
        expectFoldersDeletedLast(writer, destination: local, seed: seed)
    }

    @Test(arguments: 0..<300)
    func aPushWalkPlansWhatTheWholeTreePlans(seed: UInt64) throws {
        var random =
            seed % 2 == 0
            ? RandomPushTrees(seed: seed, folderNames: Self.folders, fileNames: Self.files)
            : RandomPushTrees(seed: seed, folderNames: Self.decomposed, fileNames: Self.decomposedFiles)
        var (local, remote, records, partials, policy) = random.make()
        if seed % 3 == 0 { local = Self.decomposing(local) }
        let expected = PushPlanner(policy: policy).plan(
            local: local, remote: remote, records: records, partials: partials)
        let source = SnapshotPushSource(local: local, remote: remote, records: records)
        let writer = SectionWriter()
        let walked = try PushWalk(policy: policy, partials: partials, source: source, writer: writer).run()
        expectSame(writer.actions, expected.plan.actions, seed: seed)
        #expect(walked.refusal == expected.refusal, "seed \(seed)")
        #expect(Set(walked.notes) == Set(expected.plan.notes), "seed \(seed)")
        // Upload temporaries on the device are none of the plan's (the executor sweeps them).
        expectFoldersDeletedLast(writer, destination: PushPlanner.planned(remote: remote), seed: seed)
    }

    /// A walk that stops looking for moves part way (a limit of 0 to 3 candidates) plans what
    /// the whole-tree planner plans when no move is confirmed: its deletes held for a rename
    /// are written once it gives up, children before their folder.
    @Test(arguments: 0..<300)
    func aPullWalkThatGivesUpMovesPlansAsIfNoneWasFound(seed: UInt64) throws {
        var random = RandomPullTrees(seed: seed, folderNames: Self.folders, fileNames: Self.files)
        var (remote, local, records, partials, policy) = random.make()
        policy.deleteExtraneous = true
        let source = SnapshotWalkSource(remote: remote, local: local, records: records) { _ in false }
        let writer = SectionWriter()
        var walk = PullWalk(policy: policy, partials: partials, source: source, writer: writer)
        walk.ledger.moveCandidateLimit = Int(seed % 4)
        let walked = try walk.run()
        guard walked.notes.contains(where: { $0.contains("files may have moved") }) else { return }
        let changed = remote.entries.filter { $0.kind == .directory && local[$0.path]?.kind == .file }.map(\.path)
        let unknown = remote.unknown.union(remote.hiddenUnknown)
        guard !changed.contains(where: { path in unknown.contains { path.isAncestor(of: $0) } }) else { return }
        let planner = PullPlanner(policy: policy)
        var expected = planner.plan(remote: remote, local: local, records: records, partials: partials)
        if !expected.moveCandidates.isEmpty {
            expected = planner.plan(
                remote: remote, local: local, records: records, partials: partials,
                evidence: source.evidence(for: expected.moveCandidates))
        }
        expectSame(writer.actions, expected.plan.actions, seed: seed)
        #expect(walked.refusal == expected.refusal, "seed \(seed)")
        expectFoldersDeletedLast(writer, destination: local, seed: seed)
    }

    @Test(arguments: 0..<300)
    func aPushWalkThatGivesUpMovesPlansAsIfNoneWasFound(seed: UInt64) throws {
        var random = RandomPushTrees(seed: seed, folderNames: Self.folders, fileNames: Self.files)
        var (local, remote, records, partials, policy) = random.make()
        policy.deleteExtraneous = true
        let source = SnapshotPushSource(local: local, remote: remote, records: records)
        let writer = SectionWriter()
        var walk = PushWalk(policy: policy, partials: partials, source: source, writer: writer)
        walk.ledger.moveCandidateLimit = Int(seed % 4)
        let walked = try walk.run()
        guard walked.notes.contains(where: { $0.contains("files may have moved") }) else { return }
        // The whole tree with no record a move can come from: their digests taken away.
        let noMoves = records.mapValues { record in
            var record = record
            record.digest = nil
            return record
        }
        let expected = PushPlanner(policy: policy).plan(
            local: local, remote: remote, records: noMoves, partials: partials)
        let renames = (writer.sections[.renames] ?? []).count
        #expect(renames == 0, "seed \(seed)")
        #expect(walked.refusal == expected.refusal, "seed \(seed)")
        let deletes = Set(writer.actions.filter { $0.kind == .deleteRemote }.map(\.path))
        let expectedDeletes = Set(expected.plan.actions.filter { $0.kind == .deleteRemote }.map(\.path))
        #expect(deletes == expectedDeletes, "seed \(seed): \(deletes.symmetricDifference(expectedDeletes))")
        expectFoldersDeletedLast(writer, destination: PushPlanner.planned(remote: remote), seed: seed)
    }

    /// `side` with every path in NFD.
    static func decomposing(_ side: Snapshot) -> Snapshot {
        var result = Snapshot(
            side.entries.map { entry in
                var entry = entry
                entry.path = Fixture.path(entry.path.string.decomposedStringWithCanonicalMapping)
                return entry
            }, unknown: Set(side.unknown.map { Fixture.path($0.string.decomposedStringWithCanonicalMapping) }))
        result.hiddenUnknown = Set(
            side.hiddenUnknown.map { Fixture.path($0.string.decomposedStringWithCanonicalMapping) })
        return result
    }

    private func expectSame(_ walked: [Action], _ expected: [Action], seed: UInt64) {
        let (a, b) = (actionCounts(walked), actionCounts(expected))
        let differing = Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }
        #expect(
            differing.isEmpty,
            "seed \(seed): \(differing.map { "\($0.kind) \($0.path) walk \(a[$0] ?? 0) whole \(b[$0] ?? 0)" })")
    }

    /// A folder's delete comes after the deletes (or renames away) of everything the
    /// destination holds below it, and no delete comes twice. (The offloads delete on the
    /// source side: not weighed here.)
    private func expectFoldersDeletedLast(_ writer: SectionWriter, destination: Snapshot, seed: UInt64) {
        let deletes = (writer.sections[.deletes] ?? []).filter {
            $0.reason != Offload.reason && $0.reason != Offload.folderReason
        }
        #expect(Set(deletes.map(\.path)).count == deletes.count, "seed \(seed): a path deleted twice")
        let renamed = Set((writer.sections[.renames] ?? []).map(\.path))
        let cleared = (writer.sections[.prepare] ?? []).filter { $0.to == nil }.map(\.path)
        var gone = Set<RelativePath>()
        for delete in deletes {
            if delete.source?.kind == .directory {
                let below = destination.entries.filter { delete.path.isAncestor(of: $0.path) }
                let left = below.filter { entry in
                    !gone.contains(entry.path) && !renamed.contains(entry.path)
                        && !cleared.contains { $0 == entry.path || $0.isAncestor(of: entry.path) }
                }
                #expect(left.isEmpty, "seed \(seed): \(delete.path) deleted holding \(left.map(\.path))")
            }
            gone.insert(delete.path)
        }
    }
}
