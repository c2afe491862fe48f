// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

private func path(_ s: String) -> RelativePath { try! RelativePath(validating: s) }
private func minute(_ s: Double) -> FileTime { FileTime(seconds: s, granularity: .minute) }
private func exact(_ s: Double) -> FileTime { FileTime(seconds: s, granularity: .exact) }
private func folder(_ p: String) -> SnapshotEntry { SnapshotEntry(path: path(p), kind: .directory) }
private func remoteFile(_ p: String, _ size: UInt64 = 10, _ t: Double = 600) -> SnapshotEntry {
    SnapshotEntry(path: path(p), kind: .file, size: size, modified: minute(t))
}
private func localFile(_ p: String, _ size: UInt64 = 10, _ t: Double = 1000) -> SnapshotEntry {
    SnapshotEntry(path: path(p), kind: .file, size: size, modified: exact(t))
}
private func record(_ p: String, offloaded: Bool = false) -> FileRecord {
    var record = FileRecord(
        path: path(p), remoteSize: 10, remoteModified: minute(600), localSize: 10, localModified: exact(1000),
        digest: nil)
    record.offloaded = offloaded
    return record
}

/// What `--remove-source` plans (`Offload`), by the whole-tree planner and the folder walk alike.
@Suite struct OffloadPlanTests {
    static func policy(removeSource: Bool = true, folders: Bool = false, delete: Bool = false) -> SyncPolicy {
        var policy = SyncPolicy(
            direction: .pull, deleteExtraneous: delete, minimumAge: 300, now: Date(timeIntervalSince1970: 10_000))
        policy.removeSource = removeSource
        policy.removeSourceFolders = folders
        return policy
    }

    /// The actions of both planners (they must agree) and the whole-tree result.
    static func plans(
        _ remote: [SnapshotEntry], _ local: [SnapshotEntry], _ records: [FileRecord], policy: SyncPolicy,
        leftOut: Set<RelativePath> = []
    ) throws -> (actions: [Action], result: PlanResult, walked: [Action]) {
        var (remote, local) = (Snapshot(remote), Snapshot(local))
        remote.leftOut = leftOut
        let table = Dictionary(uniqueKeysWithValues: records.map { ($0.path, $0) })
        let result = PullPlanner(policy: policy).plan(remote: remote, local: local, records: table, partials: [:])
        let writer = SectionWriter()
        let source = SnapshotWalkSource(remote: remote, local: local, records: table) { _ in false }
        let walk = PullWalk(policy: policy, partials: [:], source: source, writer: writer)
        _ = try walk.run()
        return (result.plan.actions, result, writer.actions)
    }

    static func offloaded(_ actions: [Action]) -> [String] {
        actions.filter { $0.kind == .deleteRemote }.map(\.path.string).sorted()
    }

    @Test func downloadsAndFilesInSyncAreOffloadedWhatIsHeldBackIsNot() throws {
        let remote = [
            remoteFile("new.jpg"),  // downloaded now
            remoteFile("synced.jpg"),  // in sync since an earlier run
            remoteFile("young.jpg", 10, 9_900),  // younger than min_age
            remoteFile("changed-here.jpg"),  // the local copy changed since the last sync
            remoteFile("both.jpg", 10, 660),  // changed on both sides: a conflict
            remoteFile("differs.jpg"),  // no record, the local file differs: a conflict
            remoteFile("same.jpg"),  // no record, same size and time: adopted, not yet offloaded
            SnapshotEntry(path: path("nosize.jpg"), kind: .file, size: nil, modified: minute(600)),
            remoteFile("was-folder"),  // a folder here: a type change
        ]
        let local = [
            localFile("synced.jpg"), localFile("changed-here.jpg", 11, 2000), localFile("both.jpg", 11, 2000),
            localFile("differs.jpg", 12),
            SnapshotEntry(path: path("same.jpg"), kind: .file, size: 10, modified: minute(600)),
            folder("was-folder"),
        ]
        let records = [record("synced.jpg"), record("changed-here.jpg"), record("both.jpg")]
        let (actions, result, walked) = try Self.plans(remote, local, records, policy: Self.policy())
        #expect(Self.offloaded(actions) == ["new.jpg", "synced.jpg"])
        #expect(Self.offloaded(walked) == ["new.jpg", "synced.jpg"])
        // Found by a first user: a conflict's device file stayed without a word.
        let held = result.plan.notes.filter { $0.contains(": not offloaded, ") }
        #expect(held.count == 3, "\(result.plan.notes)")
        #expect(actions.last?.kind == .deleteRemote)
        // Without the option nothing of the device is deleted.
        let plain = try Self.plans(remote, local, records, policy: Self.policy(removeSource: false))
        #expect(Self.offloaded(plain.actions).isEmpty && Self.offloaded(plain.walked).isEmpty)
    }

