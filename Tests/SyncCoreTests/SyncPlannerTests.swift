// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// The decisions of a two-way sync, as rclone bisync's scenario table (`cmd/bisync/testdata`)
/// states them for one pair of trees: "here" is bisync's Path1, the device its Path2.
@Suite struct SyncPlannerTests {
    typealias F = Fixture
    static let stamp = "20261206T120000Z"
    static func planner(onConflict: ConflictPolicy = .keepBoth, delete: Bool = false, maxDelete: Int? = 50)
        -> SyncPlanner
    {
        SyncPlanner(
            policy: SyncPolicy(direction: .sync, deleteExtraneous: delete, maxDelete: maxDelete, onConflict: onConflict)
        ) { name in
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + ".conflict-" + stamp }
            return String(name[..<dot]) + ".conflict-" + stamp + String(name[dot...])
        }
    }

    /// A synced pair: the device listed `size` bytes at `t`, the local copy `size` bytes at `t + 1`.
    static func synced(_ p: String, _ size: UInt64 = 10, _ t: Double = 600, digest: String? = nil) -> (
        SnapshotEntry, SnapshotEntry
    ) {
        (F.listed(p, size, t), F.local(p, size, t + 1, digest: digest))
    }

    /// bisync's `test_changes`: every kind of change on either side, after a first sync of
    /// file1…file8.
    @Test func everyChangeOnEitherSide() {
        let pairs = (1...8).map { Self.synced("file\($0).txt") }
        let records = F.records(pairs)
        let there = Snapshot([
            F.listed("file1.txt", 11, 1_200),  // changed on the device
            F.listed("file2.txt", 10, 600),
            F.listed("file4.txt", 10, 600),  // deleted here
            F.listed("file5.txt", 12, 1_200),  // changed on both sides
            F.listed("file6.txt", 13, 1_200),  // changed on the device, deleted here
            F.listed("file10.txt", 5, 1_200),  // new on the device
        ])
        let here = Snapshot([
            F.local("file1.txt", 10, 601),
            F.local("file2.txt", 20, 2_000),  // changed here
            F.local("file3.txt", 10, 601),  // deleted on the device
            F.local("file5.txt", 14, 2_000),
            F.local("file7.txt", 21, 2_000),  // changed here, deleted on the device
            F.local("file11.txt", 6, 2_000),  // new here
        ])
        let result = Self.planner().plan(remote: there, local: here, records: records)
        #expect(
            F.kinds(result) == [
                "download file1.txt", "download file10.txt",
                "upload file11.txt", "upload file2.txt", "conflict file5.txt", "upload file5.txt",
                "download file5.conflict-\(Self.stamp).txt", "download file6.txt", "upload file7.txt",
            ])
        // Without --delete the one-sided deletes are kept and said.
        #expect(result.plan.notes.contains { $0.hasPrefix("1 file deleted here since the last sync is kept") })
        #expect(result.plan.notes.contains { $0.hasPrefix("1 file deleted on the device since the last sync") })
        // file8 is gone from both: its record goes.
        #expect(result.forgotten.map(\.string) == ["file8.txt"])
        #expect(result.refusal == nil)
        let conflict = result.plan.actions.first { $0.kind == .conflict }
        #expect(conflict?.resolution == .keepBoth)
        #expect(
            result.plan.actions.first { $0.kind == .upload && $0.path.string == "file5.txt" }?.resolution == .keepBoth)
    }

    /// With `--delete` a one-sided delete is carried over: DELE there, the trash here.
    @Test func deleteCarriesDeletesOver() {
        let records = F.records([Self.synced("a"), Self.synced("b"), Self.synced("c")])
        let result = Self.planner(delete: true).plan(
            remote: Snapshot([F.listed("a", 10, 600), F.listed("c", 10, 600)]),
            local: Snapshot([F.local("b", 10, 601), F.local("c", 10, 601)]), records: records)
        #expect(F.kinds(result) == ["delete_local b", "delete_remote a"])
        #expect(result.plan.unchanged == 1)
    }

    /// `--max-delete` counts the deletes of both sides together (bisync's `test_max_delete`).
    @Test func maxDeleteCountsBothSides() {
        let names = ["a", "b", "c", "d"]
        let records = F.records(names.map { Self.synced($0) } + [Self.synced("keep")])
        let result = Self.planner(delete: true, maxDelete: 3).plan(
            remote: Snapshot([F.listed("a", 10, 600), F.listed("b", 10, 600), F.listed("keep", 10, 600)]),
            local: Snapshot([F.local("c", 10, 601), F.local("d", 10, 601), F.local("keep", 10, 601)]),
            records: records)
        #expect(result.plan.count(.deleteRemote) == 2)
        #expect(result.plan.count(.deleteLocal) == 2)
        #expect(result.refusal != nil)
    }

    /// bisync's `test_equal`: both sides changed a file to the same size: the engine compares
    /// the content; the same is recorded and nothing copied, another content is a conflict. Size
    /// and time alone never decide (two edits of one size in one second differ).
    @Test func sameSizeChangesOnBothSidesAreCompared() {
        let records = F.records([Self.synced("f")])
        let (there, here) = (Snapshot([F.listed("f", 30, 3_000)]), Snapshot([F.local("f", 30, 3_000)]))
        let first = Self.planner().plan(remote: there, local: here, records: records)
        #expect(first.contentCandidates.map(\.description) == ["f -> f"])
        #expect(F.kinds(first).first == "conflict f" && first.adoptions.isEmpty)
        let same = MoveEvidence(confirmed: Set(first.contentCandidates))
        let equal = Self.planner().plan(remote: there, local: here, records: records, evidence: same)
        #expect(F.kinds(equal).isEmpty)
        #expect(equal.adoptions.count == 1)
        let differs = MoveEvidence(findings: [first.contentCandidates[0]: "the content differs"])
        let conflict = Self.planner().plan(remote: there, local: here, records: records, evidence: differs)
        #expect(F.kinds(conflict) == ["conflict f", "upload f", "download f.conflict-\(Self.stamp)"])
        #expect(conflict.plan.actions[0].reason.contains("the content differs"))
    }

    /// A record whose two sizes differ (pull's `local-wins` records such a pair) is no evidence of
    /// which side changed: a later change of the device is a conflict, never a silent download
    /// over the local version.
    @Test func aRecordOfTwoDifferentFilesDecidesNothing() {
        let records = F.records([(F.listed("m", 10, 600), F.local("m", 16, 601))])
        let result = Self.planner().plan(
            remote: Snapshot([F.listed("m", 12, 900)]), local: Snapshot([F.local("m", 16, 601)]), records: records)
        #expect(F.kinds(result) == ["conflict m", "upload m", "download m.conflict-\(Self.stamp)"])
    }

    /// A file changed here while the device's is unchanged is uploaded over the device's file as
    /// the plan saw it (`destination`, checked again before RNTO); a new one over nothing.
    @Test func uploadsCarryWhatTheyReplace() {
        let records = F.records([Self.synced("f")])
        let result = Self.planner().plan(
            remote: Snapshot([F.listed("f", 10, 600)]),
            local: Snapshot([F.local("f", 11, 5_000), F.local("new", 1, 5_000)]), records: records)
        #expect(F.kinds(result) == ["upload f", "upload new"])
        #expect(result.plan.actions[0].destination?.size == 10)
        #expect(result.plan.actions[1].destination == nil)
    }

    /// What the filters leave out keeps its records and is never deleted with a folder; files
    /// outside the size bounds or younger than min_age are left alone on both sides.
    @Test func filtersBoundsAndAgeLeaveThingsAlone() {
        let records = F.records([Self.synced("sub/a"), Self.synced("gone/b"), Self.synced("big")])
        var here = Snapshot([F.local("big", 10, 601), F.local("young", 5, 9_990)])
        here.leftOut = [F.path("sub")]
        var there = Snapshot([
            F.folder("sub"), F.listed("sub/a", 10, 600), F.folder("gone"), F.listed("big", 500, 900),
        ])
        there.leftOut = [F.path("gone/x.tmp")]
        var planner = Self.planner(delete: true)
        planner.policy.bounds = FileBounds(maximumSize: 100)
        planner.policy.minimumAge = 60
        planner.policy.now = Date(timeIntervalSince1970: 10_000)
        let result = planner.plan(remote: there, local: here, records: records)
        // sub is left out here: nothing of it is forgotten or deleted; gone/ holds a left-out
        // file on the device: not deleted with its folder; big (500 B on the device) and young
        // are left alone.
        #expect(!result.forgotten.contains(F.path("sub/a")))
        #expect(F.kinds(result).isEmpty, "gone/ is not deleted on the device: it holds a left-out file")
        #expect(result.forgotten == [F.path("gone/b")])
        #expect(result.plan.notes.contains { $0.contains("young: modified less than 60 s ago") })
        #expect(result.plan.notes.contains { $0.contains("outside the size and age bounds") })
    }

    /// First run (bisync `--resync`): the union of both sides; equal pairs recorded, differing
    /// ones conflicts, nothing deleted.
    @Test func firstRunIsTheUnion() {
        let result = Self.planner(delete: true).plan(
            remote: Snapshot([F.listed("same", 10, 600), F.listed("differs", 10, 600), F.listed("there", 1, 600)]),
            local: Snapshot([F.local("same", 10, 600), F.local("differs", 11, 900), F.local("here", 1, 900)]),
            records: [:])
        // "same" lists only the minute: its content is compared first.
        #expect(result.contentCandidates.map(\.description) == ["same -> same"])
        let proven = Self.planner(delete: true).plan(
            remote: Snapshot([F.listed("same", 10, 600), F.listed("differs", 10, 600), F.listed("there", 1, 600)]),
            local: Snapshot([F.local("same", 10, 600), F.local("differs", 11, 900), F.local("here", 1, 900)]),
            records: [:], evidence: MoveEvidence(confirmed: Set(result.contentCandidates)))
        #expect(
            F.kinds(proven) == [
                "conflict differs", "upload differs", "download differs.conflict-\(Self.stamp)", "upload here",
                "download there",
            ])
        #expect(proven.adoptions.map(\.local.path.string) == ["same"])
        #expect(result.plan.count(.deleteLocal) + result.plan.count(.deleteRemote) == 0)
    }

    /// Each `on_conflict` for a file changed on both sides.
    @Test(arguments: [
        (ConflictPolicy.keepBoth, ["conflict f.txt", "upload f.txt", "download f.conflict-\(stamp).txt"]),
        (.localWins, ["conflict f.txt", "upload f.txt"]),
        (.remoteWins, ["conflict f.txt", "download f.txt"]),
        (.newerWins, ["conflict f.txt", "upload f.txt"]),  // here at 5000 is later than 3000 there
        (.report, ["conflict f.txt"]),
    ])
    func conflictsFollowOnConflict(policy: ConflictPolicy, expected: [String]) {
        let records = F.records([Self.synced("f.txt")])
        let result = Self.planner(onConflict: policy).plan(
            remote: Snapshot([F.listed("f.txt", 30, 3_000)]), local: Snapshot([F.local("f.txt", 31, 5_000)]),
            records: records)
        #expect(F.kinds(result) == expected)
        if policy == .report { #expect(result.plan.actions.first?.resolution == .report) }
    }

    /// keep-both never plans a copy over a name either side already holds.
    @Test func keepBothWithTheCopysNameTakenChangesNothing() {
        let records = F.records([Self.synced("f.txt")])
        let taken = "f.conflict-\(Self.stamp).txt"
        let result = Self.planner().plan(
            remote: Snapshot([F.listed("f.txt", 30, 3_000), F.listed(taken, 1, 100)]),
            local: Snapshot([F.local("f.txt", 31, 5_000)]), records: records)
        #expect(F.kinds(result) == ["download \(taken)", "conflict f.txt"])
        #expect(result.plan.actions.last?.resolution == .report)
    }

    /// A move here (same XXH3 digest) is a rename on the device; a move on the device that the
    /// engine proved is a rename here; unproven, a download and the old copy kept.
    @Test func movesOnEitherSideAreRenames() {
        let records = F.records([Self.synced("old-here", 10, 600, digest: "d1"), Self.synced("old-there", 20, 700)])
        let there = Snapshot([F.listed("old-here", 10, 600), F.listed("new-there", 20, 700)])
        let here = Snapshot([F.local("new-here", 10, 5_000, digest: "d1"), F.local("old-there", 20, 701)])
        let first = Self.planner().plan(remote: there, local: here, records: records)
        #expect(F.kinds(first) == ["rename_remote old-here -> new-here", "download new-there"])
        #expect(first.moveCandidates.map(\.description) == ["old-there -> new-there"])
        let proven = MoveEvidence(confirmed: Set(first.moveCandidates))
        let second = Self.planner().plan(remote: there, local: here, records: records, evidence: proven)
        #expect(F.kinds(second) == ["rename_remote old-here -> new-here", "rename_local old-there -> new-there"])
    }

    /// bisync's `test_rmdirs`: a folder deleted here goes on the device with `--delete`, after
    /// what it held; without `--delete` it stays and is not made here again.
    @Test func deletedFolders() {
        let records = F.records([Self.synced("dir/a"), Self.synced("dir/sub/b"), Self.synced("keep")])
        let there = Snapshot([
            F.folder("dir"), F.folder("dir/sub"), F.listed("dir/a", 10, 600), F.listed("dir/sub/b", 10, 600),
            F.listed("keep", 10, 600),
        ])
        let here = Snapshot([F.local("keep", 10, 601)])
        let deleting = Self.planner(delete: true).plan(remote: there, local: here, records: records)
        #expect(
            F.kinds(deleting) == [
                "delete_remote dir/sub/b", "delete_remote dir/sub", "delete_remote dir/a", "delete_remote dir",
            ])
        let keeping = Self.planner().plan(remote: there, local: here, records: records)
        #expect(F.kinds(keeping).isEmpty)
    }

    /// A side that comes back empty where files were synced (a card not mounted, a listing cut
    /// short) deletes nothing on the other, with `--delete` too.
    @Test func anEmptySideDeletesNothing() {
        let records = F.records([Self.synced("a"), Self.synced("b")])
        let result = Self.planner(delete: true).plan(
            remote: Snapshot([F.listed("a", 10, 600), F.listed("b", 10, 600)]), local: Snapshot([]),
            records: records)
        #expect(F.kinds(result).isEmpty)
        #expect(result.plan.notes.contains { $0.contains("came back empty") })
    }

    /// New folders, empty or not, are made on the other side, parents first.
    @Test func newFoldersAreMadeOnTheOtherSide() {
        let result = Self.planner().plan(
            remote: Snapshot([F.folder("cam"), F.folder("cam/empty")]),
            local: Snapshot([F.folder("docs"), F.folder("docs/x"), F.local("docs/x/f", 1, 10)]), records: [:])
        #expect(
            F.kinds(result) == [
                "mkdir_local cam", "mkdir_local cam/empty", "mkdir_remote docs", "mkdir_remote docs/x",
                "upload docs/x/f",
            ])
    }

    /// A file on one side where the other has a folder: skipped whole, nothing below it synced.
    @Test func typeChangesAreSkipped() {
        let records = F.records([Self.synced("x")])
        let result = Self.planner(delete: true).plan(
            remote: Snapshot([F.listed("x", 10, 600)]), local: Snapshot([F.folder("x"), F.local("x/inner", 1, 10)]),
            records: records)
        #expect(F.kinds(result).isEmpty)
        #expect(result.plan.skipped.map(\.path) == ["x"])
    }

    /// A folder either side could not read in full is left alone whole, deletes and all.
    @Test func unknownFoldersAreLeftAlone() {
        let records = F.records([Self.synced("d/a"), Self.synced("e")])
        var there = Snapshot([F.folder("d")])
        there.unknown = [F.path("d")]
        let result = Self.planner(delete: true).plan(
            remote: there, local: Snapshot([F.folder("d"), F.local("d/a", 10, 601), F.local("d/new", 1, 1)]),
            records: records)
        #expect(F.kinds(result).isEmpty)
        #expect(result.forgotten.map(\.string) == ["e"])
    }

    /// Interrupted transfers resume where their bytes end, when the file did not change.
    @Test func interruptedTransfersResume() {
        let path = F.path("big")
        let result = Self.planner().plan(
            remote: Snapshot([F.listed("big", 100, 600)]), local: Snapshot([F.local("up", 50, 900)]), records: [:],
            downloads: [
                path: PartialTransfer(
                    path: path, remoteSize: 100, remoteModified: FileTime(seconds: 600, granularity: .minute),
                    bytesDone: 40)
            ],
            uploads: [
                F.path("up"): UploadPartial(
                    path: F.path("up"), localSize: 50, localModified: FileTime(seconds: 900, granularity: .exact),
                    bytesDone: 20)
            ])
        #expect(result.plan.actions.map(\.offset) == [40, 20])
        #expect(result.abandonedUploads.isEmpty)
    }

    /// A local file touched without a change (same digest) is not sent again, only recorded.
    @Test func touchedWithoutAChangeIsRecorded() {
        let records = F.records([Self.synced("f", 10, 600, digest: "d")])
        let result = Self.planner().plan(
            remote: Snapshot([F.listed("f", 10, 600)]), local: Snapshot([F.local("f", 10, 9_000, digest: "d")]),
            records: records)
        #expect(F.kinds(result).isEmpty)
        #expect(result.adoptions.count == 1)
    }
}
