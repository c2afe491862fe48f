// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation

/// The `YYYYMMDDHHMMSS[.sss]` time values of MDTM, MFMT and MLSD (RFC 3659 §2.3), always UTC.
public enum FTPTime {
    /// Parses a time value; a fraction of any length is kept. Year fields `19100`...`19199`
    /// from Y2K-era servers (`"19"` + years since 1900) are read as 2000...2099.
    /// - Returns: the instant, or nil when the text is not a valid time value.
    public static func parse(_ text: String) -> Date? {
        ListingParser.parseTimeVal(text.trimmingSpaces())?.date
    }

    /// Formats `date` as `YYYYMMDDHHMMSS` in UTC, whole seconds (rounded down).
    public static func format(_ date: Date) -> String {
        UTCFields(date).timeVal
    }
}
