// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

/// A run a cap stopped (`stopped`, exit 5) is recorded as the device's last attempt but is no
/// failure: it neither starts nor lengthens nor ends a run of failures.
struct CapAttemptTests {
    private func attempt(_ seconds: Double, _ status: String) -> DeviceAttempt {
        DeviceAttempt(
            at: Date(timeIntervalSince1970: 1_800_000_000 + seconds), status: status,
            error: status == "ok" ? nil : "why", filesTransferred: 1)
    }

    @Test func aStoppedRunLeavesTheFailuresInARowAsTheyWere() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        try store.markAttempt(device: "cam", attempt(0, "stopped"))
        #expect(try store.health(device: "cam").consecutiveFailures == 0)
        #expect(try store.health(device: "cam").failingSince == nil)
        #expect(try store.lastAttempt(device: "cam") == attempt(0, "stopped"))
        try store.markAttempt(device: "cam", attempt(60, "failed"))
        try store.markAttempt(device: "cam", attempt(120, "stopped"))
        let failing = try store.health(device: "cam")
        #expect(failing.consecutiveFailures == 1)
        #expect(failing.failingSince == Date(timeIntervalSince1970: 1_800_000_060))
        #expect(failing.lastAttempt?.status == "stopped")
        #expect(attempt(0, "stopped").stoppedByCap && !attempt(0, "stopped").failed)
        #expect(attempt(0, "partial").failed && !attempt(0, "ok").failed)
    }
}
