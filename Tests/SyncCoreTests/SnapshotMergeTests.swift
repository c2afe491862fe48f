// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// Joining two snapshots by path (one merge pass over NFC snapshots, lookups otherwise) and
/// looking paths up, checked against a plain search of the entries.
@Suite struct SnapshotMergeTests {
    typealias F = Fixture

    /// Each case: the paths of one side and of the other, each a file unless it ends in `/`.
    static let cases: [(mine: [String], theirs: [String])] = [
        (["a", "b", "c"], ["a", "b", "c"]),  // the same paths
        (["a", "c", "e"], ["b", "d", "f"]),  // no path in common
        (["a", "a/b", "a b", "a-b", "a.b", "ab"], ["a.b", "a/b", "ab", "z"]),  // '/' sorts first
        (["x/", "x/1", "y"], ["x", "y/", "y/2"]),  // a folder here, a file of that name there
        (["b", "a", "b", "a/c", "a/c"], ["a/c", "b", "a/c", "c"]),  // repeats and unsorted input
        (["m"], []), ([], ["m"]), ([], []),
        (["caf\u{E9}", "d"], ["cafe\u{301}", "d"]),  // NFC here, NFD there: the same path
        (["cafe\u{301}/x", "e\u{301}"], ["caf\u{E9}/x", "\u{E9}", "e"]),  // NFD here: lookups
        (["\u{65E5}/a", "\u{65E5}\u{672C}", "\u{1F600}"], ["\u{1F600}", "\u{65E5}/a", "\u{65E5}/b"]),
    ]

    static func snapshot(_ paths: [String]) -> Snapshot {
        Snapshot(paths.map { $0.hasSuffix("/") ? F.folder(String($0.dropLast())) : F.listed($0, 1, 60) })
    }

    @Test(arguments: cases.indices)
    func positionsMatchAPlainSearch(_ index: Int) {
        let (a, b) = (Self.snapshot(Self.cases[index].mine), Self.snapshot(Self.cases[index].theirs))
        for (x, y) in [(a, b), (b, a)] {
            let expected = x.entries.map { entry in y.entries.firstIndex { $0.path == entry.path } ?? -1 }
            #expect(x.positions(in: y) == expected)
            for entry in x.entries {
                #expect(y[entry.path]?.path == y.entries.first { $0.path == entry.path }?.path)
            }
        }
    }

    @Test func lookupsFindEveryEntryAndNothingElse() {
        let snapshot = Self.snapshot(["a", "a/b", "a b", "a-b", "a.b", "ab", "b/c/d", "\u{E9}t\u{E9}", "z"])
        for (i, entry) in snapshot.entries.enumerated() { #expect(snapshot.position(of: entry.path) == i) }
        for missing in ["a/a", "a/c", "aa", "b", "b/c", "et\u{301}e\u{301}x", "{"] {
            #expect(snapshot[F.path(missing)] == nil, "\(missing)")
        }
        // Another spelling of a stored name is found.
        #expect(snapshot[F.path("e\u{301}te\u{301}")]?.path.string == "\u{E9}t\u{E9}")
    }

    @Test func filterKeepsOrderAndReturnsTheSameSnapshotWhenAllAreKept() {
        let snapshot = Self.snapshot(["a", "b", "c", "d"])
        #expect(snapshot.filter { _ in true }.entries.map(\.path.string) == ["a", "b", "c", "d"])
        #expect(snapshot.filter { $0.path.string != "b" }.entries.map(\.path.string) == ["a", "c", "d"])
        #expect(snapshot.filter { $0.path.string == "a" }.entries.map(\.path.string) == ["a"])
        #expect(snapshot.filter { _ in false }.entries.isEmpty)
    }
}

/// Moves found among other new files: the planned download, upload or note of the moved file is
/// taken back, everything else stays in order.
@Suite struct MovesAmongNewFilesTests {
    typealias F = Fixture

