// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncStore

/// A device whose server does not understand `LIST -a` (it refused `-a` or took it for a
/// path) and gets plain `LIST`: kept in the state (`StateStore.setHiddenListingQuirk`), so
/// that later runs send plain `LIST` at once (issue 19).
enum PlainListQuirk {
    /// Tells `remote` what the state knows: that `device`'s server gets plain `LIST`, and why.
    /// - Returns: the stored reason, nil when none is stored.
    static func seed(_ remote: RemoteFileSystem, store: StateStore?, device: String) -> String? {
        guard let stored = (try? store?.hiddenListingQuirk(device: device)) ?? nil else { return nil }
        var learned = remote.learned
        learned.plainList = stored
        remote.learned = learned
        return stored
    }

    /// After the listing: stores a reason `remote` learned in this run (not when `persist` is
    /// false: a dry run) and gives the note of the device's report, nil when nothing new was
    /// learned.
    static func conclude(
        _ remote: RemoteFileSystem, stored: String?, store: StateStore?, device: String, persist: Bool
    ) -> String? {
        guard stored == nil, let reason = remote.learned.plainList else { return nil }
        if persist { try? store?.setHiddenListingQuirk(reason, device: device) }
        return "\(reason): dot files the server hides from LIST are not seen"
    }
}
