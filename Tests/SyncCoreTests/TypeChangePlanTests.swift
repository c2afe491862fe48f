// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// Type changes (`TypeChanges`): the destination follows the source's new kind, with or
/// without `--delete`, clearing first; what changed since the last sync is never lost.
@Suite struct TypeChangePlanTests {
    typealias F = Fixture

    @Test(arguments: [false, true])
    func pullTrashesWhatIsAsRecordedAndKeepsWhatChanged(delete: Bool) {
        let planner = PullPlanner(policy: SyncPolicy(direction: .pull, deleteExtraneous: delete))
        let oldFile = (F.listed("clip", 5, 60), F.local("clip", 5, 60))
        let oldInside = (F.listed("album/a.jpg", 5, 60), F.local("album/a.jpg", 5, 60))
        let records = F.records([oldFile, oldInside])
        let remote = Snapshot([F.folder("clip"), F.listed("clip/in.txt", 3, 120), F.listed("album", 7, 120)])
        let unchanged = Snapshot([oldFile.1, F.folder("album"), oldInside.1])
        let plan = planner.plan(remote: remote, local: unchanged, records: records, partials: [:])
        #expect(
            F.kinds(plan) == [
                "delete_local album", "delete_local clip", "mkdir_local clip", "download album", "download clip/in.txt",
            ])
        // Changed here since the last sync: a conflict copy instead of the trash.
        let changed = Snapshot([F.local("clip", 6, 90), F.folder("album"), F.local("album/a.jpg", 9, 90)])
        let kept = planner.plan(remote: remote, local: changed, records: records, partials: [:])
        #expect(
            F.kinds(kept) == [
                "conflict album", "conflict clip", "mkdir_local clip", "download album", "download clip/in.txt",
            ])
    }

    @Test(arguments: [false, true])
    func pushRemovesWhatIsAsRecordedAndReportsWhatChanged(delete: Bool) {
        let planner = PushPlanner(policy: SyncPolicy(direction: .push, deleteExtraneous: delete))
        let oldFile = (F.listed("clip", 5, 60), F.local("clip", 5, 60))
        let oldInside = (F.listed("album/a.jpg", 5, 60), F.local("album/a.jpg", 5, 60))
        let records = F.records([oldFile, oldInside])
        let local = Snapshot([F.folder("clip"), F.local("clip/in.txt", 3, 120), F.local("album", 7, 120)])
        let remote = Snapshot([oldFile.0, F.folder("album"), oldInside.0])
        let plan = planner.plan(local: local, remote: remote, records: records, partials: [:])
        #expect(
            F.kinds(plan) == [
                "delete_remote album/a.jpg", "delete_remote album", "delete_remote clip", "mkdir_remote clip",
                "upload album", "upload clip/in.txt",
            ])
        // Changed on the device since the last sync: a conflict, nothing deleted or sent below.
        let changed = Snapshot([F.listed("clip", 6, 600), F.folder("album"), F.listed("album/a.jpg", 9, 600)])
        let kept = planner.plan(local: local, remote: changed, records: records, partials: [:])
        #expect(F.kinds(kept) == ["conflict album", "conflict clip"])
    }
}
