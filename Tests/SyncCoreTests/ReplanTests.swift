// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// Carries out a plan on in-memory sides the way the engine does, records included, so that
/// planning again can be checked: a listing gives whole minutes, the local side exact times.
struct World {
    var local: [RelativePath: SnapshotEntry]
    var remote: [RelativePath: SnapshotEntry]
    var records: [RelativePath: FileRecord]

    static func listedTime(_ time: FileTime?) -> FileTime? {
        time.map { FileTime(seconds: ($0.seconds / 60).rounded(.down) * 60, granularity: .minute) }
    }

    mutating func apply(_ result: PlanResult) {
        for adoption in result.adoptions {
            records[adoption.local.path] = Fixture.record(adoption.remote, adoption.local)
        }
        for path in result.forgotten { records[path] = nil }
        for action in result.plan.actions { apply(action) }
    }

    private mutating func apply(_ action: Action) {
        switch action.kind {
        case .mkdirRemote: remote[action.path] = Fixture.folder(action.path.string)
        case .mkdirLocal: local[action.path] = Fixture.folder(action.path.string)
        case .upload:
            guard let source = local[action.path] else { return }
            var listed = source
            listed.modified = World.listedTime(source.modified)
            listed.digest = nil
            remote[action.path] = listed
            records[action.path] = Fixture.record(listed, source)
        case .download:
            guard let source = remote[action.path] else { return }
            let copy = SnapshotEntry(
                path: source.path, kind: .file, size: source.size,
                modified: source.modified.map { FileTime(seconds: $0.seconds, granularity: .exact) })
            local[action.path] = copy
            records[action.path] = Fixture.record(source, copy)
        case .renameRemote, .renameLocal:
            guard let to = action.to, let old = records[action.path] else { return }
            if action.kind == .renameRemote {
                remote[to] = remote[action.path].map {
                    SnapshotEntry(path: to, kind: .file, size: $0.size, modified: $0.modified)
                }
                remote[action.path] = nil
            } else {
                local[to] = local[action.path].map {
                    SnapshotEntry(path: to, kind: .file, size: $0.size, modified: $0.modified)
                }
                local[action.path] = nil
            }
            var moved = old
            moved.path = to
            records[to] = moved
            records[action.path] = nil
        case .deleteRemote, .deleteLocal:
            if action.kind == .deleteRemote { remote[action.path] = nil } else { local[action.path] = nil }
            records[action.path] = nil
        case .conflict:
            break
        }
    }
}

@Suite struct ReplanTests {
    typealias F = Fixture

    /// A synced pair, a changed file, a new file, a moved file, a deleted file and a new folder.
    static func scenario(direction: SyncDirection) -> World {
        let synced = (F.listed("same.txt", 5, 600), F.local("same.txt", 5, 610, digest: "s"))
        let changed = (F.listed("changed.txt", 5, 600), F.local("changed.txt", 5, 610, digest: "c"))
        let moved = (F.listed("old/m.bin", 9, 600), F.local("old/m.bin", 9, 610, digest: "m"))
        let deleted = (F.listed("gone.txt", 1, 600), F.local("gone.txt", 1, 610, digest: "g"))
        let records = F.records([synced, changed, moved, deleted])
        if direction == .push {
            return World(
                local: Dictionary(
                    uniqueKeysWithValues: [
                        synced.1, F.local("changed.txt", 6, 2000, digest: "c2"), F.local("new.txt", 3, 2100),
                        F.folder("new"), F.local("new/m.bin", 9, 610, digest: "m"), F.folder("empty"),
                    ].map { ($0.path, $0) }),
                remote: Dictionary(
                    uniqueKeysWithValues: [synced.0, changed.0, F.folder("old"), moved.0, deleted.0].map {
                        ($0.path, $0)
                    }),
                records: records)
        }
        return World(
            local: Dictionary(
                uniqueKeysWithValues: [synced.1, changed.1, F.folder("old"), moved.1, deleted.1].map { ($0.path, $0) }),
            remote: Dictionary(
                uniqueKeysWithValues: [
                    synced.0, F.listed("changed.txt", 6, 1800), F.listed("new.txt", 3, 2100), F.folder("new"),
                    F.listed("new/m.bin", 9, 600), F.folder("empty"),
                ].map { ($0.path, $0) }),
            records: records)
    }

    @Test(arguments: [SyncDirection.push, .pull], [false, true])
    func planningAgainAfterApplyingGivesAnEmptyPlan(direction: SyncDirection, delete: Bool) {
        var world = ReplanTests.scenario(direction: direction)
        let policy = SyncPolicy(direction: direction, deleteExtraneous: delete)
        func plan(_ world: World) -> PlanResult {
            let local = Snapshot(Array(world.local.values))
            let remote = Snapshot(Array(world.remote.values))
            return direction == .push
                ? PushPlanner(policy: policy).plan(local: local, remote: remote, records: world.records, partials: [:])
                : PullPlanner(policy: policy).planConfirmingMoves(remote: remote, local: local, records: world.records)
        }
        let first = plan(world)
        let kinds = Set(first.plan.actions.map(\.kind))
        let expected: Set<ActionKind> =
            direction == .push ? [.mkdirRemote, .upload, .renameRemote] : [.mkdirLocal, .download, .renameLocal]
        #expect(kinds == expected.union(delete ? [direction == .push ? .deleteRemote : .deleteLocal] : []))
        world.apply(first)
        let second = plan(world)
        #expect(second.plan.actions.isEmpty, "\(Fixture.kinds(second))")
        #expect(second.adoptions.isEmpty)
    }
}
