// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncEngine

/// Issue 20: when a run of transfers opens more connections (`ConnectionGrowth`), on a clock
/// and counts given here.
struct ConnectionGrowthTests {
    /// A round-trip-bound run: every step's connections move proportionally more; it grows by
    /// half again each time, up to the ceiling.
    @Test func aRunThatGetsFasterGrowsToTheCeiling() {
        var growth = ConnectionGrowth(ceiling: 16)
        var workers = 4
        var time = 0.0
        var transfers = 0
        #expect(growth.widens(now: time, bytes: 0, transfers: 0, workers: workers, waiting: 100) == 0)
        var steps: [Int] = []
        for _ in 0..<20 {
            time += 0.6
            transfers += 20 * workers  // each connection 20 files per 0.6 s
            let more = growth.widens(
                now: time, bytes: UInt64(transfers) * 4_096, transfers: transfers, workers: workers, waiting: 100)
            if more > 0 { steps.append(more) }
            workers += more
        }
        #expect(steps == [2, 3, 4, 3], "4 -> 6 -> 9 -> 13 -> 16")
        #expect(workers == 16)
    }

    /// A run bound by something else (the link's bandwidth, the disk): the first step gains
    /// nothing and the growth stops there.
    @Test func aRunThatDoesNotGetFasterStopsGrowing() {
        var growth = ConnectionGrowth(ceiling: 16)
        var workers = 2
        var transfers = 0
        _ = growth.widens(now: 0, bytes: 0, transfers: 0, workers: workers, waiting: 100)
        var time = 0.0
        for _ in 0..<10 {
            time += 0.6
            transfers += 50  // the same rate whatever the connections
            workers += growth.widens(
                now: time, bytes: UInt64(transfers) * 4_096, transfers: transfers, workers: workers, waiting: 100)
        }
        #expect(workers == 3)
        #expect(growth.stopped)
    }

    /// Nothing is opened for a run with no more waiting than working, or one too short to measure.
    @Test func nothingIsOpenedWithoutWorkWaitingOrAMeasure() {
        var growth = ConnectionGrowth(ceiling: 16)
        _ = growth.widens(now: 0, bytes: 0, transfers: 0, workers: 4, waiting: 3)
        #expect(growth.widens(now: 0.6, bytes: 100_000, transfers: 40, workers: 4, waiting: 3) == 0)
        #expect(growth.widens(now: 0.7, bytes: 200_000, transfers: 60, workers: 4, waiting: 50) == 0, "under 0.5 s")
        var short = ConnectionGrowth(ceiling: 16)
        _ = short.widens(now: 0, bytes: 0, transfers: 0, workers: 4, waiting: 50)
        #expect(short.widens(now: 2, bytes: 1_000, transfers: 5, workers: 4, waiting: 50) == 0, "too few transfers")
    }
}
