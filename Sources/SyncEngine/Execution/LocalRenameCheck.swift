// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import LocalTree
import SyncCore

/// The check right before a pull renames a local file the way the device moved it.
enum LocalRenameCheck {
    /// Checks, right before a local rename of `path` to `to`, that nothing is at the new name
    /// (`occupied`) and that the file (`current`, its status now) is still what `record` (the
    /// last sync) says, so a rename never replaces a file and never carries a local change away.
    /// - Throws: `EngineError.renameRefused` when either does not hold.
    static func check(
        _ path: RelativePath, current: LocalFileStatus?, to: RelativePath, occupied: Bool, record: FileRecord?
    ) throws(EngineError) {
        if let record, let now = current,
            now.kind != .file || now.identity.size != record.localSize
                || !now.identity.modified.matches(record.localModified)
        {
            throw .renameRefused(path: path.string, to: to.string, reason: "it changed here since the last sync")
        }
        if occupied { throw .renameRefused(path: path.string, to: to.string, reason: "something is already there") }
    }
}