    /// Found by a breaker: the dry run planned removing `d`, which held a file `--exclude`
    /// left out (and the real run's RMD failed). A folder that keeps something on the device —
    /// a file left out, a file not offloaded (a conflict), and the folders above it — is not
    /// planned for removal; one the offload empties is.
    @Test func onlyFoldersTheOffloadEmptiesAreRemoved() throws {
        let remote = [
            folder("d"), remoteFile("d/a.jpg"),  // d also holds z.tmp, left out
            folder("e"), folder("e/f"), remoteFile("e/f/b.jpg"), remoteFile("e/f/both.jpg", 10, 660),
            folder("g"), folder("g/h"), remoteFile("g/h/c.jpg"),
        ]
        let local = [folder("e"), folder("e/f"), localFile("e/f/both.jpg", 11, 2000)]
        let records = [record("e/f/both.jpg")]
        let (actions, _, walked) = try Self.plans(
            remote, local, records, policy: Self.policy(folders: true), leftOut: [path("d/z.tmp")])
        let folders = { (actions: [Action]) in
            actions.filter { $0.kind == .deleteRemote && $0.source?.kind == .directory }.map(\.path.string)
        }
        #expect(folders(actions) == ["g/h", "g"])
        #expect(folders(walked) == ["g/h", "g"], "\(walked.map { "\($0.kind.rawValue) \($0.path)" })")
        #expect(Self.offloaded(actions).filter { $0.hasSuffix(".jpg") } == ["d/a.jpg", "e/f/b.jpg", "g/h/c.jpg"])
    }

    @Test func aPushNeverOffloads() throws {
        var policy = Self.policy()
        policy.direction = .push
        let result = PushPlanner(policy: policy).plan(
            local: Snapshot([localFile("a.jpg")]), remote: Snapshot([]), records: [:], partials: [:])
        #expect(Self.offloaded(result.plan.actions).isEmpty)
    }

    /// Never lose a file: an offloaded file's local copy is the only one left; `pull --delete`
    /// must not delete it, nor the folder holding it, in this run or any later one.
    @Test func pullDeleteNeverDeletesTheCopyOfAnOffloadedFile() throws {
        // The device still has a file (an empty root would make every delete suspect).
        let remote = [remoteFile("new.jpg")]
        let local = [folder("DCIM"), localFile("DCIM/1.jpg"), localFile("DCIM/2.jpg"), localFile("gone.jpg")]
        let records = [
            record("DCIM/1.jpg", offloaded: true), record("DCIM/2.jpg", offloaded: true), record("gone.jpg"),
        ]
        for removeSource in [false, true] {
            let policy = Self.policy(removeSource: removeSource, delete: true)
            let (actions, result, walked) = try Self.plans(remote, local, records, policy: policy)
            // Only the file that left the device on its own goes (to the trash).
            #expect(actions.filter { $0.kind == .deleteLocal }.map(\.path.string) == ["gone.jpg"])
            #expect(walked.filter { $0.kind == .deleteLocal }.map(\.path.string) == ["gone.jpg"])
            #expect(!result.plan.notes.contains { $0.contains("since the last sync") })
        }
        // Without --delete no note counts them as gone from the device.
        let kept = try Self.plans(remote, local, records, policy: Self.policy(removeSource: false))
        #expect(kept.result.plan.notes.contains { $0.hasPrefix("1 file gone from the device") })
    }

