// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// Which minute-precise listed times need MDTM (`ListingPrecision`), from real cases.
@Suite struct ListingPrecisionTests {
    static let minute: Double = 1_764_590_400  // 2025-12-01T12:00:00Z, a whole minute

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var listed: SnapshotEntry
        var recorded: FileTime?
        var lastSync: Double?
        var now: Double
        var asks: Bool
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "minute still open now", listed: Fixture.listed("a", 5, minute), recorded: nil, lastSync: nil,
            now: minute + 30, asks: true),
        Case(
            name: "old file, no record", listed: Fixture.listed("a", 5, minute), recorded: nil, lastSync: nil,
            now: minute + 3600, asks: false),
        Case(
            name: "recorded to the second, minute open at the last sync",
            listed: Fixture.listed("a", 5, minute), recorded: FileTime(seconds: minute + 10, granularity: .second),
            lastSync: minute + 20, now: minute + 3600, asks: true),
        Case(
            name: "recorded to the second, minute closed before the last sync",
            listed: Fixture.listed("a", 5, minute), recorded: FileTime(seconds: minute + 10, granularity: .second),
            lastSync: minute + 600, now: minute + 3600, asks: false),
        Case(
            name: "recorded to the second, no sync completed yet",
            listed: Fixture.listed("a", 5, minute), recorded: FileTime(seconds: minute + 10, granularity: .second),
            lastSync: nil, now: minute + 3600, asks: true),
        Case(
            name: "recorded minute only: MDTM cannot tell against it",
            listed: Fixture.listed("a", 5, minute), recorded: FileTime(seconds: minute, granularity: .minute),
            lastSync: minute + 20, now: minute + 3600, asks: false),
        Case(
            name: "another minute than recorded: the listing tells",
            listed: Fixture.listed("a", 5, minute + 60),
            recorded: FileTime(seconds: minute + 10, granularity: .second), lastSync: minute + 20,
            now: minute + 3600, asks: false),
        Case(
            name: "seconds listed (MLSD)",
            listed: SnapshotEntry(
                path: Fixture.path("a"), kind: .file, size: 5,
                modified: FileTime(seconds: minute, granularity: .second)),
            recorded: nil, lastSync: nil, now: minute + 1, asks: false),
        Case(
            name: "day precision (old LIST line)",
            listed: SnapshotEntry(
                path: Fixture.path("a"), kind: .file, size: 5, modified: FileTime(seconds: minute, granularity: .day)),
            recorded: nil, lastSync: nil, now: minute + 1, asks: false),
    ]

    @Test(arguments: cases)
    func asksOnlyWhereTheMinuteCannotTell(_ test: Case) {
        var records: [RelativePath: FileRecord] = [:]
        if let recorded = test.recorded {
            records[test.listed.path] = FileRecord(
                path: test.listed.path, remoteSize: test.listed.size, remoteModified: recorded, localSize: 5,
                localModified: FileTime(seconds: recorded.seconds, granularity: .exact), digest: nil)
        }
        let asked = ListingPrecision.needsPreciseTime(
            remote: Snapshot([test.listed]), records: records,
            lastSync: test.lastSync.map { Date(timeIntervalSince1970: $0) }, now: Date(timeIntervalSince1970: test.now))
        #expect(asked == (test.asks ? [test.listed.path] : []))
    }

    /// The seconds come from MDTM, the minute from the listing (a zone off by hours still matches
    /// its own listings); the precise time then tells a same-minute rewrite.
    @Test func preciseTimeReplacesTheMinute() {
        let entry = Fixture.listed("a", 5, Self.minute)
        let off = Date(timeIntervalSince1970: Self.minute + 3 * 3600 + 40)  // zone off by 3 h
        let applied = ListingPrecision.applying([entry.path: off], to: Snapshot([entry]))
        #expect(applied[entry.path]?.modified == FileTime(seconds: Self.minute + 40, granularity: .second))
        let planner = PullPlanner(policy: SyncPolicy(direction: .pull))
        let local = Fixture.local("a", 5, Self.minute + 10)
        let recorded = SnapshotEntry(
            path: entry.path, kind: .file, size: 5, modified: FileTime(seconds: Self.minute + 10, granularity: .second))
        let records = Fixture.records([(recorded, local)])
        let stale = planner.plan(remote: Snapshot([entry]), local: Snapshot([local]), records: records, partials: [:])
        #expect(Fixture.kinds(stale).isEmpty, "the minute alone cannot tell")
        let fresh = planner.plan(remote: applied, local: Snapshot([local]), records: records, partials: [:])
        #expect(Fixture.kinds(fresh) == ["download a"])
    }
}
