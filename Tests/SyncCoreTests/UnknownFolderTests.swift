// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// Issue 13 item 3: a folder one side could not read in full (`Snapshot.unknown`) is not a
/// deletion: nothing at or below it is deleted, renamed from or to, or overwritten, with any
/// `--max-delete`, with or without records.
@Suite struct UnknownFolderTests {
    typealias F = Fixture

    /// One plan: both sides (entries and unknown folders), the records, the policy, and the
    /// actions expected.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var direction: SyncDirection
        var remote: [SnapshotEntry]
        var remoteUnknown: [String] = []
        var local: [SnapshotEntry]
        var localUnknown: [String] = []
        /// Pairs (remote, local) last synced.
        var synced: [(SnapshotEntry, SnapshotEntry)] = []
        var delete = true
        var maxDelete: Int? = nil
        var expected: [String]

        var description: String { name }
    }

    static let digest = String(repeating: "ab", count: 16)
    static let keep = (F.listed("keep", 1, 60), F.local("keep", 1, 60))
    static let inside = (F.listed("d/x", 7, 60), F.local("d/x", 7, 60, digest: digest))

    static let cases: [Case] = [
        Case(
            name: "pull: a device folder that failed to list, no records, no delete limit",
            direction: .pull, remote: [F.folder("d"), keep.0], remoteUnknown: ["d"],
            local: [F.folder("d"), inside.1, keep.1], synced: [keep], expected: []),
        Case(
            name: "pull: a device folder that failed to list, with records, limit 50",
            direction: .pull, remote: [F.folder("d"), keep.0], remoteUnknown: ["d"],
            local: [F.folder("d"), inside.1, keep.1], synced: [keep, inside], maxDelete: 50, expected: []),
        Case(
            name: "pull: a truncated root listing deletes nothing",
            direction: .pull, remote: [keep.0], remoteUnknown: [""], local: [keep.1, F.local("other", 3, 60)],
            synced: [keep], expected: []),
        Case(
            name: "pull: a record in an unlisted folder is no rename source",
            direction: .pull, remote: [F.folder("d"), F.listed("moved", 7, 60)], remoteUnknown: ["d"],
            local: [F.folder("d"), inside.1], synced: [inside], delete: false, expected: ["download moved"]),
        Case(
            name: "pull: nothing is downloaded into an unreadable local folder",
            direction: .pull, remote: [F.folder("d"), inside.0, keep.0], local: [F.folder("d"), keep.1],
            localUnknown: ["d"], synced: [keep], expected: []),
        Case(
            name: "pull: an unreadable local folder gone from the device is not deleted",
            direction: .pull, remote: [keep.0], local: [F.folder("d"), keep.1], localUnknown: ["d"],
            synced: [keep], expected: []),
        Case(
            name: "pull: the folder above an unreadable one is not deleted either",
            direction: .pull, remote: [keep.0], local: [F.folder("p"), F.folder("p/d"), keep.1],
            localUnknown: ["p/d"], synced: [keep], expected: []),
        Case(
            name: "push: an unreadable local folder, no records, no delete limit",
            direction: .push, remote: [F.folder("d"), inside.0, keep.0], local: [F.folder("d"), keep.1],
            localUnknown: ["d"], synced: [keep], expected: []),
        Case(
            name: "push: an unreadable local folder, with records, no delete limit",
            direction: .push, remote: [F.folder("d"), inside.0, keep.0], local: [F.folder("d"), keep.1],
            localUnknown: ["d"], synced: [keep, inside], expected: []),
        Case(
            name: "push: a local file that cannot be examined is not deleted on the device",
            direction: .push, remote: [F.listed("f", 5, 60), keep.0], local: [keep.1], localUnknown: ["f"],
            synced: [keep], expected: []),
        Case(
            name: "push: nothing is uploaded into a device folder that failed to list",
            direction: .push, remote: [F.folder("d"), keep.0], remoteUnknown: ["d"],
            local: [F.folder("d"), inside.1, keep.1], synced: [keep], expected: []),
        Case(
            name: "push: a file a truncated listing showed is still compared; one it did not show is not sent",
            direction: .push, remote: [F.folder("d"), inside.0], remoteUnknown: ["d"],
            local: [F.folder("d"), F.local("d/new", 4, 90), F.local("d/x", 9, 120)], synced: [inside],
            expected: ["upload d/x"]),
        Case(
            name: "push: a record in an unreadable local folder is no rename source",
            direction: .push, remote: [F.folder("d"), inside.0],
            local: [F.folder("d"), F.local("y", 7, 60, digest: digest)],
            localUnknown: ["d"], synced: [inside], delete: false, expected: ["upload y"]),
        Case(
            name: "push: no rename into a device folder that failed to list",
            direction: .push, remote: [F.folder("d"), F.listed("z", 7, 60)], remoteUnknown: ["d"],
            local: [F.folder("d"), F.local("d/y", 7, 60, digest: digest)],
            synced: [(F.listed("z", 7, 60), F.local("z", 7, 60, digest: digest))], delete: false, expected: []),
    ]

    @Test(arguments: cases)
    func nothingInAnUnknownFolderIsDeletedRenamedOrOverwritten(_ test: Case) {
        let remote = Snapshot(test.remote, unknown: Set(test.remoteUnknown.map(F.path)))
        let local = Snapshot(test.local, unknown: Set(test.localUnknown.map(F.path)))
        let records = F.records(test.synced)
        let policy = SyncPolicy(direction: test.direction, deleteExtraneous: test.delete, maxDelete: test.maxDelete)
        let result =
            test.direction == .pull
            ? PullPlanner(policy: policy).plan(remote: remote, local: local, records: records, partials: [:])
            : PushPlanner(policy: policy).plan(local: local, remote: remote, records: records, partials: [:])
        #expect(F.kinds(result) == test.expected, "\(test.name)")
        #expect(result.refusal == nil)
        // Records in an unknown folder are kept: the next full listing decides.
        let unknown = test.remoteUnknown + test.localUnknown
        #expect(!result.forgotten.contains { path in unknown.contains { path.string.hasPrefix($0) } })
        // Each unknown folder is named in a note.
        for folder in unknown {
            let shown = folder.isEmpty ? "the device root" : "'\(folder)'"
            #expect(result.plan.notes.contains { $0.hasPrefix("\(shown): content") }, "\(result.plan.notes)")
        }
    }

    /// The same snapshots without unknown folders plan the deletes, renames and transfers the
    /// cases above rule out (what happened before).
    @Test func withoutUnknownFoldersTheSamePlansDeleteAndOverwrite() {
        let test = Self.cases[0]
        let result = PullPlanner(policy: SyncPolicy(direction: .pull, deleteExtraneous: true, maxDelete: nil)).plan(
            remote: Snapshot(test.remote), local: Snapshot(test.local), records: F.records(test.synced),
            partials: [:])
        #expect(F.kinds(result) == ["delete_local d/x"])
    }
}
