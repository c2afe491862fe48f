// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// An error in the configuration file: where it is and what is wrong.
///
/// `description` is `FILE:LINE:COLUMN: message`, or `FILE: message` when the error has no
/// position (the file could not be read). The CLI prints it and exits with code 2.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration file's path as the user gave it.
    public let file: String
    /// 1-based line of the offending item, or nil when the error concerns the whole file.
    public let line: Int?
    /// 1-based column (in characters) of the offending item, or nil with `line`.
    public let column: Int?
    /// What is wrong, without the position prefix. Never contains a password.
    public let message: String

    /// Creates an error at `position` (nil: the whole file).
    public init(file: String, position: SourcePosition?, message: String) {
        self.file = file
        self.line = position?.line
        self.column = position?.column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`, or `FILE: message` without a position.
    public var description: String {
        if let line, let column {
            return "\(file):\(line):\(column): \(message)"
        }
        return "\(file): \(message)"
    }
}
