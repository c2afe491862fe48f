// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

extension PullPlanner {
    /// Plans as the engine does when every move candidate's content was proven the same: once,
    /// then again with all candidates confirmed.
    func planConfirmingMoves(
        remote: Snapshot, local: Snapshot, records: [RelativePath: FileRecord],
        partials: [RelativePath: PartialTransfer] = [:]
    ) -> PlanResult {
        let first = plan(remote: remote, local: local, records: records, partials: partials)
        guard !first.moveCandidates.isEmpty else { return first }
        return plan(
            remote: remote, local: local, records: records, partials: partials,
            evidence: MoveEvidence(confirmed: Set(first.moveCandidates)))
    }
}

/// Remote moves need evidence of identity: size and time only propose one.
@Suite struct MoveEvidenceTests {
    typealias F = Fixture
    static let clipSize: UInt64 = 52_428_800

    /// One clip synced as `a.mp4`; the device now lists `b.mp4` of the same size and time instead,
    /// plus `others` more clips of that size at `othersTime`.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var time: Double
        var others: Int
        var othersTime: Double
        var defaultTime: Bool
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "camera without a clock (2000-01-01)", time: 946_684_800, others: 0, othersTime: 0, defaultTime: true),
        Case(name: "before 2001", time: 978_307_199, others: 0, othersTime: 0, defaultTime: true),
        Case(
            name: "3 files share one time", time: 1_700_000_000, others: 2, othersTime: 1_700_000_000, defaultTime: true
        ),
        Case(name: "an ordinary time", time: 1_700_000_000, others: 2, othersTime: 1_700_000_060, defaultTime: false),
    ]

    static func sides(_ c: Case) -> (remote: Snapshot, local: Snapshot, records: [RelativePath: FileRecord]) {
        let old = (F.listed("DCIM/a.mp4", clipSize, c.time), F.local("DCIM/a.mp4", clipSize, c.time))
        let others = (0..<c.others).map { i in
            (F.listed("DCIM/o\(i).mp4", clipSize, c.othersTime), F.local("DCIM/o\(i).mp4", clipSize, c.othersTime))
        }
        let remote = Snapshot([F.folder("DCIM"), F.listed("DCIM/b.mp4", clipSize, c.time)] + others.map(\.0))
        let local = Snapshot([F.folder("DCIM"), old.1] + others.map(\.1))
        return (remote, local, F.records([old] + others))
    }

    /// Without evidence the new clip is downloaded and the old one kept (no `--delete`) or
    /// trashed (`--delete`): never a rename of the old bytes to the new name.
    @Test(arguments: cases, [false, true])
    func sizeAndTimeAloneNeverRename(c: Case, delete: Bool) {
        let (remote, local, records) = Self.sides(c)
        let planner = PullPlanner(policy: SyncPolicy(direction: .pull, deleteExtraneous: delete))
        let result = planner.plan(remote: remote, local: local, records: records, partials: [:])
        #expect(F.kinds(result) == ["download DCIM/b.mp4"] + (delete ? ["delete_local DCIM/a.mp4"] : []))
        #expect(result.plan.count(.renameLocal) == 0)
        if !delete {
            #expect(result.plan.notes.contains { $0.contains("DCIM/a.mp4 kept here") })
        }
    }

    /// The candidate is proposed (with its time marked a default or not); confirmed, it is a
    /// rename; refuted, a download with the finding in the note.
    @Test(arguments: cases)
    func evidenceDecides(c: Case) throws {
        let (remote, local, records) = Self.sides(c)
        let planner = PullPlanner(policy: SyncPolicy(direction: .pull))
        let first = planner.plan(remote: remote, local: local, records: records, partials: [:])
        let candidate = try #require(first.moveCandidates.first)
        #expect(first.moveCandidates.count == 1)
        #expect(candidate.from.string == "DCIM/a.mp4" && candidate.to.string == "DCIM/b.mp4")
        #expect(candidate.size == Self.clipSize)
        #expect(candidate.defaultTime == c.defaultTime)

        let confirmed = planner.plan(
            remote: remote, local: local, records: records, partials: [:],
            evidence: MoveEvidence(confirmed: [candidate]))
        #expect(F.kinds(confirmed) == ["rename_local DCIM/a.mp4 -> DCIM/b.mp4"])

        let refuted = planner.plan(
            remote: remote, local: local, records: records, partials: [:],
            evidence: MoveEvidence(findings: [candidate: "the sampled bytes differ"]))
        #expect(F.kinds(refuted) == ["download DCIM/b.mp4"])
        #expect(refuted.plan.notes.contains { $0.contains("(the sampled bytes differ)") })
    }

    /// Evidence for another pair (stale, or made up) confirms nothing.
    @Test func evidenceForAnotherPairIsIgnored() {
        let (remote, local, records) = Self.sides(Self.cases[0])
        let other = MoveCandidate(from: F.path("DCIM/x.mp4"), to: F.path("DCIM/b.mp4"), size: 1, defaultTime: true)
        let result = PullPlanner(policy: SyncPolicy(direction: .pull)).plan(
            remote: remote, local: local, records: records, partials: [:], evidence: MoveEvidence(confirmed: [other]))
        #expect(F.kinds(result) == ["download DCIM/b.mp4"])
    }

    /// (time in seconds since 1970, how many files of the listing have it, default?)
    @Test(arguments: [
        (946_684_800.0, 1, true), (978_307_199, 1, true), (978_307_200, 1, false), (1_700_000_000, 2, false),
        (1_700_000_000, 3, true), (1_700_000_000, 40, true), (-1, 1, true),
    ])
    func defaultTimes(seconds: Double, files: Int, isDefault: Bool) {
        let listing = Snapshot(
            (0..<files).map { F.listed("f\($0)", 1, seconds) } + [F.listed("other", 1, 1_600_000_000)])
        #expect(
            DefaultTimes(listing).isDefault(FileTime(seconds: seconds, granularity: .minute)) == isDefault)
    }

    /// (size, the sampled ranges as offset:count)
    static let sampled: [(UInt64, [String])] = [
        (0, []), (1, ["0:1"]), (12_288, ["0:12288"]), (12_289, ["0:4096", "4096:4096", "8193:4096"]),
        (1_048_576, ["0:4096", "522240:4096", "1044480:4096"]),
        (UInt64.max, ["0:4096", "9223372036854773759:4096", "18446744073709547519:4096"]),
    ]

    @Test(arguments: sampled)
    func sampledRanges(size: UInt64, expected: [String]) {
        #expect(SampledRanges.ranges(size: size).map { "\($0.offset):\($0.count)" } == expected)
    }
}
