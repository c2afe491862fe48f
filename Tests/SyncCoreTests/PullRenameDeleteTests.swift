// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@Suite struct PullRenameDeleteTests {
    typealias F = Fixture
    let planner = PullPlanner(policy: SyncPolicy(direction: .pull))
    let deleting = PullPlanner(policy: SyncPolicy(direction: .pull, deleteExtraneous: true))

    @Test func remoteMoveWithOneCandidateBecomesALocalRename() {
        let old = (F.listed("a/clip.mp4", 2_000_000, 600), F.local("a/clip.mp4", 2_000_000, 600))
        let remote = Snapshot([F.folder("a"), F.folder("b"), F.listed("b/clip.mp4", 2_000_000, 600)])
        let local = Snapshot([F.folder("a"), old.1])
        let result = planner.planConfirmingMoves(remote: remote, local: local, records: F.records([old]))
        #expect(F.kinds(result) == ["mkdir_local b", "rename_local a/clip.mp4 -> b/clip.mp4"])
    }

    @Test func twoCandidatesMeanNoRename() {
        let one = (F.listed("x1", 7, 600), F.local("x1", 7, 600))
        let two = (F.listed("x2", 7, 600), F.local("x2", 7, 600))
        let remote = Snapshot([F.listed("y", 7, 600)])
        let local = Snapshot([one.1, two.1])
        let result = planner.plan(remote: remote, local: local, records: F.records([one, two]), partials: [:])
        #expect(F.kinds(result) == ["download y"])
    }

    @Test func aMovedFileWithAnotherTimeIsDownloaded() {
        let old = (F.listed("a", 7, 600), F.local("a", 7, 600))
        let result = planner.plan(
            remote: Snapshot([F.listed("b", 7, 1200)]), local: Snapshot([old.1]), records: F.records([old]),
            partials: [:])
        #expect(F.kinds(result) == ["download b"])
    }

    @Test func deletesOnlyWithDeleteAndDeepestFirst() {
        let keep = (F.listed("keep", 1, 60), F.local("keep", 1, 60))
        let gone = (F.listed("d/x", 1, 60), F.local("d/x", 1, 60))
        let remote = Snapshot([keep.0])
        let local = Snapshot([keep.1, F.folder("d"), gone.1])
        let records = F.records([keep, gone])
        #expect(F.kinds(planner.plan(remote: remote, local: local, records: records, partials: [:])).isEmpty)
        let result = deleting.plan(remote: remote, local: local, records: records, partials: [:])
        #expect(F.kinds(result) == ["delete_local d/x", "delete_local d"])
    }

    /// Without `--delete`, the files that left one side since the last sync are named in a note
    /// (how many, and that `--delete` would delete them); a local-only file without a record, a
    /// file moved and a run with `--delete` give none.
    @Test func filesGoneFromOneSideAreCountedInANoteWithoutDelete() {
        let keep = (F.listed("keep", 1, 60), F.local("keep", 1, 60))
        let gone = [(F.listed("d/x", 1, 60), F.local("d/x", 1, 60)), (F.listed("d/y", 2, 60), F.local("d/y", 2, 60))]
        let moved = (F.listed("m", 5_000, 90), F.local("m", 5_000, 90))
        let records = F.records([keep, moved] + gone)
        let remote = Snapshot([keep.0, F.listed("moved-m", 5_000, 90)])
        let local = Snapshot([keep.1, F.folder("d"), gone[0].1, gone[1].1, moved.1, F.local("mine-only", 3, 60)])
        let pulled = planner.planConfirmingMoves(remote: remote, local: local, records: records)
        #expect(F.kinds(pulled) == ["rename_local m -> moved-m"])
        #expect(
            pulled.plan.notes == [
                "2 files gone from the device since the last sync, kept here (pull --delete would delete them)"
            ])
        #expect(
            !deleting.planConfirmingMoves(remote: remote, local: local, records: records).plan.notes.contains {
                $0.contains("--delete would")
            })

        let pusher = PushPlanner(policy: SyncPolicy(direction: .push))
        let pushed = pusher.plan(
            local: Snapshot([keep.1]), remote: Snapshot([keep.0, gone[0].0]), records: records, partials: [:])
        #expect(
            pushed.plan.notes == [
                "1 file no longer here since the last sync, kept on the device (push --delete would delete it)"
            ])
    }

    @Test func recordsOfPathsGoneFromBothSidesAreForgotten() {
        let gone = (F.listed("g", 1, 60), F.local("g", 1, 60))
        let result = planner.plan(remote: Snapshot([]), local: Snapshot([]), records: F.records([gone]), partials: [:])
        #expect(result.forgotten.map(\.string) == ["g"])
    }

    @Test func uploadTemporariesAreNeverPulled() {
        let result = planner.plan(
            remote: Snapshot([F.listed(".a.ftpsync-part", 3, 60)]), local: Snapshot([]), records: [:], partials: [:])
        #expect(F.kinds(result).isEmpty)
    }
}

