// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// The device's whole tree as one snapshot, for a planner that needs both sides whole
/// (`SyncPlanner`).
enum DeviceTree {
    /// Every entry below the remote root, listed depth first with names in order (the order
    /// `RemoteWalk` lists ahead in): `root` is the root's listing, read already. A folder not
    /// listed in full is in the snapshot's `unknown`, one whose dot-names may be hidden in its
    /// `hiddenUnknown`; what the filters left out is in its `leftOut`.
    /// - Throws: what `RemoteWalk.listing(of:)` throws (a listing budget, a stop).
    static func list(_ listings: RemoteWalk, root: FolderListing) throws -> Snapshot {
        var entries: [SnapshotEntry] = []
        var unknown = Set<RelativePath>()
        var hidden = Set<RelativePath>()
        var leftOut = Set<RelativePath>()
        // Folders still to list, the next one last.
        var pending: [(RelativePath, FolderListing?)] = [(.root, root)]
        while let (folder, given) = pending.popLast() {
            let listing = try given ?? listings.listing(of: folder)
            if listing.isIncomplete { unknown.insert(folder) }
            if listing.mayHideDotNames { hidden.insert(folder) }
            leftOut.formUnion(listing.snapshot.leftOut)
            var folders: [RelativePath] = []
            for entry in listing.snapshot.entries where entry.path.parent == folder {
                entries.append(entry)
                if entry.kind == .directory { folders.append(entry.path) }
            }
            pending += folders.sorted().reversed().map { ($0, nil) }
        }
        var snapshot = Snapshot(entries)
        snapshot.unknown = unknown
        snapshot.hiddenUnknown = hidden
        snapshot.leftOut = leftOut
        return snapshot
    }
}
