// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

/// Schema 10: the device clock's offset the last run measured, kept for the next to compare.
struct ClockOffsetStoreTests {
    @Test func theOffsetIsKeptPerDeviceAndUnknownUntilStored() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.clockOffset(device: "cam") == nil)
        try store.setClockOffset(-63_072_000, device: "cam")
        try store.setClockOffset(0, device: "nas")
        #expect(try store.clockOffset(device: "cam") == -63_072_000)
        #expect(try store.clockOffset(device: "nas") == 0)
        try store.setClockOffset(.infinity, device: "cam")
        #expect(try store.clockOffset(device: "cam") == nil)
    }

    @Test func aVersionNineStateGainsTheColumnAndKeepsItsRows() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(9, in: folder.path)
        try connection.execute("INSERT INTO devices (name, last_sync) VALUES ('cam', 1800000000)")
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
        #expect(try store.clockOffset(device: "cam") == nil)
        #expect(try store.devices().first?.lastSync == Date(timeIntervalSince1970: 1_800_000_000))
    }
}
