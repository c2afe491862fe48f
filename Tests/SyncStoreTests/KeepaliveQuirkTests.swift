// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

/// Issue 19: why a device's server gets no NOOP during transfers is kept across runs (schema 12).
struct KeepaliveQuirkTests {
    @Test func theKeepaliveQuirkIsKeptPerDeviceUntilCleared() throws {
        let folder = try TempFolder()
        var store = try StateStore.open(localRoot: folder.path)
        #expect(try store.keepaliveQuirk(device: "cam") == nil)
        try store.setHiddenListingQuirk("plain LIST", device: "cam")
        try store.setKeepaliveQuirk("the server answered NOOP during a transfer with 500 x", device: "cam")
        #expect(try store.keepaliveQuirk(device: "other") == nil)
        store.close()

        store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.keepaliveQuirk(device: "cam") == "the server answered NOOP during a transfer with 500 x")
        #expect(try store.hiddenListingQuirk(device: "cam") == "plain LIST", "its own column")
        try store.setKeepaliveQuirk(nil, device: "cam")
        #expect(try store.keepaliveQuirk(device: "cam") == nil)
    }

    @Test func aVersionElevenStateGainsTheColumnAndKeepsItsRows() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(11, in: folder.path)
        try connection.execute(
            "INSERT INTO devices (name, last_sync, hidden_listing_quirk) VALUES ('cam', 1800000000, 'plain')")
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
        #expect(try store.keepaliveQuirk(device: "cam") == nil)
        #expect(try store.hiddenListingQuirk(device: "cam") == "plain")
        #expect(try store.devices().first?.lastSync == Date(timeIntervalSince1970: 1_800_000_000))
    }
}
