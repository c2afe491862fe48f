// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// Decisions a planner hands to the engine as values, so that the executors only carry them
/// out: the interrupted uploads nothing will resume, and the resolution of every conflict.
@Suite struct PlanValueTests {
    typealias F = Fixture

    /// (what the local folder holds at the interrupted upload's path, abandoned).
    @Test(arguments: [
        ("file", false),
        ("gone", true),
        ("folder", true),
        ("symlink", true),
    ])
    func anInterruptedUploadWhoseLocalFileIsGoneIsAbandoned(here: String, abandoned: Bool) {
        var local: [SnapshotEntry] = [F.local("keep.bin", 100, 60)]
        switch here {
        case "file": local.append(F.local("up.bin", 100, 60))
        case "folder": local.append(F.folder("up.bin"))
        case "symlink": local.append(SnapshotEntry(path: F.path("up.bin"), kind: .symlink))
        default: break
        }
        let partials = [
            F.path("up.bin"): UploadPartial(
                path: F.path("up.bin"), localSize: 100, localModified: FileTime(seconds: 60, granularity: .exact),
                bytesDone: 40)
        ]
        let result = PushPlanner(policy: SyncPolicy(direction: .push)).plan(
            local: Snapshot(local), remote: Snapshot([]), records: [:], partials: partials)
        #expect(result.abandonedUploads == (abandoned ? [F.path("up.bin")] : []))
        // A partial that can resume is resumed, never abandoned.
        let resumed = result.plan.actions.first { $0.path.string == "up.bin" && $0.kind == .upload }
        #expect((resumed?.offset == 40) == !abandoned)
    }

    @Test func aPullAbandonsNoUpload() {
        let result = PullPlanner(policy: SyncPolicy(direction: .pull)).plan(
            remote: Snapshot([F.listed("a", 1, 60)]), local: Snapshot([]), records: [:], partials: [:])
        #expect(result.abandonedUploads.isEmpty)
    }

    /// A type change whose destination side changed since the last sync is a conflict with its
    /// resolution set by the planner: a pull keeps both (the local entry set aside), a push
    /// reports it and leaves the device as it is. No conflict reaches an executor without one.
    @Test(arguments: [SyncDirection.pull, .push])
    func aTypeChangeConflictCarriesItsResolution(direction: SyncDirection) {
        let result: PlanResult
        switch direction {
        case .pull:
            // The device has a folder where the local file changed since the last sync.
            let records = F.records([(F.listed("t", 1, 60), F.local("t", 1, 60))])
            result = PullPlanner(policy: SyncPolicy(direction: .pull)).plan(
                remote: Snapshot([F.folder("t"), F.listed("t/x", 1, 60)]), local: Snapshot([F.local("t", 2, 120)]),
                records: records, partials: [:])
        case .push:
            // Here a folder where the device's file changed since the last sync.
            let records = F.records([(F.listed("t", 1, 60), F.local("t", 1, 60))])
            result = PushPlanner(policy: SyncPolicy(direction: .push)).plan(
                local: Snapshot([F.folder("t"), F.local("t/x", 1, 60)]), remote: Snapshot([F.listed("t", 2, 600)]),
                records: records, partials: [:])
        case .sync:
            Issue.record("a sync skips a type change (SyncPlannerTests)")
            return
        }
        let conflicts = result.plan.actions.filter { $0.kind == .conflict }
        #expect(conflicts.map(\.path.string) == ["t"], "\(F.kinds(result))")
        #expect(conflicts.first?.resolution == (direction == .pull ? .keepBoth : .report))
    }
}
