// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

/// What one look at a local file (`LocalFileSystem.status`) says about its content: size and
/// modification time, and the status-change time, which every write, truncation, `touch` or
/// rename moves and nobody can set back.
struct LocalFileStamp: Equatable {
    var size: UInt64
    var modified: FileTime
    /// The status-change time in nanoseconds since 1970 UTC.
    var changed: Int64

    /// The stamp of the file at `path` (a final symlink not followed); nil when it cannot be read.
    init?(_ path: String) {
        guard let status = try? LocalFileSystem().status(at: path) else { return nil }
        size = status.identity.size
        modified = status.identity.modified
        changed = status.changeNanoseconds
    }
}
