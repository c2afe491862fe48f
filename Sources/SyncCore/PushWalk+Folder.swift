import Foundation

/// What a folder's visit of a push keeps of its plan, and the folders it leads to.
extension PushWalk {
    /// The device side and the records at and below a device folder the local side now has a
    /// file for (read ahead: clearing it looks at all of it).
    struct Subtree {
        var remote: Snapshot
        var records: [RelativePath: FileRecord]
    }

    /// Writes what `collected` planned for one folder; keeps back the uploads a move may take over.
    mutating func keep(_ collected: consuming PlanEpilogue.Collected) throws {
        for action in collected.clearing {
            try writer.append(action, to: .prepare)
            cleared.append(action.path)
        }
        clearingDeletes += TypeChanges.deletes(collected.clearing).filter { $0.source?.kind != .directory }.count
        for action in collected.folders { try writer.append(action, to: .prepare) }
        var heldTransfers = Set<Int>()
        for file in collected.newFiles where try mayBeMove(file.entry) {
            held.append(Held(entry: file.entry, transfer: file.transfer.map { collected.transfers[$0] }))
            if let transfer = file.transfer { heldTransfers.insert(transfer) }
        }
        for (index, action) in collected.transfers.enumerated() where !heldTransfers.contains(index) {
            try writer.append(action, to: .transfers)
        }
        notes += collected.notes
        skipped += collected.skipped
        adoptions += collected.adoptions
        unchanged += collected.unchanged
    }

    /// True when a record with a digest has the size of the new local file `entry`: only then
    /// can it be a move (`RenameDetection.localMoves`, by digest).
    private func mayBeMove(_ entry: SnapshotEntry) throws -> Bool {
        guard entry.digest != nil, let size = entry.size else { return false }
        return try source.hasRecord(localSize: size)
    }

    /// Notes the records of one folder that the planned local side lacks (outside the unknown
    /// folders): where a move may come from, kept on the device, or forgotten.
    mutating func noteGone(records: [FileRecord], local: Snapshot, remote: Snapshot, unknown: UnknownFolders) {
        for record in records where local.position(of: record.path) == nil {
            guard unknown.folder(holding: record.path) == nil else { continue }
            let there = remote[record.path]
            if let digest = RenameDetection.movedFrom(record, there: there) { vanished.append((digest, record.path)) }
            if there?.kind == .file { goneKept += 1 }
            if there == nil { forgotten.append(record.path) }
        }
    }

    /// The empty local folder that makes deleting in `place` suspect (`DeleteGuard`), `local`
    /// being its planned content.
    func suspectFolder(_ place: Place, planned local: Snapshot) throws -> RelativePath? {
        guard policy.maxDelete != nil, policy.deleteExtraneous else { return nil }
        guard place.isAnchor else { return place.suspect }
        guard local.count == 0, try source.hasRecords(below: place.folder) else { return nil }
        return place.folder
    }

    /// The subfolders of `place` in any of the three trees, in path order, each with how it
    /// stands; `blocked` the local folders below which no file is sent.
    func children(
        of place: Place, listing: Snapshot, local: Snapshot, planned: Snapshot, suspect: RelativePath?,
        blocked: Set<RelativePath>
    ) throws -> [Place] {
        var folders = Set(try source.recordFolders(in: place.folder))
        for entry in listing.entries where entry.kind == .directory { folders.insert(entry.path) }
        for entry in local.entries where entry.kind == .directory { folders.insert(entry.path) }
        return folders.sorted().map { folder in
            var child = Place(folder: folder)
            child.onDevice = listing[folder]?.kind == .directory
            child.here = local[folder]?.kind == .directory
            child.blockedBy = place.blockedBy ?? (blocked.contains(folder) ? folder : nil)
            switch planned[folder]?.kind {
            case nil: child.suspect = suspect
            case .directory?: child.isAnchor = true
            default: child.suspect = nil
            }
            return child
        }
    }

    /// The device entries and the records at and below the device folder `folder`; the
    /// listings are kept for the visits of their folders.
    mutating func remoteSubtree(_ folder: RelativePath) throws -> Subtree {
        var entries: [SnapshotEntry] = []
        var records: [RelativePath: FileRecord] = [:]
        var pending = [folder]
        while let next = pending.popLast() {
            let listing = try early[next] ?? list(next)
            early[next] = listing
            for record in try source.records(in: next) { records[record.path] = record }
            entries += listing.entries
            pending += listing.entries.filter { $0.kind == .directory }.map(\.path)
        }
        return Subtree(remote: PushPlanner.planned(remote: Snapshot(entries)), records: records)
    }

    /// Scans the local folder `folder` and all below it for the folders that could not be read
    /// (they are read again when the walk reaches them).
    mutating func scanAhead(_ folder: RelativePath) throws {
        var pending = [folder]
        while let next = pending.popLast() {
            let local = try source.localFolder(next)
            unknownSource.formUnion(local.unknown)
            hiddenSource.formUnion(local.hiddenUnknown)
            pending += local.entries.filter { $0.kind == .directory }.map(\.path)
        }
    }
}
