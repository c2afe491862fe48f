// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// A walk with `--delete` writes its deletes as it goes (issue 17: what crosses folders stays
/// bounded): a file's when its folder is planned, a folder's once the walk has left it, and only
/// what a rename may take over waits for the end. Children are written before their folder.
struct WalkDeleteTests {
    /// Writes actions, noting for each delete how many folders the walk had listed by then.
    final class ListingClock: PlanWriter {
        let source: SnapshotFolderSource
        private(set) var sections: [PlanSection: [Action]] = [:]
        private(set) var deletesAt: [(path: String, listed: Int)] = []

        init(_ source: SnapshotFolderSource) { self.source = source }

        func append(_ action: Action, to section: PlanSection) throws {
            sections[section, default: []].append(action)
            if section == .deletes { deletesAt.append((action.path.string, source.listed.count)) }
        }
        func adopt(_ adoption: Adoption) throws {}
        func forget(_ path: RelativePath) throws {}
    }

    /// 20 folders; the device has `keep` in each, the local side also `extra` (never synced)
    /// and a folder `gone/` with a file, none of them on the device.
    private static func trees() -> (Snapshot, Snapshot) {
        var remote: [SnapshotEntry] = []
        var local: [SnapshotEntry] = []
        for index in 0..<20 {
            let folder = String(format: "d%02d", index)
            remote += [Fixture.folder(folder), Fixture.listed("\(folder)/keep", 10, 1_700_000_000)]
            local += [
                Fixture.folder(folder), Fixture.local("\(folder)/keep", 10, 1_700_000_000),
                Fixture.local("\(folder)/extra", 5, 1_700_000_000), Fixture.folder("\(folder)/gone"),
                Fixture.local("\(folder)/gone/f", 5, 1_700_000_000),
            ]
        }
        return (Snapshot(remote), Snapshot(local))
    }

