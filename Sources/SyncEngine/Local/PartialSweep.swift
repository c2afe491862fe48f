// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncStore

/// Removes files of the device's partial folder (`.ftpsync/partial/<device>/`) that no partial
/// row of the state names: the bytes of a small download killed midway (small downloads store
/// no row, see `PullExecutor.smallFileLimit`), left behind when the file is gone from the
/// device. Run after all of a run's transfers ended, so no file is being written. Files named
/// by a row (resumable downloads) are kept; an unreadable folder or state is left alone.
/// - Returns: the number of files removed.
@discardableResult
func sweepUnnamedPartials(paths: LocalPaths, store: StateStore) -> Int {
    guard let rows = try? store.partials(device: paths.device, direction: .pull) else { return 0 }
    // Compared by file name: the rows hold full paths, and the tree's root may be spelled
    // differently from one run to the next.
    let named = Set(rows.values.map { ($0.tempName as NSString).lastPathComponent })
    // Walked from the tree's root without following a symlink: nothing outside is removed.
    guard
        let folder = try? TreeFolder.openRoot(paths.treeRoot, create: false).folder(
            ".ftpsync/partial/" + paths.device, create: false),
        let names = try? folder.names()
    else { return 0 }
    var removed = 0
    for name in names where !named.contains(name) {
        // Only regular files: anything else there was not made by a download.
        guard let status = try? folder.status(name), status.kind == .file,
            status.identity.size <= PullExecutor.smallFileLimit
        else { continue }
        if (try? folder.removeFile(name)) == true { removed += 1 }
    }
    return removed
}
