// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@Suite struct PushPlannerTests {
    typealias F = Fixture
    let planner = PushPlanner(policy: SyncPolicy(direction: .push))
    let deleting = PushPlanner(policy: SyncPolicy(direction: .push, deleteExtraneous: true))

    @Test func newFilesAndEmptyFoldersGoUpFoldersFirst() {
        let local = Snapshot([
            F.local("b/x.bin", 10, 600), F.folder("b"), F.local("a.txt", 3, 60), F.folder("empty"),
        ])
        let result = planner.plan(local: local, remote: Snapshot([]), records: [:], partials: [:])
        #expect(F.kinds(result) == ["mkdir_remote b", "mkdir_remote empty", "upload a.txt", "upload b/x.bin"])
        #expect(result.plan.actions[3].bytes == 10)
        #expect(result.refusal == nil)
    }

    /// (device time, local time, local size) against a record of (10 bytes, 600 listed, 1000 local).
    @Test(arguments: [
        (600.0, 1000.0, 10 as UInt64, [String]()),  // nothing changed
        (630.0, 1000.0, 10, []),  // listed time within the same minute
        (600.0, 2000.0, 11, ["upload f"]),  // changed here
        (660.0, 1000.0, 10, ["conflict f"]),  // changed on the device: never overwritten
        (660.0, 2000.0, 11, ["conflict f"]),  // changed on both sides
    ])
    func eachSideIsComparedWithItsRecord(remoteTime: Double, localTime: Double, localSize: UInt64, expected: [String]) {
        let records = F.records([(F.listed("f", 10, 600), F.local("f", 10, 1000))])
        let result = planner.plan(
            local: Snapshot([F.local("f", localSize, localTime)]), remote: Snapshot([F.listed("f", 10, remoteTime)]),
            records: records, partials: [:])
        #expect(F.kinds(result) == expected)
    }

    /// Without a record (state deleted or corrupt): same size and time within the listing's
    /// minute adopt; a pair that differs is a conflict, never an overwrite (issue 13 item 4).
    @Test(arguments: [
        (10 as UInt64, 1_000.0, 1_020.0, true),
        (10, 1_000.0, 1_100.0, false),
        (11, 1_000.0, 1_000.0, false),
        (9, 5_000.0, 1_000.0, false),  // the device's copy is newer
        (10, 1_000.0, 5_000.0, false),  // the local copy is newer: still nothing says so
    ])
    func noRecordAdoptsEqualPairsAndNeverOverwritesOthers(
        remoteSize: UInt64, remoteTime: Double, localTime: Double, adopted: Bool
    ) {
        let result = planner.plan(
            local: Snapshot([F.local("f", 10, localTime)]), remote: Snapshot([F.listed("f", remoteSize, remoteTime)]),
            records: [:], partials: [:])
        #expect(result.adoptions.count == (adopted ? 1 : 0))
        #expect(F.kinds(result) == (adopted ? [] : ["conflict f"]))
        if !adopted {
            #expect(result.plan.actions.first?.reason.contains("not overwritten") == true)
            #expect(result.plan.count(.upload) == 0)
        }
    }

    /// A file with no record that the device does not have is still uploaded, interrupted or not.
    @Test func noRecordAndAbsentOnTheDeviceIsAnUpload() {
        let result = planner.plan(
            local: Snapshot([F.local("f", 10, 1_000)]), remote: Snapshot([]), records: [:], partials: [:])
        #expect(F.kinds(result) == ["upload f"])
    }

    @Test func touchedFileWithTheSameDigestIsAdoptedNotUploaded() {
        let records = F.records([(F.listed("f", 10, 600), F.local("f", 10, 1000, digest: "d1"))])
        let result = planner.plan(
            local: Snapshot([F.local("f", 10, 5000, digest: "d1")]), remote: Snapshot([F.listed("f", 10, 600)]),
            records: records, partials: [:])
        #expect(F.kinds(result).isEmpty)
        #expect(result.adoptions.map(\.local.path.string) == ["f"])
    }

    @Test func localMoveBecomesARemoteRenameWithItsFolder() {
        let old = (F.listed("old/a.bin", 2_000_000, 600), F.local("old/a.bin", 2_000_000, 1000, digest: "aa"))
        let result = planner.plan(
            local: Snapshot([F.folder("new"), F.local("new/a.bin", 2_000_000, 1000, digest: "aa"), F.folder("old")]),
            remote: Snapshot([F.folder("old"), old.0]), records: F.records([old]), partials: [:])
        #expect(F.kinds(result) == ["mkdir_remote new", "rename_remote old/a.bin -> new/a.bin"])
    }

    @Test func aMoveToADifferentContentIsAnUpload() {
        let old = (F.listed("a.bin", 5, 600), F.local("a.bin", 5, 1000, digest: "aa"))
        let result = planner.plan(
            local: Snapshot([F.local("b.bin", 5, 1000, digest: "bb")]), remote: Snapshot([old.0]),
            records: F.records([old]), partials: [:])
        #expect(F.kinds(result) == ["upload b.bin"])
    }

    @Test func deletesOnlyWithDeleteDeepestFirstAndChangedDeviceFilesKept() {
        let kept = (F.listed("keep.txt", 1, 60), F.local("keep.txt", 1, 100))
        let gone = (F.listed("d/sub/x", 1, 60), F.local("d/sub/x", 1, 100))
        let changed = (F.listed("d/y", 1, 60), F.local("d/y", 1, 100))
        let remote = Snapshot([
            kept.0, F.folder("d"), F.folder("d/sub"), gone.0, F.listed("d/y", 2, 120),
        ])
        let local = Snapshot([kept.1])
        let records = F.records([kept, gone, changed])
        #expect(F.kinds(planner.plan(local: local, remote: remote, records: records, partials: [:])).isEmpty)
        let result = deleting.plan(local: local, remote: remote, records: records, partials: [:])
        #expect(
            F.kinds(result) == ["conflict d/y", "delete_remote d/sub/x", "delete_remote d/sub"])
    }

    @Test func resumesAnUploadOnlyWhenTheLocalFileIsAsItWas() {
        let file = F.local("big", 100, 1000)
        let same = UploadPartial(
            path: file.path, localSize: 100, localModified: FileTime(seconds: 1000, granularity: .exact), bytesDone: 40)
        var moved = same
        moved.localModified = FileTime(seconds: 1500, granularity: .exact)
        for (partial, offset) in [(same, 40 as UInt64), (moved, 0)] {
            let result = planner.plan(
                local: Snapshot([file]), remote: Snapshot([]), records: [:], partials: [file.path: partial])
            #expect(result.plan.actions.first?.offset == offset)
            #expect(result.plan.actions.first?.bytes == 100 - offset)
        }
    }

    @Test func uploadTemporariesOnTheDeviceAreNeverSyncedOrDeleted() {
        let result = deleting.plan(
            local: Snapshot([]), remote: Snapshot([F.listed(".a.bin.ftpsync-part", 4, 60)]), records: [:],
            partials: [:])
        #expect(F.kinds(result).isEmpty)
    }
}