    @Test func aFileThatAppearsAgainAtAnOffloadedPathIsANewFile() throws {
        // A camera that numbers from 1 again: the old copy here differs, it is kept (keep-both).
        let remote = [remoteFile("1.jpg", 20, 5_000)]
        let local = [localFile("1.jpg")]
        let (actions, _, walked) = try Self.plans(
            remote, local, [record("1.jpg", offloaded: true)], policy: Self.policy())
        #expect(actions.map(\.kind) == [.conflict, .download])
        #expect(walked.map(\.kind) == [.conflict, .download])
    }

    @Test func offloadedRecordsDoNotMakeTheDeviceLookSwapped() {
        let records = Dictionary(
            uniqueKeysWithValues: (0..<30).map { (path("old\($0).jpg"), record("old\($0).jpg", offloaded: true)) })
        let overlap = ListingOverlap(remote: Snapshot([remoteFile("new.jpg")]), records: records)
        #expect(overlap.records == 0)
    }

    @Test func theFoldersOptionPlansTheFoldersAboveOffloadsDeepestFirst() throws {
        let remote = [
            folder("DCIM"), folder("DCIM/100"), remoteFile("DCIM/100/a.jpg"), folder("empty"), remoteFile("top.jpg"),
        ]
        let (actions, _, walked) = try Self.plans(remote, [], [], policy: Self.policy(folders: true))
        let folders = actions.filter { $0.kind == .deleteRemote && $0.source?.kind == .directory }.map(\.path.string)
        #expect(folders == ["DCIM/100", "DCIM"])
        let walkedFolders = walked.filter { $0.kind == .deleteRemote && $0.source?.kind == .directory }
        #expect(walkedFolders.map(\.path.string) == ["DCIM/100", "DCIM"])
        #expect(walked.last?.path.string == "DCIM" && actions.last?.path.string == "DCIM")
    }

    /// The automatic limit does not count offloads; a `--max-delete` given does.
    @Test func onlyAnExplicitMaxDeleteCountsOffloads() throws {
        let remote = (0..<60).map { remoteFile("f\($0).jpg") }
        var policy = Self.policy()
        #expect(try Self.plans(remote, [], [], policy: policy).result.refusal == nil)
        policy.maxOffload = 59
        #expect(try Self.plans(remote, [], [], policy: policy).result.refusal?.contains("offloads 60") == true)
        let writer = SectionWriter()
        let source = SnapshotWalkSource(remote: Snapshot(remote), local: Snapshot([]), records: [:]) { _ in false }
        let walk = PullWalk(policy: policy, partials: [:], source: source, writer: writer)
        #expect(try walk.run().refusal?.contains("offloads 60") == true)
    }

    @Test func theChecksBeforeTheDeleteCompareWhatWasPlanned() {
        let planned = remoteFile("a.jpg", 10, 600)
        #expect(Offload.stillListed(planned, as: planned))
        #expect(!Offload.stillListed(remoteFile("a.jpg", 11, 600), as: planned))
        #expect(!Offload.stillListed(remoteFile("a.jpg", 10, 660), as: planned))
        // A listed minute holds a planned second (MDTM refined the plan's time).
        let precise = SnapshotEntry(
            path: path("a.jpg"), kind: .file, size: 10, modified: FileTime(seconds: 630, granularity: .second))
        #expect(Offload.stillListed(planned, as: precise))
        #expect(Offload.recordStands(record("a.jpg"), for: planned))
        #expect(!Offload.recordStands(record("a.jpg", offloaded: true), for: planned))
        #expect(!Offload.recordStands(record("a.jpg"), for: remoteFile("a.jpg", 10, 660)))
        #expect(Offload.localStands(size: 10, modified: exact(1000), record: record("a.jpg")))
        #expect(!Offload.localStands(size: 10, modified: exact(1001), record: record("a.jpg")))
    }
}
