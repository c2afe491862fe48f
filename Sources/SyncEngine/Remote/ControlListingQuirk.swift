// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncStore

/// A device whose listings go over the control connection (`STAT`, RFC 959 §4.1.3) because
/// its listing data connections fail: kept in the state (`StateStore.setListingQuirk`) as a
/// hint for later runs, whose first listing tries a data connection once only before STAT,
/// and that forget the quirk when that data connection works.
enum ControlListingQuirk {
    /// Tells `remote` what the state knows: that `device` listed with STAT, and why.
    /// - Returns: the stored reason, nil when the device lists over data connections.
    static func seed(_ remote: RemoteFileSystem, store: StateStore?, device: String) -> String? {
        guard let stored = (try? store?.listingQuirk(device: device)) ?? nil else { return nil }
        var learned = remote.learned
        learned.controlListingHint = stored
        remote.learned = learned
        return stored
    }

    /// After the listing: stores a reason `remote` learned in this run, or forgets the stored
    /// one when this run listed over data connections (neither when `persist` is false: a dry
    /// run), and gives the one note of the device's report, nil when listings used data
    /// connections and nothing was stored.
    /// - Parameter hidesDotNames: true when a folder listed with STAT showed no dot-name
    ///   (`Snapshot.hiddenUnknown`): the note says what that protects.
    static func conclude(
        _ remote: RemoteFileSystem, stored: String?, store: StateStore?, device: String, persist: Bool,
        hidesDotNames: Bool
    ) -> String? {
        guard let reason = remote.learned.controlListing else {
            guard let stored else { return nil }
            if persist { try? store?.setListingQuirk(nil, device: device) }
            return "listings use data connections again (an earlier run listed with STAT: \(stored))"
        }
        let hidden =
            hidesDotNames
            ? "; STAT listings may hide dot-files: nothing named .* is deleted, renamed or overwritten" : ""
        if let stored {
            return "listings go over the control connection (STAT), as learned earlier: \(stored)\(hidden)"
        }
        if persist { try? store?.setListingQuirk(reason, device: device) }
        return "listings go over the control connection (STAT): \(reason)\(hidden)"
    }
}
