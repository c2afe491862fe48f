// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a folder's visit keeps of its plan, and the folders it leads to.
extension PullWalk {
    /// The local side and the records below a local folder the device now has a file for.
    struct Subtree {
        var local: Snapshot
        var records: RecordTable
        var unknown: UnknownFolders
    }

    /// True when a record has the size and time of the new device file `entry`: only then can
    /// it be a move (`RenameDetection.remoteMoves`).
    func mayBeMove(_ entry: SnapshotEntry) throws -> Bool {
        guard ledger.deviceHasRecords, let size = entry.size, let time = entry.modified else { return false }
        return try source.hasRecord(remoteSize: size, matching: time)
    }

    /// Notes the records of one folder that the planned listing `remote` lacks (outside the
    /// unknown folders): where a move may come from, kept here, or forgotten.
    mutating func noteGone(records: RecordTable, remote: Snapshot, local: Snapshot, unknown: UnknownFolders) throws {
        for record in records where remote.position(of: record.path) == nil {
            guard unknown.folder(holding: record.path) == nil else { continue }
            let here = local[record.path]
            if record.offloaded {
                // Gone on purpose (`Offload`): no move, no note; forgotten with its local copy.
                if here == nil { try ledger.forget(record.path) }
                continue
            }
            if !ledger.movesGivenUp, RenameDetection.canMove(record, here: here) { vanished.append(record) }
            if here?.kind == .file { ledger.goneKept += 1 }
            if here == nil { try ledger.forget(record.path) }
        }
    }

    /// The subfolders of `place` in any of the three trees, in path order, each with how it
    /// stands.
    func children(
        of place: Place, listing: Snapshot, planned remote: Snapshot, local: Snapshot, suspect: RelativePath?,
        cleared: Set<RelativePath>, inTheWay: [SnapshotEntry], early: [RelativePath: FolderListing]
    ) throws -> [Place] {
        let folders = WalkLedger.subfolders(recordFolders: try source.recordFolders(in: place.folder), listing, local)
        return folders.map { folder in
            var child = Place(folder: folder)
            child.onDevice = listing[folder]?.kind == .directory
            let here = local[folder]
            child.here = here?.kind == .directory
            if let ancestor = place.nonFolderAncestor {
                child.nonFolderAncestor = ancestor
                child.ancestorCleared = place.ancestorCleared
            } else if let here, here.kind != .directory {
                child.nonFolderAncestor = here
                child.ancestorCleared = cleared.contains(folder)
            }
            child.inTheWay = inTheWay.first { $0.path == folder }
            child.listing = early[folder]
            (child.isAnchor, child.suspect) = WalkLedger.anchoring(remote[folder]?.kind, suspect: suspect)
            return child
        }
    }

    /// The local entries and the records at and below the local folder `folder`, and the
    /// unknown folders with those found there (read again when the walk reaches them).
    func subtree(_ folder: RelativePath, unknown: UnknownFolders) throws -> Subtree {
        var entries: [SnapshotEntry] = []
        var records: [FileRecord] = []
        var unreadable = Set<RelativePath>()
        var leftOut = Set<RelativePath>()
        var pending = [folder]
        while let next = pending.popLast() {
            let local = try source.localFolder(next)
            unreadable.formUnion(local.unknown)
            leftOut.formUnion(local.leftOut)
            records += try source.records(in: next, local: local)
            entries += local.entries
            pending += local.entries.filter { $0.kind == .directory }.map(\.path)
        }
        let all = UnknownFolders(
            source: unknown.source, destination: unknown.destination.union(unreadable),
            sourceHidden: unknown.sourceHidden, destinationHidden: unknown.destinationHidden)
        var local = Snapshot(entries)
        local.leftOut = leftOut
        return Subtree(local: local, records: RecordTable(records), unknown: all)
    }
}