@Suite struct DeleteGuardTests {
    typealias F = Fixture

    /// 55 synced files, all gone from the device but one folder's worth: (limit, files gone, refused).
    @Test(arguments: [
        (50 as Int?, 55, true), (50, 50, false), (60, 55, false), (nil, 55, false), (0, 1, true),
    ])
    func limitRefusesTheWholeRun(limit: Int?, gone: Int, refused: Bool) {
        let pairs = (0..<56).map { i in (F.listed("f\(i)", 1, 60), F.local("f\(i)", 1, 60)) }
        let remote = Snapshot(pairs[gone...].map(\.0))
        let local = Snapshot(pairs.map(\.1))
        let planner = PullPlanner(policy: SyncPolicy(direction: .pull, deleteExtraneous: true, maxDelete: limit))
        let result = planner.plan(remote: remote, local: local, records: F.records(pairs), partials: [:])
        #expect(result.plan.count(.deleteLocal) == gone)
        #expect((result.refusal != nil) == refused)
        let pusher = PushPlanner(policy: SyncPolicy(direction: .push, deleteExtraneous: true, maxDelete: limit))
        let pushed = pusher.plan(
            local: Snapshot(pairs[gone...].map(\.1)), remote: Snapshot(pairs.map(\.0)), records: F.records(pairs),
            partials: [:])
        #expect(pushed.plan.count(.deleteRemote) == gone)
        #expect((pushed.refusal != nil) == refused)
    }

    /// A device folder listed empty while the records hold files under it deletes nothing,
    /// unless the limit is off.
    @Test(arguments: [(50 as Int?, 0), (nil, 2)])
    func emptyListingOfASyncedFolderIsSuspect(limit: Int?, deletes: Int) {
        let a = (F.listed("cam/a", 1, 60), F.local("cam/a", 1, 60))
        let b = (F.listed("cam/b", 1, 60), F.local("cam/b", 1, 60))
        let other = (F.listed("other/c", 1, 60), F.local("other/c", 1, 60))
        let remote = Snapshot([F.folder("cam"), F.folder("other"), other.0])
        let local = Snapshot([F.folder("cam"), a.1, b.1, F.folder("other"), other.1])
        let planner = PullPlanner(policy: SyncPolicy(direction: .pull, deleteExtraneous: true, maxDelete: limit))
        let result = planner.plan(remote: remote, local: local, records: F.records([a, b, other]), partials: [:])
        #expect(result.plan.count(.deleteLocal) == deletes)
        #expect(result.plan.notes.contains { $0.contains("came back empty") } == (deletes == 0))
    }

    @Test func anEmptyDeviceRootIsSuspectToo() {
        let a = (F.listed("a", 1, 60), F.local("a", 1, 60))
        let planner = PullPlanner(policy: SyncPolicy(direction: .pull, deleteExtraneous: true))
        let result = planner.plan(remote: Snapshot([]), local: Snapshot([a.1]), records: F.records([a]), partials: [:])
        #expect(result.plan.actions.isEmpty)
    }
}
