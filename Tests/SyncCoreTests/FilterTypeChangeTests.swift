// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// A type change (a file on one side where the other has a folder) never clears a folder that
/// holds something the filters leave out: the folder would go to the trash (pull) or be removed
/// (push) with what the user asked to leave alone. Found by a breaker (issue 19): a local folder
/// `d` holding only `d/z.tmp`, a device file `d`, and `pull --exclude '*.tmp'` moved the folder
/// to the trash and downloaded the file in its place.
struct FilterTypeChangeTests {
    static let now = 1_700_000_000.0

    /// The plan's actions as `kind path`, and the skipped entries' paths, of a pull.
    static func pull(remote: Snapshot, local: Snapshot, records: [RelativePath: FileRecord], bounds: FileBounds? = nil)
        throws -> (actions: Set<String>, skipped: [String])
    {
        var policy = SyncPolicy(direction: .pull, now: Date(timeIntervalSince1970: now))
        if let bounds { policy.bounds = bounds }
        let writer = SectionWriter()
        let source = SnapshotWalkSource(remote: remote, local: local, records: records) { _ in true }
        let walked = try PullWalk(policy: policy, partials: [:], source: source, writer: writer).run()
        return (Set(writer.actions.map { "\($0.kind.rawValue) \($0.path)" }), walked.skipped.map(\.path))
    }

    /// The same for a push.
    static func push(
        local: Snapshot, remote: Snapshot, records: [RelativePath: FileRecord], bounds: FileBounds? = nil,
        dotNamesLeftOut: Bool = false
    ) throws -> (actions: Set<String>, skipped: [String]) {
        var policy = SyncPolicy(direction: .push, now: Date(timeIntervalSince1970: now))
        if let bounds { policy.bounds = bounds }
        policy.deviceDotNamesLeftOut = dotNamesLeftOut
        let writer = SectionWriter()
        let source = SnapshotPushSource(local: local, remote: remote, records: records)
        let walked = try PushWalk(policy: policy, partials: [:], source: source, writer: writer).run()
        return (Set(writer.actions.map { "\($0.kind.rawValue) \($0.path)" }), walked.skipped.map(\.path))
    }

    /// Where the folder's only content (directly in it, or deeper) was left out by a glob rule.
    @Test(arguments: ["d/z.tmp", "d/e/z.tmp"])
    func aPullLeavesALocalFolderHoldingWhatAGlobLeftOut(leftOut: String) throws {
        var entries = [Fixture.folder("d")]
        if leftOut.hasPrefix("d/e/") { entries.append(Fixture.folder("d/e")) }
        var local = Snapshot(entries)
        local.leftOut = [Fixture.path(leftOut)]
        let remote = Snapshot([Fixture.listed("d", 20, Self.now - 50)])
        let (actions, skipped) = try Self.pull(remote: remote, local: local, records: [:])
        #expect(actions.isEmpty)
        #expect(skipped == ["d"])
    }

    /// A recorded, unchanged file below the folder that `max_size` now leaves out.
    @Test func aPullLeavesALocalFolderHoldingAFileOutOfBounds() throws {
        let big = Fixture.local("d/big", 5_000, Self.now - 500)
        let local = Snapshot([Fixture.folder("d"), big])
        let remote = Snapshot([Fixture.listed("d", 20, Self.now - 50)])
        let records = Fixture.records([(big, big)])
        let (actions, skipped) = try Self.pull(
            remote: remote, local: local, records: records, bounds: FileBounds(maximumSize: 1_000))
        #expect(actions.isEmpty)
        #expect(skipped == ["d"])
    }

    /// Without filters, the same folder (unchanged content) is still cleared: the type change
    /// follows the device.
    @Test func withoutFiltersTheTypeChangeStillFollowsTheDevice() throws {
        let file = Fixture.local("d/f", 5, Self.now - 500)
        let local = Snapshot([Fixture.folder("d"), file])
        let remote = Snapshot([Fixture.listed("d", 20, Self.now - 50)])
        let (actions, _) = try Self.pull(remote: remote, local: local, records: Fixture.records([(file, file)]))
        #expect(actions == ["delete_local d", "download d"])
    }

