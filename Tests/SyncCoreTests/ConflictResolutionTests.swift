// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// `--on-conflict`: every policy in both directions, for a file changed on both sides since the
/// last sync and for one that differs with no record at all (a conflict both ways: lost state is
/// no permission to overwrite, issue 13).
@Suite struct ConflictResolutionTests {
    typealias F = Fixture

    /// One row: the policy, whether a record exists, the local file's time (the device lists
    /// 720, minute precision: any instant from 720 up to 780), and what the plan holds.
    struct Row: Sendable, CustomStringConvertible {
        var policy: ConflictPolicy
        var recorded: Bool
        var localTime: Double
        var kinds: [String]
        var resolution: ConflictResolution?
        var adopted: Bool
        var description: String { "\(policy.rawValue) recorded=\(recorded) local=\(localTime)" }
    }

    static func rows(_ direction: SyncDirection) -> [Row] {
        let transfer = direction == .pull ? "download f" : "upload f"
        // What each resolution plans in this direction: (kinds, adopted).
        func plan(_ resolution: ConflictResolution) -> ([String], Bool) {
            switch (direction, resolution) {
            case (_, .report): return (["conflict f"], false)
            case (.pull, .localWins), (.push, .remoteWins): return (["conflict f"], true)
            default: return (["conflict f", transfer], false)
            }
        }
        var rows: [Row] = []
        for recorded in [true, false] {
            let cases: [(ConflictPolicy, Double, ConflictResolution)] = [
                (.keepBoth, 2_000, .keepBoth), (.localWins, 2_000, .localWins), (.remoteWins, 2_000, .remoteWins),
                (.report, 2_000, .report),
                // Local later than the whole listed minute: local wins.
                (.newerWins, 2_000, .localWins), (.newerWins, 780, .localWins),
                // Inside the listed minute: cannot tell, both kept.
                (.newerWins, 740, .keepBoth), (.newerWins, 720, .keepBoth),
                // Before the listed minute began: the device's is newer.
                (.newerWins, 700, .remoteWins),
            ]
            for (policy, time, resolution) in cases {
                let (kinds, adopted) = plan(resolution)
                rows.append(
                    Row(
                        policy: policy, recorded: recorded, localTime: time, kinds: kinds, resolution: resolution,
                        adopted: adopted))
            }
        }
        return rows
    }

    /// The device lists f as 11 bytes at 720; here it is 12 bytes; the record (when there is
    /// one) says 10 bytes on both sides.
    func plan(_ direction: SyncDirection, _ row: Row) -> PlanResult {
        let records = row.recorded ? F.records([(F.listed("f", 10, 600), F.local("f", 10, 1000))]) : [:]
        let remote = Snapshot([F.listed("f", 11, 720)])
        let local = Snapshot([F.local("f", 12, row.localTime)])
        let policy = SyncPolicy(direction: direction, onConflict: row.policy)
        switch direction {
        case .pull:
            return PullPlanner(policy: policy).plan(remote: remote, local: local, records: records, partials: [:])
        case .push:
            return PushPlanner(policy: policy).plan(local: local, remote: remote, records: records, partials: [:])
        case .sync:
            return SyncPlanner(policy: policy) { $0 + ".conflict" }.plan(remote: remote, local: local, records: records)
        }
    }

    func check(_ direction: SyncDirection, _ row: Row) {
        let result = plan(direction, row)
        #expect(F.kinds(result) == row.kinds, "\(direction) \(row)")
        #expect(result.plan.actions.allSatisfy { $0.resolution == row.resolution }, "\(direction) \(row)")
        #expect(result.adoptions.count == (row.adopted ? 1 : 0), "\(direction) \(row)")
        let conflict = result.plan.actions.first { $0.kind == .conflict }
        if row.resolution == .report {
            #expect(conflict?.reason.contains("use --on-conflict") == true, "\(direction) \(row)")
        }
        if row.adopted {
            // Which version was kept, for the report.
            #expect(result.plan.notes.count == 1)
            #expect(result.plan.notes.first?.contains("(\(row.resolution?.rawValue ?? ""))") == true)
            #expect(result.adoptions.first?.remote.size == 11)
            #expect(result.adoptions.first?.local.size == 12)
        }
    }

    @Test(arguments: rows(.pull)) func pull(_ row: Row) { check(.pull, row) }

    @Test(arguments: rows(.push)) func push(_ row: Row) { check(.push, row) }

    @Test func defaultsAreKeepBothForPullAndReportForPush() {
        #expect(SyncPolicy(direction: .pull).onConflict == .keepBoth)
        #expect(SyncPolicy(direction: .push).onConflict == .report)
    }

    @Test func pushReportNamesTheOptionThatOverwrites() {
        let row = Row(policy: .report, recorded: true, localTime: 2_000, kinds: [], resolution: .report, adopted: false)
        let reason = plan(.push, row).plan.actions.first?.reason ?? ""
        #expect(reason.contains("use --on-conflict local-wins to overwrite the device's copy, or keep-both"))
    }

