// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

extension LocalScanner {
    /// What `TreeFolder.place` links an anonymous download as, just before renaming it over an
    /// existing name: `.ftpsync-link-<pid>-<n>` plus `UploadNaming.suffix`.
    public static let linkPrefix = ".ftpsync-link-"

    /// True for a name that only a killed ftpsync leaves in the user's tree (a copy across file
    /// systems of 0.1.0, `NAME.ftpsync-copy`; a link before its rename, `.ftpsync-link-…`):
    /// never a user's file, never synced either way; pull moves it to the trash.
    public static func isLeftover(_ name: String) -> Bool {
        if LeftoverNaming.isLeftover(name: name) { return true }
        return name.hasPrefix(linkPrefix) && name.hasSuffix(UploadNaming.suffix)
    }
}
