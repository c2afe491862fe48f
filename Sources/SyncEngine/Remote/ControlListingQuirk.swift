import SyncStore

/// A device whose listings go over the control connection (`STAT`, RFC 959 §4.1.3) because
/// its listing data connections fail: kept in the state (`StateStore.setListingQuirk`), so a
/// later run lists with STAT at once instead of waiting for data connections that never come.
enum ControlListingQuirk {
    /// Tells `remote` what the state knows: that `device` lists with STAT, and why.
    /// - Returns: the stored reason, nil when the device lists over data connections.
    static func seed(_ remote: RemoteFileSystem, store: StateStore?, device: String) -> String? {
        guard let stored = (try? store?.listingQuirk(device: device)) ?? nil else { return nil }
        var learned = remote.learned
        learned.controlListing = stored
        remote.learned = learned
        return stored
    }

    /// After the listing: stores a reason `remote` learned in this run (unless `persist` is
    /// false: a dry run) and gives the one note of the device's report, nil when listings
    /// used data connections.
    static func conclude(
        _ remote: RemoteFileSystem, stored: String?, store: StateStore?, device: String, persist: Bool
    ) -> String? {
        guard let reason = remote.learned.controlListing ?? stored else { return nil }
        if let stored { return "listings go over the control connection (STAT), as learned earlier: \(stored)" }
        if persist { try? store?.setListingQuirk(reason, device: device) }
        return "listings go over the control connection (STAT): \(reason)"
    }
}
