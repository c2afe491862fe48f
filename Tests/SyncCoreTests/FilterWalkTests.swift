// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// What the filters leave out is never copied or deleted by `--delete`, on either side
/// (rclone's rule), and a folder holding something left out is not deleted either.
struct FilterWalkTests {
    static let now = 1_700_000_000.0
    static let bounds = FileBounds(maximumSize: 1_000, maximumAge: 30 * 86_400)

    /// Source side `source`, destination side `destination` (each a pull's device or a push's
    /// local tree as the case may be), with the same records for both walks.
    static func sides() -> (source: Snapshot, destination: Snapshot, records: [RelativePath: FileRecord]) {
        let recordedBig = Fixture.local("a/big", 500, now - 100)
        let old = Fixture.local("b/old", 10, now - 60 * 86_400)
        let source = Snapshot([
            Fixture.folder("a"), Fixture.local("a/big", 5_000, now - 50), Fixture.local("a/ok", 5, now - 50),
        ])
        var destination = Snapshot([
            Fixture.folder("a"), recordedBig, Fixture.local("a/ok", 5, now - 50), Fixture.folder("b"), old,
            Fixture.folder("c"), Fixture.local("c/new", 10, now - 10), Fixture.folder("g"),
        ])
        // The glob rules left something out of `g` on the destination side.
        destination.leftOut = [Fixture.path("g/skipped.tmp")]
        let records = Fixture.records([(recordedBig, recordedBig), (old, old)])
        return (source, destination, records)
    }

    @Test func aPullNeitherCopiesNorDeletesWhatTheFiltersLeaveOut() throws {
        let (remote, local, records) = Self.sides()
        var policy = SyncPolicy(
            direction: .pull, deleteExtraneous: true, now: Date(timeIntervalSince1970: Self.now))
        policy.bounds = Self.bounds
        let writer = SectionWriter()
        let source = SnapshotWalkSource(remote: remote, local: local, records: records) { _ in true }
        let walked = try PullWalk(policy: policy, partials: [:], source: source, writer: writer).run()
        #expect(walked.refusal == nil)
        let paths = Set(writer.actions.map { "\($0.kind.rawValue) \($0.path)" })
        // a/big is larger than max_size on the device: not downloaded, the local copy stays;
        // b/old is older than max_age here: not deleted, nor its folder; g holds what a glob left out.
        #expect(paths == ["delete_local c/new", "delete_local c"])
        // Found by a first user: only `ls` said what the filters left out.
        #expect(
            walked.notes.last
                == "1 entry on the device left out by the filters (ftpsync ls DEVICE:FOLDER --show-excluded shows them, one folder at a time)"
        )
        #expect(walked.adopted == 1)
        #expect(!writer.forgotten.contains(Fixture.path("a/big")))
        #expect(!writer.forgotten.contains(Fixture.path("b/old")))
    }

    @Test func aPushNeitherCopiesNorDeletesWhatTheFiltersLeaveOut() throws {
        let (local, remote, records) = Self.sides()
        var policy = SyncPolicy(
            direction: .push, deleteExtraneous: true, now: Date(timeIntervalSince1970: Self.now))
        policy.bounds = Self.bounds
        let writer = SectionWriter()
        let source = SnapshotPushSource(local: local, remote: remote, records: records)
        let walked = try PushWalk(policy: policy, partials: [:], source: source, writer: writer).run()
        #expect(walked.refusal == nil)
        let paths = Set(writer.actions.map { "\($0.kind.rawValue) \($0.path)" })
        #expect(paths == ["delete_remote c/new", "delete_remote c"])
        #expect(walked.notes.last == "1 entry here left out by the filters")
        #expect(walked.adopted == 1)
        #expect(!writer.forgotten.contains(Fixture.path("a/big")))
        #expect(!writer.forgotten.contains(Fixture.path("b/old")))
    }

    /// Found by a breaker: `--exclude 'x/'` left out a folder `x` on one side and the other
    /// side's file `x` was extraneous: a push with `--delete` deleted the device's file, a pull
    /// with `--delete` the local one. The path is left out on both sides; its record stays.
    @Test(arguments: [SyncDirection.pull, .push])
    func whatAGlobLeftOutOfOneSideStaysOnTheOther(direction: SyncDirection) throws {
        let file = Fixture.local("x", 20, Self.now - 50)
        var source = Snapshot([Fixture.local("keep", 5, Self.now - 50)])
        source.leftOut = [Fixture.path("x")]  // the folder x, under a rule `x/`
        let destination = Snapshot([file, Fixture.local("keep", 5, Self.now - 50), Fixture.local("extra", 1, Self.now)])
        let records = Fixture.records([(file, file)])
        let policy = SyncPolicy(
            direction: direction, deleteExtraneous: true, now: Date(timeIntervalSince1970: Self.now))
        let writer = SectionWriter()
        if direction == .pull {
            let walkSource = SnapshotWalkSource(remote: source, local: destination, records: records) { _ in true }
            #expect(
                try PullWalk(policy: policy, partials: [:], source: walkSource, writer: writer).run().refusal == nil)
        } else {
            let walkSource = SnapshotPushSource(local: source, remote: destination, records: records)
            #expect(
                try PushWalk(policy: policy, partials: [:], source: walkSource, writer: writer).run().refusal == nil)
        }
        let deleted = direction == .pull ? "delete_local" : "delete_remote"
        #expect(Set(writer.actions.map { "\($0.kind.rawValue) \($0.path)" }) == ["\(deleted) extra"])
        #expect(!writer.forgotten.contains(Fixture.path("x")))
    }
}
