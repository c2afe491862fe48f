// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

extension StateStore {
    /// Stores the offset of `device`'s clock from ours, in seconds (positive: the device runs
    /// ahead), as a run measured it; a value that is not finite is stored as unknown.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setClockOffset(_ seconds: Double, device: String) throws(StoreError) {
        try setDeviceColumn("clock_offset", seconds.isFinite ? .real(seconds) : .null, device: device)
    }

    /// The offset of `device`'s clock from ours (seconds) the last run that measured it found;
    /// nil when none did.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func clockOffset(device: String) throws(StoreError) -> Double? {
        try deviceColumn("clock_offset", device: device) { $0.isNull(0) ? nil : $0.real(0) }
    }
}
