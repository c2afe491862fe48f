// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

/// Schema 9: a device's failures in a row since its last `ok` run, what the last run moved, and
/// its recent transitions (`status`, `status --events`, the metrics file).
struct HealthTests {
    private func attempt(_ seconds: Double, _ status: String) -> DeviceAttempt {
        DeviceAttempt(
            at: Date(timeIntervalSince1970: 1_800_000_000 + seconds), status: status,
            error: status == "ok" ? nil : "connection refused", filesTransferred: 3, bytesTransferred: 4_096,
            failures: status == "ok" ? 0 : 2, seconds: 1.5)
    }

    @Test func failuresInARowCountFromTheFirstAndAnOkRunClearsThem() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        try store.markAttempt(device: "cam", attempt(0, "ok"))
        #expect(try store.health(device: "cam").consecutiveFailures == 0)
        try store.markAttempt(device: "cam", attempt(60, "failed"))
        try store.markAttempt(device: "cam", attempt(120, "partial"))
        try store.markAttempt(device: "cam", attempt(180, "refused"))
        let failing = try store.health(device: "cam")
        #expect(failing.consecutiveFailures == 3)
        #expect(failing.failingSince == Date(timeIntervalSince1970: 1_800_000_060))
        #expect(failing.lastAttempt == attempt(180, "refused"))
        try store.markAttempt(device: "cam", attempt(240, "ok"))
        let back = try store.health(device: "cam")
        #expect(back.consecutiveFailures == 0)
        #expect(back.failingSince == nil)
        #expect(back.lastAttempt?.bytesTransferred == 4_096)
        #expect(back.lastAttempt?.seconds == 1.5)
    }

    @Test func aFirstRunThatFailsStartsTheCount() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        try store.markAttempt(device: "cam", attempt(0, "failed"))
        #expect(try store.health(device: "cam").consecutiveFailures == 1)
        #expect(try store.health(device: "cam").failingSince == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(
            try store.health(device: "nas") == DeviceHealth(lastAttempt: nil, consecutiveFailures: 0, failingSince: nil)
        )
    }

    @Test func aVersionEightStateKeepsItsAttemptAndReadsZerosForTheNewColumns() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(8, in: folder.path)
        try connection.execute(
            "INSERT INTO devices (name, last_attempt, last_status, last_transferred) VALUES ('cam', 1800000000, 'failed', 2)"
        )
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        let health = try store.health(device: "cam")
        #expect(health.lastAttempt?.status == "failed")
        #expect(health.lastAttempt?.filesTransferred == 2)
        #expect(health.lastAttempt?.bytesTransferred == 0)
        #expect(health.consecutiveFailures == 0)
    }

    @Test func eventsComeNewestFirstAndOnlyTheLastHundredOfADeviceAreKept() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        for index in 0..<105 {
            try store.recordEvent(
                DeviceEvent(
                    device: "cam", at: Date(timeIntervalSince1970: Double(index)),
                    kind: index.isMultiple(of: 2) ? .offline : .back, detail: "run \(index)"))
        }
        try store.recordEvent(
            DeviceEvent(device: "nas", at: Date(timeIntervalSince1970: 500), kind: .deleteGuard, detail: nil))
        let cam = try store.recentEvents(device: "cam", limit: 1_000)
        #expect(cam.count == StateStore.eventsKeptPerDevice)
        #expect(cam.first?.detail == "run 104")
        #expect(cam.last?.detail == "run 5")
        let all = try store.recentEvents(limit: 2)
        #expect(all.map(\.device) == ["nas", "cam"])
        #expect(all.first?.kind == .deleteGuard)
    }
}
