// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Why a plan's spool could not keep or give back an action.
enum SpoolError: Error, Equatable, CustomStringConvertible {
    /// What was read back is not what was written (a damaged or cut file): what was wrong.
    case damaged(reason: String)
    /// The action at `path` encodes to more than `ActionCoding.maxEncodedSize` bytes.
    case actionTooLarge(path: String, bytes: Int)

    /// The failure as one line of text.
    var description: String {
        switch self {
        case .damaged(let reason): return "the plan's spool is damaged: \(reason)"
        case .actionTooLarge(let path, let bytes):
            return "the action on '\(path)' is too large to spool (\(bytes) bytes encoded)"
        }
    }
}
