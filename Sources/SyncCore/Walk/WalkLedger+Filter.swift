// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What the filters leave out of a folder walk: no file they leave out is copied or deleted,
/// on either side, and no folder holding one is deleted (rclone's rule).
extension WalkLedger {
    /// One folder's sides and records without the paths either side's entry is left out of:
    /// by the scanners' glob rules (`Snapshot.leftOut`; a rule `x/` leaves out a folder `x`, not
    /// a file `x` on the other side) or by `policy.bounds` (`FileBounds`). A path left out on
    /// one side is left out on both, and its record stays (neither forgotten nor a move's
    /// source). The destination folders holding what was left out are kept from deletes.
    mutating func filtered(source: Snapshot, destination: Snapshot, records: RecordTable)
        -> (source: Snapshot, destination: Snapshot, records: RecordTable)
    {
        for path in destination.leftOut {
            keepFromDeletes(path.parent)
            // The source's entry is held back by what the rules left out on the other side (a
            // rule that takes one kind only, `x/` or `*.jpg`): said, not silently dropped.
            if !source.leftOut.contains(path), let entry = source[path] { skipped.append(heldBack(entry)) }
        }
        var out = source.leftOut.union(destination.leftOut)
        filteredOut += source.leftOut.count
        if !policy.bounds.isEmpty {
            for entry in source.entries where policy.bounds.excludes(entry, now: policy.now) != nil {
                out.insert(entry.path)
                filteredOut += 1
            }
            for entry in destination.entries where policy.bounds.excludes(entry, now: policy.now) != nil {
                out.insert(entry.path)
            }
        }
        guard !out.isEmpty else { return (source, destination, records) }
        let keptDestination = destination.filter { !out.contains($0.path) }
        if keptDestination.count != destination.count, let first = out.first { keepFromDeletes(first.parent) }
        return (
            source.filter { !out.contains($0.path) }, keptDestination,
            RecordTable(records.filter { !out.contains($0.path) })
        )
    }

    /// The skipped entry of a source entry not copied because the filters left out the
    /// destination's entry at its path.
    private func heldBack(_ entry: SnapshotEntry) -> SkippedEntry {
        let (there, verb) = direction == .pull ? ("here", "pulled") : ("on the device", "pushed")
        let what = entry.kind == .directory ? "nothing in it is" : "it is not"
        return SkippedEntry(
            entry.path, reason: "the filters leave out what is \(there) at this path; \(what) \(verb)")
    }

    /// Notes whether the device folder `folder` keeps something once this plan's offloads
    /// (`offloaded` of its files) are done (`deviceKeeps`): a file not offloaded, an entry the
    /// filters left out, or names its listing may not show. Found by a breaker: a dry run
    /// planned removing a folder that held a file `--exclude` left out; the real run's RMD failed.
    mutating func noteDeviceKeeps(_ folder: RelativePath, listing: FolderListing, offloaded: Int) {
        guard policy.removeSourceFolders, !folder.isRoot else { return }
        let files = listing.snapshot.entries.lazy.filter { $0.kind != .directory }.count
        let keeps =
            offloaded < files || !listing.snapshot.leftOut.isEmpty || listing.isIncomplete
            || listing.mayHideDotNames || policy.deviceDotNamesLeftOut
        guard keeps, deviceKeeps.insert(folder).inserted else { return }
        DeleteQueue.mark(ancestorsOf: folder, in: &deviceKeeps)
    }

    /// Keeps `folder` and every folder above it from being deleted: something the filters
    /// left out lies in it.
    private mutating func keepFromDeletes(_ folder: RelativePath) {
        guard !folder.isRoot else { return }
        deletes.keptBelow.insert(folder)
        DeleteQueue.mark(ancestorsOf: folder, in: &deletes.keptBelow)
    }
}