    @Test func aPullWritesEachFoldersDeletesBeforeTheWalkEnds() throws {
        let (remote, local) = Self.trees()
        let source = SnapshotWalkSource(remote: remote, local: local, records: [:]) { _ in true }
        let writer = ListingClock(source)
        let policy = SyncPolicy(direction: .pull, deleteExtraneous: true)
        let walked = try PullWalk(policy: policy, partials: [:], source: source, writer: writer).run()
        #expect(walked.refusal == nil)
        let deletes = writer.deletesAt.map(\.path)
        #expect(deletes.count == 60)
        #expect(
            Set(deletes)
                == Set((0..<20).flatMap { i in ["extra", "gone", "gone/f"].map { String(format: "d%02d/", i) + $0 } }))
        // d00's deletes come before d19 is listed: they did not wait for the end.
        let last = try #require(source.listed.firstIndex(of: Fixture.path("d19")))
        #expect(writer.deletesAt.filter { $0.path.hasPrefix("d00/") }.allSatisfy { $0.listed <= last })
        for (index, path) in deletes.enumerated() {
            #expect(!deletes[..<index].contains { Fixture.path($0).isAncestor(of: Fixture.path(path)) })
        }
    }

    @Test func aPushWritesEachFoldersDeletesBeforeTheWalkEnds() throws {
        let (device, here) = Self.trees()
        // The push's source is the local side: the device's extra files go.
        let source = SnapshotPushSource(local: device, remote: here, records: [:])
        let writer = ListingClock(source)
        let walked = try PushWalk(
            policy: SyncPolicy(direction: .push, deleteExtraneous: true), partials: [:], source: source, writer: writer
        ).run()
        #expect(walked.refusal == nil)
        #expect(writer.deletesAt.count == 60)
        let last = try #require(source.listed.firstIndex(of: Fixture.path("d19")))
        #expect(writer.deletesAt.filter { $0.path.hasPrefix("d00/") }.allSatisfy { $0.listed <= last })
    }

    /// A file moved on the device out of `old/`: the local `old/f` may be the rename's source,
    /// so its delete and its folder's wait for the end, and the rename takes the file over.
    @Test func whatARenameMayTakeOverWaitsForTheEnd() throws {
        let listed = Fixture.listed("old/f", 100, 1_700_000_000)
        let here = Fixture.local("old/f", 100, 1_700_000_005)
        let remote = Snapshot([Fixture.folder("new"), Fixture.listed("new/f", 100, 1_700_000_000)])
        let local = Snapshot([Fixture.folder("old"), here, Fixture.folder("zz"), Fixture.local("zz/x", 1, 1)])
        let source = SnapshotWalkSource(
            remote: remote, local: local, records: [here.path: Fixture.record(listed, here)]
        ) { _ in true }
        let writer = ListingClock(source)
        let policy = SyncPolicy(direction: .pull, deleteExtraneous: true)
        _ = try PullWalk(policy: policy, partials: [:], source: source, writer: writer).run()
        #expect((writer.sections[.renames] ?? []).map { "\($0.path) \($0.to?.string ?? "")" } == ["old/f new/f"])
        // zz/x and zz were weighed on the way; old (now empty) at the end, after the rename.
        #expect(writer.deletesAt.map(\.path) == ["zz/x", "zz", "old"])
    }

    /// A local folder in NFD ("é" as macOS writes it, "e" + U+0301) that the device no longer
    /// has, whose records the state keeps in NFC: the walk visits it under the records'
    /// spelling, after "f" (U+00E9 sorts after "f", "e" before it). Its delete waits until the
    /// walk has been in it: the conflict copy there is kept, so the folder is not deleted (it
    /// was weighed when the walk reached "f", before its content, and deleted with the copy).
    @Test func aFolderInAnotherSpellingThanItsRecordsIsWeighedAfterItsContent() throws {
        let listed = Fixture.listed("\u{e9}/x.jpg", 10, 1_700_000_000)
        let here = Fixture.local("e\u{301}/x.jpg", 10, 1_700_000_005)
        let copy = Fixture.local("e\u{301}/y.conflict-20261201T112233Z.jpg", 3, 1_700_000_005)
        let remote = Snapshot([Fixture.folder("f"), Fixture.listed("f/keep", 1, 1_700_000_000)])
        let local = Snapshot([
            Fixture.folder("e\u{301}"), here, copy, Fixture.folder("f"), Fixture.local("f/keep", 1, 1_700_000_000),
        ])
        var record = Fixture.record(listed, here)
        record.path = listed.path
        let records = [record.path: record]
        let policy = SyncPolicy(direction: .pull, deleteExtraneous: true, maxDelete: nil)
        let whole = PullPlanner(policy: policy).plan(remote: remote, local: local, records: records, partials: [:])
        #expect(whole.plan.actions.filter { $0.kind == .deleteLocal }.map(\.path) == [here.path])
        let source = SnapshotWalkSource(remote: remote, local: local, records: records) { _ in false }
        let writer = SectionWriter()
        _ = try PullWalk(policy: policy, partials: [:], source: source, writer: writer).run()
        let deletes = (writer.sections[.deletes] ?? []).map(\.path)
        #expect(deletes == [here.path], "\(deletes.map { Array($0.string.unicodeScalars) })")
    }

    /// A chain of folders (up to 120) the device no longer has, a file in each and a conflict copy at
    /// the bottom (kept, so none of the folders above it goes), beside a second chain without
    /// one: every file of both goes, the second chain's folders deepest first, after their
    /// content, as the whole-tree plan says.
    @Test(arguments: [1, 3, 120])
    func deepChainsAreDeletedFromTheBottomUp(levels: Int) throws {
        var local: [SnapshotEntry] = [Fixture.folder("z"), Fixture.local("z/keep", 1, 1_700_000_000)]
        for chain in ["a", "b"] {
            var path = chain
            for depth in 0..<levels {
                local += [Fixture.folder(path), Fixture.local(path + "/f\(depth)", 1, 1_700_000_000)]
                path += "/d"
            }
            if chain == "a" {
                local += [Fixture.folder(path), Fixture.local(path + "/x.conflict-20261201T112233Z.jpg", 1, 1)]
            }
        }
        let remote = Snapshot([Fixture.folder("z"), Fixture.listed("z/keep", 1, 1_700_000_000)])
        let policy = SyncPolicy(direction: .pull, deleteExtraneous: true, maxDelete: nil)
        let whole = PullPlanner(policy: policy).plan(
            remote: remote, local: Snapshot(local), records: [:], partials: [:])
        let source = SnapshotWalkSource(remote: remote, local: Snapshot(local), records: [:]) { _ in false }
        let writer = SectionWriter()
        _ = try PullWalk(policy: policy, partials: [:], source: source, writer: writer).run()
        let deletes = writer.sections[.deletes] ?? []
        #expect(actionCounts(deletes) == actionCounts(whole.plan.actions.filter { $0.kind == .deleteLocal }))
        #expect(deletes.count == 3 * levels)
        for (index, delete) in deletes.enumerated() {
            #expect(!deletes[(index + 1)...].contains { delete.path.isAncestor(of: $0.path) })
        }
    }
}
