import Foundation

/// What a folder's visit keeps of its plan, and the folders it leads to.
extension PullWalk {
    /// The local side and the records below a local folder the device now has a file for.
    struct Subtree {
        var local: Snapshot
        var records: [RelativePath: FileRecord]
        var unknown: UnknownFolders
    }

    /// Writes what `collected` planned for one folder; keeps back what a move may take over.
    mutating func keep(_ collected: consuming PlanEpilogue.Collected, place: Place) throws {
        for action in collected.clearing {
            try writer.append(action, to: .prepare)
            cleared.append(action.path)
        }
        clearingDeletes += TypeChanges.deletes(collected.clearing).filter { $0.source?.kind != .directory }.count
        for action in collected.folders { try writer.append(action, to: .prepare) }
        var heldTransfers = Set<Int>()
        var heldNotes = Set<Int>()
        for file in collected.newFiles where try mayBeMove(file.entry) {
            held.append(
                Held(
                    entry: file.entry, transfer: file.transfer.map { collected.transfers[$0] },
                    note: file.note.map { collected.notes[$0] }))
            if let transfer = file.transfer { heldTransfers.insert(transfer) }
            if let note = file.note { heldNotes.insert(note) }
        }
        for (index, action) in collected.transfers.enumerated() where !heldTransfers.contains(index) {
            try writer.append(action, to: .transfers)
        }
        for (index, note) in collected.notes.enumerated() where !heldNotes.contains(index) { notes.append(note) }
        skipped += collected.skipped
        adoptions += collected.adoptions
        unchanged += collected.unchanged
    }

    /// True when a record has the size and time of the new device file `entry`: only then can
    /// it be a move (`RenameDetection.remoteMoves`).
    private func mayBeMove(_ entry: SnapshotEntry) throws -> Bool {
        guard deviceHasRecords, let size = entry.size, let time = entry.modified else { return false }
        return try source.hasRecord(remoteSize: size, matching: time)
    }

    /// Notes the records of one folder that the planned listing `remote` lacks (outside the
    /// unknown folders): where a move may come from, kept here, or forgotten.
    mutating func noteGone(records: [FileRecord], remote: Snapshot, local: Snapshot, unknown: UnknownFolders) {
        for record in records where remote.position(of: record.path) == nil {
            guard unknown.folder(holding: record.path) == nil else { continue }
            let here = local[record.path]
            if RenameDetection.canMove(record, here: here) { vanished.append(record) }
            if here?.kind == .file { goneKept += 1 }
            if here == nil { forgotten.append(record.path) }
        }
    }

    /// The empty device folder that makes deleting in `place` suspect (`DeleteGuard`), `remote`
    /// being its planned listing.
    func suspectFolder(_ place: Place, planned remote: Snapshot) throws -> RelativePath? {
        guard policy.maxDelete != nil, policy.deleteExtraneous else { return nil }
        guard place.isAnchor else { return place.suspect }
        guard remote.count == 0, try source.hasRecords(below: place.folder) else { return nil }
        return place.folder
    }

    /// The subfolders of `place` in any of the three trees, in path order, each with how it
    /// stands.
    func children(
        of place: Place, listing: Snapshot, planned remote: Snapshot, local: Snapshot, suspect: RelativePath?,
        cleared: Set<RelativePath>, inTheWay: [SnapshotEntry], early: [RelativePath: FolderListing]
    ) throws -> [Place] {
        var folders = Set(try source.recordFolders(in: place.folder))
        for entry in listing.entries where entry.kind == .directory { folders.insert(entry.path) }
        for entry in local.entries where entry.kind == .directory { folders.insert(entry.path) }
        return folders.sorted().map { folder in
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
            switch remote[folder]?.kind {
            case nil: child.suspect = suspect
            case .directory?: child.isAnchor = true
            default: child.suspect = nil
            }
            return child
        }
    }

    /// The local entries and the records at and below the local folder `folder`, and the
    /// unknown folders with those found there (read again when the walk reaches them).
    func subtree(_ folder: RelativePath, unknown: UnknownFolders) throws -> Subtree {
        var entries: [SnapshotEntry] = []
        var records: [RelativePath: FileRecord] = [:]
        var unreadable = Set<RelativePath>()
        var pending = [folder]
        while let next = pending.popLast() {
            let local = try source.localFolder(next)
            unreadable.formUnion(local.unknown)
            for record in try source.records(in: next, local: local) { records[record.path] = record }
            entries += local.entries
            pending += local.entries.filter { $0.kind == .directory }.map(\.path)
        }
        let all = UnknownFolders(
            source: unknown.source, destination: unknown.destination.union(unreadable),
            sourceHidden: unknown.sourceHidden, destinationHidden: unknown.destinationHidden)
        return Subtree(local: Snapshot(entries), records: records, unknown: all)
    }
}
