// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// An entry that could not be synced: a hostile or unreadable name, a listing line that could
/// not be read, a local name that cannot be sent, a symlink in the way, a type change that was
/// not applied. Any of these makes the device `partial` (exit 1); informational notes (files left
/// by `min_age`, kept files without `--delete`) are not skipped entries.
public struct SkippedEntry: Sendable, Hashable, Codable {
    /// The entry's path relative to the device root, `/`-separated, as far as it could be read
    /// (escaped text for names that are not valid paths); `/` for the root itself.
    public var path: String
    /// Why it was skipped, one line.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// An entry of the tree: `SkippedEntry(entry.path, reason: "…")`; the root shows as `/`.
    public init(_ path: RelativePath, reason: String) {
        self.init(path: path.isRoot ? "/" : path.string, reason: reason)
    }

    /// `path: reason`, the form of a note or an error line.
    public var line: String { "\(path): \(reason)" }
}