    /// The device changed since the last sync, here nothing did: still a conflict for push
    /// (never overwritten by default); `remote-wins` and `newer-wins` take the device's.
    @Test(arguments: [
        (ConflictPolicy.report, ["conflict f"], 0), (.remoteWins, ["conflict f"], 1), (.newerWins, ["conflict f"], 1),
        (.localWins, ["conflict f", "upload f"], 0), (.keepBoth, ["conflict f", "upload f"], 0),
    ])
    func pushDeviceChangedOnly(policy: ConflictPolicy, kinds: [String], adoptions: Int) {
        let records = F.records([(F.listed("f", 10, 600), F.local("f", 10, 1000))])
        let result = PushPlanner(policy: SyncPolicy(direction: .push, onConflict: policy)).plan(
            local: Snapshot([F.local("f", 10, 1000)]), remote: Snapshot([F.listed("f", 11, 7200)]), records: records,
            partials: [:])
        #expect(F.kinds(result) == kinds)
        #expect(result.adoptions.count == adoptions)
    }

    /// `push --delete` of a file deleted here but changed on the device: only `local-wins`
    /// deletes it; `report` and `newer-wins` report it naming that option.
    @Test(arguments: [
        (ConflictPolicy.report, ["conflict f"], ConflictResolution.report as ConflictResolution?),
        (.newerWins, ["conflict f"], .report), (.keepBoth, ["conflict f"], .remoteWins),
        (.remoteWins, ["conflict f"], .remoteWins), (.localWins, ["delete_remote f"], nil),
    ])
    func pushDeleteOfAChangedDeviceFile(policy: ConflictPolicy, kinds: [String], resolution: ConflictResolution?) {
        // A file kept on both sides: an empty side would look like a folder that went missing.
        let kept = (F.listed("keep", 1, 60), F.local("keep", 1, 100))
        let records = F.records([(F.listed("f", 10, 600), F.local("f", 10, 1000)), kept])
        let result = PushPlanner(policy: SyncPolicy(direction: .push, deleteExtraneous: true, onConflict: policy))
            .plan(
                local: Snapshot([kept.1]), remote: Snapshot([F.listed("f", 11, 7200), kept.0]), records: records,
                partials: [:])
        #expect(F.kinds(result) == kinds)
        #expect(result.plan.actions.first?.resolution == resolution)
        if resolution == .report {
            #expect(result.plan.actions.first?.reason.contains("use --on-conflict local-wins to delete it") == true)
        }
    }

    /// Times are instants (UTC) standing for the unit of their precision.
    @Test(arguments: [
        (
            FileTime(seconds: 720, granularity: .minute), FileTime(seconds: 779.9, granularity: .exact),
            nil as NewerSide?
        ),
        (FileTime(seconds: 720, granularity: .minute), FileTime(seconds: 780, granularity: .exact), .local),
        (FileTime(seconds: 720, granularity: .minute), FileTime(seconds: 719.9, granularity: .exact), .remote),
        (FileTime(seconds: 86_400, granularity: .day), FileTime(seconds: 100_000, granularity: .exact), nil),
        (FileTime(seconds: 86_400, granularity: .day), FileTime(seconds: 172_800, granularity: .exact), .local),
        (FileTime(seconds: 100, granularity: .second), FileTime(seconds: 100.5, granularity: .exact), nil),
        (FileTime(seconds: 100, granularity: .second), FileTime(seconds: 101, granularity: .exact), .local),
        (FileTime(seconds: 100.5, granularity: .exact), FileTime(seconds: 100.5, granularity: .exact), nil),
        (FileTime(seconds: 100.5, granularity: .exact), FileTime(seconds: 100.0, granularity: .exact), .remote),
        (FileTime(seconds: .nan, granularity: .exact), FileTime(seconds: 100.0, granularity: .exact), nil),
    ])
    func newerWithinPrecision(remote: FileTime, local: FileTime, newer: NewerSide?) {
        #expect(ConflictResolver.newer(remote: remote, local: local) == newer)
    }

    @Test func aMissingTimeCannotTell() {
        let time = FileTime(seconds: 100, granularity: .exact)
        #expect(ConflictResolver.newer(remote: nil, local: time) == nil)
        #expect(ConflictResolver.resolve(.newerWins, remote: time, local: nil) == .keepBoth)
    }

    @Test(arguments: [
        ("notes.conflict-20261201T112233Z.txt", true), ("notes.conflict-20261201T112233Z", true),
        ("n~0123abcd.conflict-20261201T112233Z.txt", true), ("notes.conflict-2026.txt", false),
        ("notes.conflict-20261201X112233Z.txt", false), ("notes.txt", false), (".conflict-", false),
    ])
    func conflictCopyNames(name: String, isCopy: Bool) {
        #expect(ConflictNaming.isConflictCopy(name) == isCopy)
    }

    /// `push --delete` never deletes the device's version a keep-both push kept (no record);
    /// one that was synced (recorded) and deleted here is deleted as usual.
    @Test func pushDeleteKeepsUnrecordedConflictCopies() {
        let kept = (F.listed("keep", 1, 60), F.local("keep", 1, 100))
        let synced = (
            F.listed("b.conflict-20261201T112233Z.txt", 3, 60), F.local("b.conflict-20261201T112233Z.txt", 3, 100)
        )
        let remote = Snapshot([kept.0, F.listed("a.conflict-20261201T112233Z.txt", 5, 60), synced.0])
        let result = PushPlanner(policy: SyncPolicy(direction: .push, deleteExtraneous: true)).plan(
            local: Snapshot([kept.1]), remote: remote, records: F.records([kept, synced]), partials: [:])
        #expect(F.kinds(result) == ["delete_remote b.conflict-20261201T112233Z.txt"])
        #expect(result.plan.notes.contains { $0.hasPrefix("a.conflict-20261201T112233Z.txt: a conflict copy") })
    }
}
