// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

/// Issue 20: why a device's server gets its transfer commands one at a time is kept across runs
/// (schema 14).
struct PipelineQuirkTests {
    @Test func thePipelineQuirkIsKeptPerDeviceUntilCleared() throws {
        let folder = try TempFolder()
        var store = try StateStore.open(localRoot: folder.path)
        #expect(try store.pipelineQuirk(device: "cam") == nil)
        try store.setKeepaliveQuirk("NOOP refused", device: "cam")
        try store.setPipelineQuirk("no reply to RETR a sent right after EPSV within 5 s", device: "cam")
        #expect(try store.pipelineQuirk(device: "other") == nil)
        store.close()

        store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.pipelineQuirk(device: "cam") == "no reply to RETR a sent right after EPSV within 5 s")
        #expect(try store.keepaliveQuirk(device: "cam") == "NOOP refused", "its own column")
        try store.setPipelineQuirk(nil, device: "cam")
        #expect(try store.pipelineQuirk(device: "cam") == nil)
    }

    @Test func aVersionThirteenStateGainsTheColumnAndKeepsItsRows() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(13, in: folder.path)
        try connection.execute("INSERT INTO devices (name, last_sync, keepalive_quirk) VALUES ('cam', 1800000000, 'x')")
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
        #expect(try store.pipelineQuirk(device: "cam") == nil)
        #expect(try store.keepaliveQuirk(device: "cam") == "x")
        #expect(try store.devices().first?.lastSync == Date(timeIntervalSince1970: 1_800_000_000))
    }
}