@Suite struct UploadNamingTests {
    @Test(arguments: [
        ("a.jpg", ".a.jpg.ftpsync-part"), ("DCIM/2024/clip.mp4", "DCIM/2024/.clip.mp4.ftpsync-part"),
    ])
    func temporaryNameIsBesideTheTarget(target: String, temporary: String) {
        let path = UploadNaming.temporaryPath(for: Fixture.path(target))
        #expect(path.string == temporary)
        #expect(UploadNaming.isTemporary(path))
        #expect(!UploadNaming.isTemporary(Fixture.path(target)))
    }

    @Test(arguments: [".ftpsync-part", "a.ftpsync-part", "..ftpsync-part"])
    func namesThatAreNotUploadTemporaries(name: String) {
        #expect(!UploadNaming.isTemporary(Fixture.path(name)))
    }

    /// A name of 242 bytes or more (legal: 255 is the limit) got a temporary past 255 bytes,
    /// which servers refuse ("550 File name too long"): the push of it failed on every run.
    @Test(arguments: [241, 242, 244, 255])
    func aLongNamesTemporaryFitsAName(length: Int) {
        let ascii = String(repeating: "y", count: length - 4) + ".txt"
        // 2-byte and 4-byte scalars across the cut: the UTF-8 stays valid.
        let accented = String(repeating: "\u{e9}", count: (length - 4) / 2) + ".txt"
        let emoji = String(repeating: "\u{1F4F7}", count: (length - 4) / 4) + ".txt"
        for name in [ascii, accented, emoji] {
            let temporary = UploadNaming.temporaryName(for: name)
            #expect(temporary.utf8.count <= UploadNaming.nameMax, "\(temporary.utf8.count)")
            #expect(UploadNaming.isTemporary(Fixture.path("d/" + temporary)))
            #expect(temporary == UploadNaming.temporaryName(for: name))
            if ("." + name + UploadNaming.suffix).utf8.count <= 255 {
                #expect(temporary == "." + name + UploadNaming.suffix)
            }
        }
        // Two long names alike but for their end get two temporaries.
        #expect(UploadNaming.temporaryName(for: ascii + "a") != UploadNaming.temporaryName(for: ascii + "b"))
    }
}
