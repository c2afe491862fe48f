// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

private func path(_ s: String) -> RelativePath { try! RelativePath(validating: s) }
private func minute(_ s: Double) -> FileTime { FileTime(seconds: s, granularity: .minute) }
private func exact(_ s: Double) -> FileTime { FileTime(seconds: s, granularity: .exact) }

private func remoteFile(_ p: String, _ size: UInt64, _ t: Double) -> SnapshotEntry {
    SnapshotEntry(path: path(p), kind: .file, size: size, modified: minute(t))
}
private func localFile(_ p: String, _ size: UInt64, _ t: Double) -> SnapshotEntry {
    SnapshotEntry(path: path(p), kind: .file, size: size, modified: exact(t))
}
private func record(_ p: String, _ size: UInt64, remote: Double, local: Double) -> FileRecord {
    FileRecord(
        path: path(p), remoteSize: size, remoteModified: minute(remote), localSize: size,
        localModified: exact(local), digest: nil)
}

@Suite struct PullPlannerTests {
    let planner = PullPlanner(policy: SyncPolicy(direction: .pull))

    @Test func newFilesAndFoldersAreDownloadedFoldersFirst() {
        let remote = Snapshot([
            remoteFile("b/x.bin", 10, 600), SnapshotEntry(path: path("b"), kind: .directory),
            remoteFile("a.txt", 3, 60), SnapshotEntry(path: path("empty"), kind: .directory),
        ])
        let result = planner.plan(remote: remote, local: Snapshot([]), records: [:], partials: [:])
        #expect(result.plan.actions.map(\.kind) == [.mkdirLocal, .mkdirLocal, .download, .download])
        #expect(result.plan.actions.map(\.path.string) == ["b", "empty", "a.txt", "b/x.bin"])
        #expect(result.plan.actions[3].bytes == 10)
    }

    /// (remote changed, local changed) → what the planner does.
    @Test(arguments: [
        (600.0, 1000.0, 10 as UInt64, [ActionKind]()),  // nothing changed
        (660.0, 1000.0, 10, [.download]),  // device changed
        (600.0, 2000.0, 11, []),  // changed here only: kept, noted
        (660.0, 2000.0, 11, [.conflict, .download]),  // both changed
    ])
    func recordDecidesWhatChanged(remoteTime: Double, localTime: Double, localSize: UInt64, expected: [ActionKind]) {
        let remote = Snapshot([remoteFile("f", 10, remoteTime)])
        let local = Snapshot([localFile("f", localSize, localTime)])
        let records = [path("f"): record("f", 10, remote: 600, local: 1000)]
        let result = planner.plan(remote: remote, local: local, records: records, partials: [:])
        #expect(result.plan.actions.map(\.kind) == expected)
    }

    @Test func listingPrecisionNeverCausesATransfer() {
        // The record holds the minute the listing gave; the same minute listed again is unchanged,
        // whatever the seconds of the local copy.
        let remote = Snapshot([remoteFile("f", 10, 600)])
        let local = Snapshot([localFile("f", 10, 600)])
        let records = [path("f"): record("f", 10, remote: 600, local: 600)]
        #expect(planner.plan(remote: remote, local: local, records: records, partials: [:]).plan.actions.isEmpty)
    }

    /// A size the device gives only sometimes (a rough `12.5M` that SIZE confirms on one run and
    /// not on the next): an unknown size on either side is no change; the time decides.
    @Test(arguments: [
        (nil as UInt64?, 10 as UInt64?, 600.0, [ActionKind]()),  // known at the last sync, unknown now
        (10, nil, 600, []),  // unknown at the last sync, known now
        (nil, 10, 660, [.download]),  // unknown now, and the time moved
        (11, 10, 600, [.download]),  // both known and different
    ])
    func anUnknownSizeIsNoChange(listed: UInt64?, recorded: UInt64?, remoteTime: Double, expected: [ActionKind]) {
        let remote = Snapshot([SnapshotEntry(path: path("f"), kind: .file, size: listed, modified: minute(remoteTime))])
        let local = Snapshot([localFile("f", 10, 1000)])
        let records = [
            path("f"): FileRecord(
                path: path("f"), remoteSize: recorded, remoteModified: minute(600), localSize: 10,
                localModified: exact(1000), digest: nil)
        ]
        let result = planner.plan(remote: remote, local: local, records: records, partials: [:])
        #expect(result.plan.actions.map(\.kind) == expected)
    }

