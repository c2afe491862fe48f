// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncEngine

/// Issue 13 item 11: the caps on listings per device and per run.
struct ListingBudgetTests {
    private func budgets(device: Int = 100, run: Int = 150) -> (ListingBudget, ListingBudget, ListingBudget) {
        let run = ListingBudget(owner: "the run", limits: .init(bytesInFlight: run, entries: run))
        let limits = ListingBudget.Limits(bytesInFlight: device, entries: device)
        return (
            ListingBudget(owner: "device a", limits: limits, parent: run),
            ListingBudget(owner: "device b", limits: limits, parent: run), run
        )
    }

    @Test func bytesInFlightAreCappedPerDeviceAndFreedAfterTheListing() throws {
        let (a, _, _) = budgets()
        try a.reserve(60, listing: "/x")
        try a.reserve(40, listing: "/y")
        a.release(60)
        try a.reserve(60, listing: "/z")
        #expect(throws: ListingBudgetExceeded.self) { try a.reserve(1, listing: "/w") }
        #expect(a.failure?.description.hasPrefix("listing of '/w' exceeded 100 bytes") == true)
        #expect(a.failure?.description.contains("in total for device a") == true)
        // A device that went over stays failed: its listing ends with this error.
        a.release(100)
        #expect(throws: ListingBudgetExceeded.self) { try a.reserve(1, listing: "/v") }
    }

    @Test func theRunCapsAllDevicesTogetherAndOnlyTheDeviceThatMetItStops() throws {
        let (a, b, run) = budgets()
        try a.reserve(90, listing: "/a1")
        try b.reserve(60, listing: "/b1")
        #expect(throws: ListingBudgetExceeded.self) { try b.reserve(1, listing: "/b2") }
        #expect(b.failure?.description.contains("exceeded 150 bytes of listings at once in total for the run") == true)
        #expect(a.failure == nil)
        #expect(run.failure == nil)
        // What b took is given back to the run: a can go on.
        b.release(60)
        try a.reserve(10, listing: "/a2")
    }

    @Test func entriesAreCountedWhileHeldAndGivenBackWhenPlanned() throws {
        let (a, b, run) = budgets()
        // A tree of any size fits when the walk gives each folder's entries back (issue 17).
        for folder in 0..<1_000 {
            try a.count(entries: 70, listing: "/x\(folder)")
            a.release(entries: 70)
        }
        try a.count(entries: 70, listing: "/x")
        #expect(throws: ListingBudgetExceeded.self) { try a.count(entries: 31, listing: "/y") }
        #expect(
            a.failure?.description.hasPrefix("listing of '/y' exceeded 100 entries held at once in total for device a")
                == true)
        // Over the run's cap: the device stops, the run keeps only what is still held.
        try b.count(entries: 80, listing: "/b1")
        #expect(throws: ListingBudgetExceeded.self) { try b.count(entries: 10, listing: "/b2") }
        a.release(entries: 70)
        b.release(entries: 80)
        try run.count(entries: 150, listing: "/r")
    }

    @Test(arguments: [
        ("", nil), ("1:2:3", nil), ("1:2:3:x", nil), ("0:1:1:1", nil), ("1:2:3:4", [1, 2, 3, 4]),
        ("8388608:1000000:16777216:2000000", [8_388_608, 1_000_000, 16_777_216, 2_000_000]),
    ])
    func limitsComeFromTheEnvironmentOnlyWhenWellFormed(value: String, expected: [Int]?) {
        let (device, run) = ListingBudget.Limits.fromEnvironment(["FTPSYNC_LISTING_LIMITS": value])
        if let expected {
            #expect([device.bytesInFlight, device.entries, run.bytesInFlight, run.entries] == expected)
        } else {
            #expect(device == .device && run == .run)
        }
    }
}
