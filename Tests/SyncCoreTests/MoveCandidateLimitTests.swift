// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// A walk holds at most so many possible moves across folders (issue 17: what crosses folders
/// stays bounded). Past the limit it stops looking for moves: what it held gets what was planned
/// for it, the rest are new files and gone ones, a note says so, and nothing is lost.
struct MoveCandidateLimitTests {
    /// 30 files moved on the device from `old/` to `new/` (same size and time, each its own).
    private static func pullTrees() -> (Snapshot, Snapshot, [RelativePath: FileRecord]) {
        var remote: [SnapshotEntry] = [Fixture.folder("new"), Fixture.folder("old")]
        var local: [SnapshotEntry] = [Fixture.folder("old")]
        var records: [RelativePath: FileRecord] = [:]
        for index in 0..<30 {
            let time = 1_700_000_000 + Double(index) * 3_600
            let listed = Fixture.listed("old/f\(index)", UInt64(100 + index), time)
            let here = Fixture.local("old/f\(index)", UInt64(100 + index), time + 5)
            local.append(here)
            records[here.path] = Fixture.record(listed, here)
            remote.append(Fixture.listed("new/f\(index)", UInt64(100 + index), time))
        }
        return (Snapshot(remote), Snapshot(local), records)
    }

    private func pull(limit: Int) throws -> (SectionWriter, PullWalkResult) {
        let (remote, local, records) = Self.pullTrees()
        let source = SnapshotWalkSource(remote: remote, local: local, records: records) { _ in true }
        let writer = SectionWriter()
        let policy = SyncPolicy(direction: .pull, deleteExtraneous: true)
        var walk = PullWalk(policy: policy, partials: [:], source: source, writer: writer)
        walk.ledger.moveCandidateLimit = limit
        let walked = try walk.run()
        return (writer, walked)
    }

    @Test func aPullUnderTheLimitFindsTheMoves() throws {
        let (writer, walked) = try pull(limit: 100)
        #expect((writer.sections[.renames] ?? []).count == 30)
        #expect(writer.actions.filter { $0.kind == .download }.isEmpty)
        #expect(!walked.notes.contains { $0.contains("may have moved") })
    }

    @Test func aPullOverTheLimitCopiesInsteadAndSaysSo() throws {
        let (writer, walked) = try pull(limit: 10)
        #expect((writer.sections[.renames] ?? []).isEmpty)
        let downloads = writer.actions.filter { $0.kind == .download }.map(\.path.string)
        #expect(Set(downloads) == Set((0..<30).map { "new/f\($0)" }))
        #expect(walked.notes.filter { $0.contains("more than 10 files may have moved") }.count == 1)
        // The old local files are left to the delete guard, as any file gone from the device
        // (here an emptied folder: suspect, kept); nothing else touches them.
        #expect(writer.actions.filter { $0.path.string.hasPrefix("old/") && $0.kind != .deleteLocal }.isEmpty)
    }

    @Test func aPushOverTheLimitUploadsInsteadAndSaysSo() throws {
        var local: [SnapshotEntry] = [Fixture.folder("new")]
        var remote: [SnapshotEntry] = [Fixture.folder("old")]
        var records: [RelativePath: FileRecord] = [:]
        for index in 0..<30 {
            let time = 1_700_000_000 + Double(index) * 3_600
            let listed = Fixture.listed("old/f\(index)", UInt64(100 + index), time)
            let was = Fixture.local("old/f\(index)", UInt64(100 + index), time + 5, digest: "d\(index)")
            remote.append(listed)
            records[was.path] = Fixture.record(listed, was)
            local.append(Fixture.local("new/f\(index)", UInt64(100 + index), time + 5, digest: "d\(index)"))
        }
        for (limit, renames) in [(100, 30), (10, 0)] {
            let source = SnapshotPushSource(local: Snapshot(local), remote: Snapshot(remote), records: records)
            let writer = SectionWriter()
            var walk = PushWalk(policy: SyncPolicy(direction: .push), partials: [:], source: source, writer: writer)
            walk.ledger.moveCandidateLimit = limit
            let walked = try walk.run()
            #expect((writer.sections[.renames] ?? []).count == renames, "limit \(limit)")
            #expect(writer.actions.filter { $0.kind == .upload }.count == 30 - renames, "limit \(limit)")
            let noted = walked.notes.contains { $0.contains("more than \(limit) files may have moved") }
            #expect(noted == (renames == 0), "limit \(limit)")
        }
    }
}

/// The times of a walk's listing are counted in bounded memory (`TimeTally`).
struct TimeTallyTests {
    @Test func distinctTimesAreBoundedAndSharedOnesKept() {
        var tally = TimeTally(limit: 1_000)
        let shared: Double = 1_800_000_000
        for _ in 0..<3 { tally.add(shared) }
        for index in 0..<100_000 { tally.add(1_700_000_000 + Double(index)) }
        #expect(tally.counts.count <= 1_000)
        #expect(tally.counts[shared] == 3)
        let defaults = DefaultTimes(counts: tally.counts)
        #expect(defaults.isDefault(FileTime(seconds: shared, granularity: .second)))
        #expect(!defaults.isDefault(FileTime(seconds: 1_700_099_999, granularity: .second)))
    }

    @Test func aTallyFullOfSharedTimesStopsTakingNewOnes() {
        var tally = TimeTally(limit: 10)
        for time in 0..<10 {
            tally.add(Double(time))
            tally.add(Double(time))
        }
        tally.add(100)
        tally.add(101)
        #expect(tally.isFull && tally.counts.count == 10 && tally.counts[100] == nil)
        tally.add(3)
        #expect(tally.counts[3] == 3)
    }
}