    /// A device folder `d.jpg` holding only a file the rules leave out, a local file `d.jpg`:
    /// the push planned `delete_remote d.jpg`, which RMD refused every run (or a recursive RMD
    /// took the excluded file along).
    @Test(arguments: ["d.jpg/x.txt", "d.jpg/e/x.txt"])
    func aPushLeavesADeviceFolderHoldingWhatAGlobLeftOut(leftOut: String) throws {
        var entries = [Fixture.folder("d.jpg")]
        if leftOut.hasPrefix("d.jpg/e/") { entries.append(Fixture.folder("d.jpg/e")) }
        var remote = Snapshot(entries)
        remote.leftOut = [Fixture.path(leftOut)]
        let local = Snapshot([Fixture.local("d.jpg", 20, Self.now - 50)])
        let (actions, skipped) = try Self.push(local: local, remote: remote, records: [:])
        #expect(actions.isEmpty)
        #expect(skipped == ["d.jpg"])
    }

    @Test func aPushLeavesADeviceFolderHoldingAFileOutOfBounds() throws {
        let old = Fixture.listed("d/old", 10, Self.now - 60 * 86_400)
        let remote = Snapshot([Fixture.folder("d"), old])
        let local = Snapshot([Fixture.local("d", 20, Self.now - 50)])
        let (actions, skipped) = try Self.push(
            local: local, remote: remote, records: Fixture.records([(old, old)]),
            bounds: FileBounds(maximumAge: 30 * 86_400))
        #expect(actions.isEmpty)
        #expect(skipped == ["d"])
    }

    /// Found by a breaker: with `hidden: false` a LIST-only device never shows a folder's
    /// dot-names, so a push cleared `d` (DELE of its recorded files) and its RMD failed on the
    /// hidden `.hid` every run. Such a folder is left as it is.
    @Test func aPushLeavesADeviceFolderThatMayHoldUnseenDotNames() throws {
        let a = Fixture.listed("d/a.txt", 2, Self.now - 500)
        let remote = Snapshot([Fixture.folder("d"), a])
        let local = Snapshot([Fixture.local("d", 2, Self.now - 50)])
        let records = Fixture.records([(a, a)])
        let (actions, skipped) = try Self.push(local: local, remote: remote, records: records, dotNamesLeftOut: true)
        #expect(actions.isEmpty)
        #expect(skipped == ["d"])
        let (cleared, _) = try Self.push(local: local, remote: remote, records: records)
        #expect(
            cleared == ["delete_remote d/a.txt", "delete_remote d", "upload d"], "hidden: true follows the type change")
    }

    /// A local folder `x` holding `x/a.jpg`, and a device file `x` the rule `--include '*.jpg'`
    /// leaves out: the device file stays, nothing below `x` is sent, and the report says why
    /// instead of saying nothing.
    @Test func whatTheOtherSidesLeftOutEntryHoldsBackIsReported() throws {
        let local = Snapshot([Fixture.folder("x"), Fixture.local("x/a.jpg", 5, Self.now - 50)])
        var remote = Snapshot([])
        remote.leftOut = [Fixture.path("x")]
        let (pushed, pushSkipped) = try Self.push(local: local, remote: remote, records: [:])
        #expect(pushed.isEmpty)
        #expect(pushSkipped == ["x"])
        // The pull the other way round: a device folder, a local file the rules leave out.
        let device = Snapshot([Fixture.folder("x"), Fixture.listed("x/a.jpg", 5, Self.now - 50)])
        var here = Snapshot([])
        here.leftOut = [Fixture.path("x")]
        let (pulled, pullSkipped) = try Self.pull(remote: device, local: here, records: [:])
        #expect(pulled.isEmpty)
        #expect(pullSkipped == ["x"])
    }
}
