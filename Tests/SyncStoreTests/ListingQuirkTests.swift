// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

/// Issue 16: why a device lists over the control connection (STAT) is kept across runs.
struct ListingQuirkTests {
    @Test func theListingQuirkIsKeptPerDeviceUntilCleared() throws {
        let folder = try TempFolder()
        var store = try StateStore.open(localRoot: folder.path)
        #expect(try store.listingQuirk(device: "cam") == nil)
        try store.markSynced(device: "cam", at: Date(timeIntervalSince1970: 1_800_000_000))
        try store.setListingQuirk("listing data connections fail (425 Can't open data connection)", device: "cam")
        #expect(try store.listingQuirk(device: "other") == nil)
        store.close()

        store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(
            try store.listingQuirk(device: "cam") == "listing data connections fail (425 Can't open data connection)")
        #expect(try store.lastSync(device: "cam") == Date(timeIntervalSince1970: 1_800_000_000))
        try store.setListingQuirk(nil, device: "cam")
        #expect(try store.listingQuirk(device: "cam") == nil)
    }
}