    @Test func aPullMoveAmongNewFilesKeepsTheOtherDownloadsInOrder() {
        let old = (F.listed("old/clip.mp4", 2_000_000, 600), F.local("old/clip.mp4", 2_000_000, 600))
        let kept = (F.listed("k", 3, 60), F.local("k", 3, 60))
        let remote = Snapshot([
            F.listed("a-new", 5, 60), kept.0, F.folder("moved"), F.listed("moved/clip.mp4", 2_000_000, 600),
            F.listed("z-new", 6, 60),
        ])
        let local = Snapshot([kept.1, F.folder("old"), old.1])
        let result = PullPlanner(policy: SyncPolicy(direction: .pull)).planConfirmingMoves(
            remote: remote, local: local, records: F.records([old, kept]))
        #expect(
            F.kinds(result) == [
                "mkdir_local moved", "rename_local old/clip.mp4 -> moved/clip.mp4", "download a-new", "download z-new",
            ])
        #expect(result.plan.unchanged == 1)
        #expect(result.forgotten.isEmpty)
    }

    @Test func aYoungMovedFileLeavesNoNote() {
        let old = (F.listed("a", 7, 600), F.local("a", 7, 600))
        let policy = SyncPolicy(direction: .pull, minimumAge: 300, now: Date(timeIntervalSince1970: 700))
        let result = PullPlanner(policy: policy).planConfirmingMoves(
            remote: Snapshot([F.listed("b", 7, 600), F.listed("c", 1, 650)]), local: Snapshot([old.1]),
            records: F.records([old]))
        #expect(F.kinds(result) == ["rename_local a -> b"])
        #expect(result.plan.notes == ["c: modified less than 300 s ago; left for a later run"])
    }

    @Test func aPushMoveAmongNewFilesKeepsTheOtherUploadsInOrder() {
        let old = (F.listed("old.bin", 5, 600), F.local("old.bin", 5, 1000, digest: "d1"))
        let local = Snapshot([
            F.local("a.bin", 1, 1000, digest: "x"), F.local("m.bin", 5, 2000, digest: "d1"),
            F.local("z.bin", 2, 1000, digest: "y"),
        ])
        let result = PushPlanner(policy: SyncPolicy(direction: .push)).plan(
            local: local, remote: Snapshot([old.0]), records: F.records([old]), partials: [:])
        #expect(F.kinds(result) == ["rename_remote old.bin -> m.bin", "upload a.bin", "upload z.bin"])
    }

    @Test func recordsGoneFromBothSidesAreForgottenSorted() {
        let pairs = ["c", "a", "b/x"].map { (F.listed($0, 1, 60), F.local($0, 1, 60)) }
        let still = (F.listed("s", 1, 60), F.local("s", 1, 60))
        let records = F.records(pairs + [still])
        let pull = PullPlanner(policy: SyncPolicy(direction: .pull)).plan(
            remote: Snapshot([still.0]), local: Snapshot([still.1]), records: records, partials: [:])
        #expect(pull.forgotten.map(\.string) == ["a", "b/x", "c"])
        let push = PushPlanner(policy: SyncPolicy(direction: .push)).plan(
            local: Snapshot([still.1]), remote: Snapshot([still.0]), records: records, partials: [:])
        #expect(push.forgotten.map(\.string) == ["a", "b/x", "c"])
    }

    @Test func aFolderAndAFileOfOneNameAreATypeChangeNotMerged() {
        // No record of the local file: it is kept as a conflict copy; the empty folder is trashed.
        let pull = PullPlanner(policy: SyncPolicy(direction: .pull)).plan(
            remote: Snapshot([F.folder("x"), F.listed("y", 1, 60)]),
            local: Snapshot([F.local("x", 1, 60), F.folder("y")]), records: [:], partials: [:])
        #expect(F.kinds(pull) == ["conflict x", "delete_local y", "mkdir_local x", "download y"])
        #expect(pull.plan.notes.isEmpty)
        #expect(pull.plan.skipped.isEmpty)
        let withContent = PullPlanner(policy: SyncPolicy(direction: .pull)).plan(
            remote: Snapshot([F.folder("x"), F.listed("x/a", 1, 60)]), local: Snapshot([F.local("x", 1, 60)]),
            records: [:], partials: [:])
        #expect(F.kinds(withContent) == ["conflict x", "mkdir_local x", "download x/a"])
    }
}
