// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The local file being uploaded could not be read (an I/O error, a descriptor that is not
/// a readable file).
public struct LocalReadError: Error, CustomStringConvertible, Sendable {
    /// The `errno` value.
    public var code: Int32

    public var description: String { "reading the local file: \(String(cString: strerror(code)))" }
}
