// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

/// Issue 19: why a device's server gets plain LIST (not `LIST -a`) is kept across runs.
struct HiddenListingQuirkTests {
    @Test func theHiddenListingQuirkIsKeptPerDeviceUntilCleared() throws {
        let folder = try TempFolder()
        var store = try StateStore.open(localRoot: folder.path)
        #expect(try store.hiddenListingQuirk(device: "cam") == nil)
        try store.setListingQuirk("listing data connections fail", device: "cam")
        try store.setHiddenListingQuirk("the server does not understand LIST -a (it answered 501 x)", device: "cam")
        #expect(try store.hiddenListingQuirk(device: "other") == nil)
        store.close()

        store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(
            try store.hiddenListingQuirk(device: "cam") == "the server does not understand LIST -a (it answered 501 x)")
        #expect(try store.listingQuirk(device: "cam") == "listing data connections fail", "its own column")
        try store.setHiddenListingQuirk(nil, device: "cam")
        #expect(try store.hiddenListingQuirk(device: "cam") == nil)
    }

    @Test func aVersionTenStateGainsTheColumnAndKeepsItsRows() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(10, in: folder.path)
        try connection.execute("INSERT INTO devices (name, last_sync) VALUES ('cam', 1800000000)")
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
        #expect(try store.hiddenListingQuirk(device: "cam") == nil)
        #expect(try store.devices().first?.lastSync == Date(timeIntervalSince1970: 1_800_000_000))
    }
}