    @Test func withoutARecordEqualSizeAndTimeAreAdopted() {
        let remote = Snapshot([remoteFile("f", 10, 600)])
        let local = Snapshot([localFile("f", 10, 630)])  // within the listed minute
        let result = planner.plan(remote: remote, local: local, records: [:], partials: [:])
        #expect(result.plan.actions.isEmpty)
        #expect(result.adoptions.count == 1)
    }

    @Test func withoutARecordADifferentLocalFileIsKeptAsConflict() {
        let remote = Snapshot([remoteFile("f", 10, 600)])
        let local = Snapshot([localFile("f", 12, 900)])
        let result = planner.plan(remote: remote, local: local, records: [:], partials: [:])
        #expect(result.plan.actions.map(\.kind) == [.conflict, .download])
    }

    @Test(arguments: [
        (10 as UInt64, 600.0, 4 as UInt64, 4 as UInt64),  // matching partial: resume
        (10, 660.0, 4, 0),  // remote time changed since: start over
        (11, 600.0, 4, 0),  // remote size changed: start over
        (10, 600.0, 12, 0),  // more bytes than the file: start over
    ])
    func partialsResumeOnlyWhenTheRemoteFileIsUnchanged(
        partialSize: UInt64, partialTime: Double, done: UInt64, offset: UInt64
    ) {
        let remote = Snapshot([remoteFile("f", 10, 600)])
        let partial = PartialTransfer(
            path: path("f"), remoteSize: partialSize, remoteModified: minute(partialTime), bytesDone: done)
        let result = planner.plan(remote: remote, local: Snapshot([]), records: [:], partials: [path("f"): partial])
        #expect(result.plan.actions.first?.offset == offset)
        #expect(result.plan.actions.first?.bytes == 10 - offset)
    }

    @Test func linksAndDevicesAreNotedNotTransferred() {
        let remote = Snapshot([
            SnapshotEntry(path: path("l"), kind: .symlink), SnapshotEntry(path: path("d"), kind: .other),
        ])
        let result = planner.plan(remote: remote, local: Snapshot([]), records: [:], partials: [:])
        #expect(result.plan.actions.isEmpty)
        #expect(result.plan.notes.count == 2)
    }

    @Test func planningAgainAfterAPullGivesAnEmptyPlan() {
        let remote = Snapshot([
            SnapshotEntry(path: path("d"), kind: .directory), remoteFile("d/a", 5, 120), remoteFile("b", 7, 180),
        ])
        let first = planner.plan(remote: remote, local: Snapshot([]), records: [:], partials: [:])
        // Apply: every download lands with the listed time; every folder exists.
        var local: [SnapshotEntry] = []
        var records: [RelativePath: FileRecord] = [:]
        for action in first.plan.actions {
            if action.kind == .mkdirLocal { local.append(SnapshotEntry(path: action.path, kind: .directory)) }
            if action.kind == .download, let s = action.source, let t = s.modified {
                local.append(localFile(action.path.string, s.size!, t.seconds))
                records[action.path] = record(action.path.string, s.size!, remote: t.seconds, local: t.seconds)
            }
        }
        let again = planner.plan(remote: remote, local: Snapshot(local), records: records, partials: [:])
        #expect(again.plan.actions.isEmpty)
        #expect(again.plan.unchanged == 2)
    }
}

@Suite struct RelativePathTests {
    @Test(arguments: ["..", ".", "a/../b", "/etc/x", "a//b", "a/\0b", "../escape.txt"])
    func unsafePathsAreRefused(_ text: String) {
        #expect(throws: RelativePath.Invalid.self) { try RelativePath(validating: text) }
    }

