// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a folder's visit of a push keeps of its plan, and the folders it leads to.
extension PushWalk {
    /// The device side and the records at and below a device folder the local side now has a
    /// file for (read ahead: clearing it looks at all of it).
    struct Subtree {
        var remote: Snapshot
        var records: RecordTable
    }

    /// True when a record with a digest has the size of the new local file `entry`: only then
    /// can it be a move (`RenameDetection.localMoves`, by digest).
    func mayBeMove(_ entry: SnapshotEntry) throws -> Bool {
        guard entry.digest != nil, let size = entry.size else { return false }
        return try source.hasRecord(localSize: size)
    }

    /// Notes the records of one folder that the planned local side lacks (outside the unknown
    /// folders): where a move may come from, kept on the device, or forgotten.
    mutating func noteGone(records: RecordTable, local: Snapshot, remote: Snapshot, unknown: UnknownFolders) throws {
        for record in records where local.position(of: record.path) == nil {
            guard unknown.folder(holding: record.path) == nil else { continue }
            let there = remote[record.path]
            if !ledger.movesGivenUp, let digest = RenameDetection.movedFrom(record, there: there) {
                vanished.append((digest, record.path))
            }
            if there?.kind == .file { ledger.goneKept += 1 }
            if there == nil { try ledger.forget(record.path) }
        }
    }

    /// The subfolders of `place` in any of the three trees, in path order, each with how it
    /// stands; `blocked` the local folders below which no file is sent.
    func children(
        of place: Place, listing: Snapshot, local: Snapshot, planned: Snapshot, suspect: RelativePath?,
        blocked: Set<RelativePath>
    ) throws -> [Place] {
        let folders = WalkLedger.subfolders(recordFolders: try source.recordFolders(in: place.folder), listing, local)
        return folders.map { folder in
            var child = Place(folder: folder)
            child.onDevice = listing[folder]?.kind == .directory
            child.here = local[folder]?.kind == .directory
            child.blockedBy = place.blockedBy ?? (blocked.contains(folder) ? folder : nil)
            (child.isAnchor, child.suspect) = WalkLedger.anchoring(planned[folder]?.kind, suspect: suspect)
            return child
        }
    }

    /// The device entries and the records at and below the device folder `folder`; the
    /// listings are kept for the visits of their folders.
    mutating func remoteSubtree(_ folder: RelativePath) throws -> Subtree {
        var entries: [SnapshotEntry] = []
        var records: [FileRecord] = []
        var leftOut = Set<RelativePath>()
        var pending = [folder]
        while let next = pending.popLast() {
            let listing = try early[next] ?? list(next)
            early[next] = listing
            records += try source.records(in: next)
            entries += listing.snapshot.entries
            leftOut.formUnion(listing.snapshot.leftOut)
            pending += listing.snapshot.entries.filter { $0.kind == .directory }.map(\.path)
        }
        var remote = Snapshot(entries)
        remote.leftOut = leftOut
        return Subtree(remote: PushPlanner.planned(remote: remote), records: RecordTable(records))
    }

    /// Scans the local folder `folder` and all below it for the folders that could not be read
    /// (they are read again when the walk reaches them).
    mutating func scanAhead(_ folder: RelativePath) throws {
        var pending = [folder]
        while let next = pending.popLast() {
            let local = try source.localFolder(next)
            ledger.unknownSource.formUnion(local.unknown)
            ledger.hiddenSource.formUnion(local.hiddenUnknown)
            pending += local.entries.filter { $0.kind == .directory }.map(\.path)
        }
    }
}
