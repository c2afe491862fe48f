// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Names only a killed ftpsync leaves beside a user's file, never synced in either direction
/// (like `UploadNaming` temporaries): 0.1.0's copies across file systems, `NAME.ftpsync-copy`,
/// which its push could upload to a device.
public enum LeftoverNaming {
    /// What 0.1.0 appended to a name while copying it across file systems.
    public static let copySuffix = ".ftpsync-copy"

    /// True for `NAME.ftpsync-copy` (a non-empty NAME): a leftover, on either side.
    public static func isLeftover(name: String) -> Bool {
        name.hasSuffix(copySuffix) && name.utf8.count > copySuffix.utf8.count
    }

    /// True when the last component of `path` is a leftover (`isLeftover(name:)`).
    public static func isLeftover(_ path: RelativePath) -> Bool {
        // Nearly every path fails this byte test (the name must end in `y`).
        guard path.string.utf8.last == UInt8(ascii: "y") else { return false }
        return isLeftover(name: path.name)
    }
}