    @Test func orderPutsAFolderBeforeItsContent() {
        let sorted = ["a b", "a/z", "a", "a.txt", "B"].map(path).sorted()
        #expect(sorted.map(\.string) == ["B", "a", "a/z", "a b", "a.txt"])
    }
}

@Suite struct PullPlannerSafetyTests {
    // A local file there is a type change (`TypeChangePlanTests`).
    @Test(arguments: [EntryKind.symlink, .other])
    func nothingIsPlannedBelowALocalNameThatIsNotAFolder(kind: EntryKind) {
        let remote = Snapshot([
            SnapshotEntry(path: path("sub"), kind: .directory),
            SnapshotEntry(path: path("sub/deeper"), kind: .directory),
            remoteFile("sub/planted.txt", 5, 60), remoteFile("sub/deeper/x", 5, 60), remoteFile("ok.txt", 5, 60),
        ])
        let local = Snapshot([SnapshotEntry(path: path("sub"), kind: kind, size: kind == .file ? 3 : nil)])
        let result = PullPlanner(policy: SyncPolicy(direction: .pull)).plan(
            remote: remote, local: local, records: [:], partials: [:])
        #expect(result.plan.actions.map(\.path.string) == ["ok.txt"])
        #expect(result.plan.skipped.map(\.line).contains { $0.hasPrefix("sub: a \(kind.rawValue) here") })
    }
}

@Suite struct MinimumAgeTests {
    @Test(arguments: [(0.0, 1), (300.0, 0), (30.0, 1)])
    func filesStillBeingWrittenWaitForALaterRun(minimumAge: Double, downloads: Int) {
        // The file was modified 60 s before now.
        let policy = SyncPolicy(direction: .pull, minimumAge: minimumAge, now: Date(timeIntervalSince1970: 1060))
        let result = PullPlanner(policy: policy).plan(
            remote: Snapshot([remoteFile("clip.mp4", 5, 1000)]), local: Snapshot([]), records: [:], partials: [:])
        #expect(result.plan.count(.download) == downloads)
    }
}

/// Issue 13 item 10: `NAME.ftpsync-copy` (what 0.1.0 left, and could push to a device) is never
/// synced either way: not downloaded, not deleted, not taken for a file of the user.
@Suite struct LeftoverPlanningTests {
    @Test func aLeftoverOnTheDeviceIsNeitherPulledNorDeletedByPush() {
        let remote = Snapshot([
            remoteFile("DCIM/a.jpg", 10, 600), remoteFile("DCIM/a.jpg.ftpsync-copy", 4, 600),
            SnapshotEntry(path: path("DCIM"), kind: .directory),
        ])
        let pull = PullPlanner(policy: SyncPolicy(direction: .pull))
            .plan(remote: remote, local: Snapshot([]), records: [:], partials: [:])
        #expect(pull.plan.actions.map(\.path.string) == ["DCIM", "DCIM/a.jpg"])
        var policy = SyncPolicy(direction: .push)
        policy.deleteExtraneous = true
        let local = Snapshot([
            SnapshotEntry(path: path("DCIM"), kind: .directory), localFile("DCIM/a.jpg", 10, 1000),
        ])
        let push = PushPlanner(policy: policy).plan(local: local, remote: remote, records: [:], partials: [:])
        #expect(!push.plan.actions.contains { $0.path.string.hasSuffix(".ftpsync-copy") }, "\(push.plan.actions)")
    }

    @Test(arguments: [
        ("a.jpg.ftpsync-copy", true), (".ftpsync-copy", false), ("a.jpg", false), ("copy", false),
        ("a.ftpsync-copy.jpg", false),
    ])
    func leftoverNames(name: String, leftover: Bool) {
        #expect(LeftoverNaming.isLeftover(name: name) == leftover)
        #expect(LeftoverNaming.isLeftover(path(name)) == leftover)
    }
}
