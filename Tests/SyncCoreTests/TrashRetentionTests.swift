// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// `trash_retention`'s decision, with a fixed clock: which trash folders a pull removes.
struct TrashRetentionTests {
    /// 2026-12-02T03:00:00Z, the decision's "now"; the run began ten minutes earlier.
    private let now = Date(timeIntervalSince1970: 1_796_180_400)
    private var runStarted: Date { now.addingTimeInterval(-600) }
    private let day = 86_400

    private func verdict(ageSeconds: Double?, retention: Int) -> TrashRetention.Verdict {
        TrashRetention.verdict(
            stamp: ageSeconds.map { now.addingTimeInterval(-$0) }, now: now, runStarted: runStarted,
            retentionSeconds: retention)
    }

    /// (age of the stamp in seconds, retention in seconds, verdict).
    private static let table: [(Double, Int, TrashRetention.Verdict)] = [
        (31 * 86_400, 30 * 86_400, .remove),
        (30 * 86_400 + 1, 30 * 86_400, .remove),
        (30 * 86_400, 30 * 86_400, .keep),  // exactly as old as the retention: not older
        (29 * 86_400, 30 * 86_400, .keep),
        (3_601, 3_600, .remove),
        (400 * 86_400, 0, .keep),  // 0 keeps forever
        (400 * 86_400, -5, .keep),
        (-3_600, 60, .keep),  // a stamp in the future (a clock set back)
    ]

    @Test func theDecisionTable() {
        for (age, retention, expected) in Self.table {
            #expect(
                verdict(ageSeconds: age, retention: retention) == expected, "age \(age) s, retention \(retention) s")
        }
    }

    @Test func aNameThatIsNoStampIsNotTheTrashs() {
        #expect(verdict(ageSeconds: nil, retention: 30 * day) == .notAStamp)
        #expect(verdict(ageSeconds: nil, retention: 0) == .notAStamp)
    }

    /// What this run moved to the trash is stamped at or after its start (to the second,
    /// rounded down): kept whatever the retention, even one shorter than the run.
    @Test func thisRunsFoldersAreKept() {
        let started = Date(timeIntervalSince1970: 1_796_180_000.75)
        let ownSecond = Date(timeIntervalSince1970: 1_796_180_000)
        let later = now
        for stamp in [ownSecond, started.addingTimeInterval(5)] {
            #expect(TrashRetention.verdict(stamp: stamp, now: later, runStarted: started, retentionSeconds: 1) == .keep)
        }
        let before = Date(timeIntervalSince1970: 1_796_179_999)
        #expect(TrashRetention.verdict(stamp: before, now: later, runStarted: started, retentionSeconds: 1) == .remove)
    }

    @Test func damagedTimesNeverRemove() {
        let nan = Date(timeIntervalSince1970: .nan)
        #expect(TrashRetention.verdict(stamp: nan, now: now, runStarted: runStarted, retentionSeconds: 60) == .keep)
        let old = now.addingTimeInterval(-10 * 86_400)
        #expect(TrashRetention.verdict(stamp: old, now: nan, runStarted: runStarted, retentionSeconds: 60) == .keep)
        #expect(TrashRetention.verdict(stamp: old, now: now, runStarted: nan, retentionSeconds: 60) == .keep)
    }
}
