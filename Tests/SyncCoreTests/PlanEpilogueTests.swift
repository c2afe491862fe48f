// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// The end both planners share (`PlanEpilogue`): take-back of moved new files, renames and
/// deletes worded per direction, the delete guard, forgotten records, the order.
@Suite struct PlanEpilogueTests {
    typealias F = Fixture

    /// An epilogue of `direction` over `source` and `destination` (both read in full).
    private func epilogue(
        _ direction: SyncDirection, source: [SnapshotEntry], destination: [SnapshotEntry],
        records: [RelativePath: FileRecord] = [:], delete: Bool = true, maxDelete: Int? = 50
    ) -> PlanEpilogue {
        let source = Snapshot(source)
        let destination = Snapshot(destination)
        return PlanEpilogue(
            policy: SyncPolicy(direction: direction, deleteExtraneous: delete, maxDelete: maxDelete),
            unknown: UnknownFolders(source: source, destination: destination), source: source,
            destination: destination, records: records)
    }

    private func upload(_ path: String) -> Action { Action(kind: .upload, path: F.path(path), reason: "new") }

    /// (new files as (path, transfer position, note position), moved-to paths, transfers and notes left).
    @Test(arguments: [
        ([("n1", 0, -1), ("n2", 1, -1)], ["n2"], ["t0"], ["note0"]),
        ([("n1", 0, -1), ("n2", 1, -1)], ["n1", "n2"], [], ["note0"]),
        ([("n1", -1, 0), ("n2", 0, -1)], ["n1"], ["t0", "t1"], []),
        ([("n1", 0, -1)], [], ["t0", "t1"], ["note0"]),
        ([("n1", 1, -1)], ["other"], ["t0", "t1"], ["note0"]),
    ])
    func takeBackDropsWhatWasPlannedForMovedNewFiles(
        newFiles: [(String, Int, Int)], movedTo: [String], transfers: [String], notes: [String]
    ) {
        var end = epilogue(.pull, source: [], destination: [])
        end.transfers = [upload("t0"), upload("t1")]
        end.notes = ["note0"]
        end.newFiles = newFiles.map { path, transfer, note in
            PlanEpilogue.NewFile(
                entry: F.listed(path, 1, 60), transfer: transfer < 0 ? nil : transfer, note: note < 0 ? nil : note)
        }
        end.takeBack(movedTo.map { DetectedRename(from: F.path("old"), to: F.path($0)) })
        #expect(end.transfers.map(\.path.string) == transfers)
        #expect(end.notes == notes)
    }

    /// Each direction words its renames and deletes as its planner did, the rename's source
    /// being the source side's entry at the new name.
    @Test(arguments: [
        (SyncDirection.pull, "rename_local", "moved on the device", "delete_local", "gone from the device"),
        (.push, "rename_remote", "moved here (same content)", "delete_remote", "gone from here"),
    ])
    func renamesAndDeletesAreWordedByDirection(
        direction: SyncDirection, rename: String, renameReason: String, delete: String, deleteReason: String
    ) {
        let moved = F.local("new", 5, 60)
        let end = epilogue(
            direction, source: [moved], destination: [F.local("old", 5, 60), F.local("extra", 1, 60)])
        let result = end.finish(gone: [], renames: [DetectedRename(from: F.path("old"), to: F.path("new"))])
        #expect(F.kinds(result) == ["\(rename) old -> new", "\(delete) extra"])
        #expect(result.plan.actions[0].reason == renameReason)
        #expect(result.plan.actions[0].source == moved)
        #expect(result.plan.actions[1].reason == deleteReason)
    }

    /// A destination file `--delete` would remove, by what it is: (direction, destination file
    /// recorded as synced and changed since, name, planned kinds, note fragment).
    @Test(arguments: [
        (SyncDirection.pull, false, "gone.txt", ["delete_local gone.txt"], ""),
        (.push, false, "gone.txt", ["delete_remote gone.txt"], ""),
        (.pull, false, "a.conflict-20240101T000000Z.txt", [], "a conflict copy here; kept"),
        (.push, false, "a.conflict-20240101T000000Z.txt", [], "a conflict copy on the device; kept"),
        // Changed on the destination since the last sync: the device has no trash, so a push
        // keeps it as a conflict; a pull's trash keeps the local version anyway.
        (.pull, true, "gone.txt", ["delete_local gone.txt"], ""),
        (.push, true, "gone.txt", ["conflict gone.txt"], ""),
    ])
    func deleteCandidatesPassTheGuardByDirection(
        direction: SyncDirection, changed: Bool, name: String, kinds: [String], note: String
    ) {
        let there = F.listed(name, 10, changed ? 120 : 60)
        var records: [RelativePath: FileRecord] = [:]
        if changed { records[there.path] = F.record(F.listed(name, 10, 60), F.local(name, 10, 60)) }
        let end = epilogue(direction, source: [F.local("kept", 1, 60)], destination: [there], records: records)
        let result = end.finish(gone: [], renames: [])
        #expect(F.kinds(result) == kinds)
        if note.isEmpty {
            #expect(result.plan.notes.isEmpty)
        } else {
            #expect(result.plan.notes.contains { $0.contains(note) }, "\(result.plan.notes)")
        }
    }

