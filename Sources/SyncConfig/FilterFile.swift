// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// A filter file (`filter_from`, `--filter-from`): lines `+ GLOB` or `- GLOB`, `#` comments and
/// blank lines (`FilterRule.parseFile`).
public enum FilterFile {
    /// The largest filter file read: 4 MiB.
    public static let maximumBytes = 4 << 20

    /// The rules of the filter file at `path`, in file order.
    /// - Throws: `ConfigError` `FILE:LINE:1: message` for a line that is no rule, comment or
    ///   blank; `FILE: message` when the file cannot be read, is no regular file (a FIFO or
    ///   device: every device reads it, so it must read the same each time), is larger than
    ///   `maximumBytes` or is not UTF-8.
    public static func rules(at path: String) throws(ConfigError) -> [FilterRule] {
        let bytes: [UInt8]
        do {
            bytes = try readFile(atPath: path, limit: maximumBytes, regularOnly: true)
        } catch {
            let message =
                switch error.code {
                case EFBIG: "the filter file is larger than \(maximumBytes >> 20) MiB"
                case EINVAL:
                    "the filter file is not a regular file (a pipe or device reads differently each time: write the rules to a file)"
                default: "cannot read the filter file: \(error.reason)"
                }
            throw ConfigError(file: path, position: nil, message: message)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: path, position: nil, message: "the filter file is not UTF-8 text")
        }
        do {
            return try FilterRule.parseFile(text)
        } catch {
            throw ConfigError(
                file: path, position: SourcePosition(line: error.line, column: 1), message: error.message)
        }
    }
}