    /// A folder of the source that came back empty while files were synced below it is suspect:
    /// nothing below it is deleted, nor the destination folder holding what was kept.
    @Test(arguments: [SyncDirection.pull, .push])
    func aSuspectEmptyFolderKeepsEverythingBelowIt(direction: SyncDirection) {
        let file = F.listed("d/sub/f", 1, 60)
        let records = F.records([(file, F.local("d/sub/f", 1, 60))])
        let end = epilogue(
            direction, source: [F.folder("d")], destination: [F.folder("d"), F.folder("d/sub"), file],
            records: records)
        let result = end.finish(gone: [], renames: [])
        #expect(result.plan.actions.isEmpty, "\(F.kinds(result))")
        // One note for the folder, however much it keeps (a wiped device kept a note per file).
        #expect(
            result.plan.notes == [
                "'d' came back empty although files were synced there: 2 entries below it not deleted"
                    + " (use --max-delete -1 to allow)"
            ])
    }

    /// Without `--delete` nothing is deleted; the files gone from the source are noted once.
    @Test(arguments: [
        (SyncDirection.pull, "1 file gone from the device since the last sync, kept here (pull --delete"),
        (.push, "1 file no longer here since the last sync, kept on the device (push --delete"),
    ])
    func withoutDeleteTheGoneFilesAreNoted(direction: SyncDirection, note: String) {
        let gone = F.listed("g", 1, 60)
        let records = F.records([(gone, F.local("g", 1, 60))])
        let end = epilogue(direction, source: [], destination: [gone], records: records, delete: false)
        let result = end.finish(gone: [(gone.path, records[gone.path]!)], renames: [])
        #expect(result.plan.actions.isEmpty)
        #expect(result.plan.notes.count == 1)
        #expect(result.plan.notes.first?.hasPrefix(note) == true, "\(result.plan.notes)")
        // The record stays while the destination holds the file; it is forgotten once neither does.
        #expect(result.forgotten.isEmpty)
    }

    /// (recorded paths gone from the source, destination holds, forgotten).
    @Test(arguments: [
        (["a", "b"], ["a"], ["b"]),
        (["b", "a"], [], ["a", "b"]),
        (["a"], ["a"], []),
    ])
    func forgottenAreTheGonePathsTheDestinationLacksSorted(gone: [String], held: [String], forgotten: [String]) {
        let end = epilogue(
            .push, source: [], destination: held.map { F.listed($0, 1, 60) }, delete: false)
        let record = F.record(F.listed("x", 1, 60), F.local("x", 1, 60))
        let result = end.finish(gone: gone.map { (F.path($0), record) }, renames: [])
        #expect(result.forgotten.map(\.string) == forgotten)
    }

    /// What a type change clears goes as a whole: no separate delete for it or below it.
    @Test func whatATypeChangeClearsIsNoDeleteCandidate() {
        var end = epilogue(
            .push, source: [F.local("t", 1, 60)],
            destination: [F.folder("t"), F.listed("t/x", 1, 60), F.listed("other", 1, 60)])
        end.clearing = [
            Action(kind: .deleteRemote, path: F.path("t/x"), reason: "clear"),
            Action(kind: .deleteRemote, path: F.path("t"), reason: "clear"),
        ]
        let result = end.finish(gone: [], renames: [])
        #expect(F.kinds(result) == ["delete_remote t/x", "delete_remote t", "delete_remote other"])
    }

    /// The delete limit counts the clearing deletes with the others; the plan stays for the report.
    @Test(arguments: [(1, false), (2, true)])
    func theDeleteLimitCountsClearingDeletes(extraFiles: Int, refused: Bool) {
        var end = epilogue(
            .pull, source: [], destination: (0..<extraFiles).map { F.local("e\($0)", 1, 60) }, maxDelete: 2)
        end.clearing = [Action(kind: .deleteLocal, path: F.path("c"), reason: "clear")]
        let result = end.finish(gone: [], renames: [])
        #expect((result.refusal != nil) == refused, "\(String(describing: result.refusal))")
        #expect(result.plan.actions.count == extraFiles + 1)
    }

    /// Clearing first, folders by path, renames, transfers as given, deletes deepest first.
    @Test func actionsComeInThePlansOrder() {
        var end = epilogue(
            .pull, source: [F.listed("new", 2, 60)],
            destination: [F.folder("z"), F.local("z/deep", 1, 60), F.local("old", 2, 60)])
        end.clearing = [Action(kind: .conflict, path: F.path("c"), reason: "clear")]
        end.folders = [
            Action(kind: .mkdirLocal, path: F.path("m2"), reason: "new"),
            Action(kind: .mkdirLocal, path: F.path("m1"), reason: "new"),
        ]
        end.transfers = [upload("t2"), upload("t1")]
        let result = end.finish(gone: [], renames: [DetectedRename(from: F.path("old"), to: F.path("new"))])
        #expect(
            F.kinds(result) == [
                "conflict c", "mkdir_local m1", "mkdir_local m2", "rename_local old -> new", "upload t2", "upload t1",
                "delete_local z/deep", "delete_local z",
            ])
    }
}
