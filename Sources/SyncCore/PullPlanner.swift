// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Plans a pull: what to download, which folders to make, what to rename, set aside or trash.
///
/// Pure: the snapshots, records and partial transfers come in as values, and the plan goes out.
/// Each side is compared with its own record from the last successful sync, so clock skew and
/// time zones never cause a transfer.
public struct PullPlanner: Sendable {
    public var policy: SyncPolicy

    public init(policy: SyncPolicy) {
        self.policy = policy
    }

    /// The plan, the pairs to adopt as in sync, the records to drop, and a refusal.
    public typealias Result = PlanResult

    /// The topmost local entry above `path` that is not a folder (symlink, file, other), if any.
    static func nonFolderAncestor(of path: RelativePath, in local: Snapshot) -> SnapshotEntry? {
        var found: SnapshotEntry?
        var ancestor = path.parent
        while !ancestor.isRoot {
            if let here = local[ancestor], here.kind != .directory { found = here }
            ancestor = ancestor.parent
        }
        return found
    }

    /// Plans a pull of `remote` into `local`.
    ///
    /// Both snapshots are walked once, side by side (they are sorted by path); the records are
    /// looked up once per remote entry.
    /// - Parameters:
    ///   - remote: what the device lists under its root.
    ///   - local: what the local folder of the device holds.
    ///   - records: the last successful sync of this device, by path.
    ///   - partials: interrupted downloads waiting to be resumed, by path.
    ///   - evidence: what the engine proved about the move candidates of an earlier plan of the
    ///     same sides (`Result.moveCandidates`): only a confirmed candidate is a `rename_local`;
    ///     without evidence every candidate is a download and the old local file is kept.
    public func plan(
        remote rawRemote: Snapshot, local: Snapshot, records: [RelativePath: FileRecord],
        partials: [RelativePath: PartialTransfer], evidence: MoveEvidence = .none
    ) -> Result {
        // Folders either side could not read in full: no deletes, renames or overwrites there.
        let unknown = UnknownFolders(source: rawRemote, destination: local)
        // What the walk plans, handed to the shared end (`PlanEpilogue`).
        var collected = PlanEpilogue.Collected(
            notes: unknown.notes(sourcePlace: "on the device", destinationPlace: "here"))
        // Local files where the device now has a folder: set aside first (`TypeChanges`).
        let typeChanged = Set(
            rawRemote.entries.filter {
                $0.kind == .directory && local[$0.path]?.kind == .file && unknown.forbidsDelete(of: $0.path) == nil
            }.map(\.path))
        var previous: (path: RelativePath, ancestor: SnapshotEntry?)?
        let around = Surroundings(
            nonFolderAncestor: { path in
                // Entries of one folder are neighbours and share their ancestors: look them up once.
                if let previous, path.hasSameParentBytes(as: previous.path) { return previous.ancestor }
                let ancestor = PullPlanner.nonFolderAncestor(of: path, in: local)
                previous = (path, ancestor)
                return ancestor
            },
            typeChanged: typeChanged, below: { _ in (local, records, unknown) })
        var blocked = Set<RelativePath>()
        let (remote, recordHits) = walk(
            rawRemote, local: local, records: records, partials: partials, unknown: unknown, around: around,
            blocked: &blocked, into: &collected)
        let absent = unknown.outside(RenameDetection.absent(from: remote, records: records, hits: recordHits))
        // Offloaded files left the device on purpose (`Offload`): no move, no note of them.
        let goneThere = absent.filter { !$0.1.offloaded }
        let offloadedGone = absent.filter { $0.1.offloaded }.map(\.0)
        let moveCandidates = RenameDetection.remoteMoves(
            goneThere: goneThere, newFiles: collected.newFiles.map(\.entry), local: local, remote: remote)
        let renames = confirmedMoves(moveCandidates, evidence: evidence, notes: &collected.notes)
        var epilogue = PlanEpilogue(
            policy: policy, unknown: unknown, source: remote, destination: local, records: records,
            collected: consume collected)
        if policy.removeSourceFolders {
            epilogue.deviceKeeps = Offload.keptFolders(
                device: rawRemote, offloaded: Set(epilogue.offloads.map(\.path)), policy: policy)
        }
        var result = epilogue.finish(gone: goneThere, renames: renames, offloaded: offloadedGone)
        result.moveCandidates = moveCandidates
        return result
    }

    /// What the rules of one entry need from around the entries planned together.
    struct Surroundings {
        /// The topmost local entry above a path that is not a folder, if any.
        var nonFolderAncestor: (RelativePath) -> SnapshotEntry?
        /// Local files where the device now has a folder that are set aside first (`TypeChanges`).
        var typeChanged: Set<RelativePath>
        /// The local side, the records and the unknown folders at and below a local folder where
        /// the device now has a file (what clearing it must look at).
        var below: (SnapshotEntry) -> (local: Snapshot, records: any RecordLookup, unknown: UnknownFolders)
        /// True when a device folder with a local non-folder in its way is noted by the caller
        /// (the folder walk, which sees the folder's content only later): it lands in
        /// `Collected.inTheWay` instead of `skipped`.
        var defersInTheWay = false
    }

    /// Plans the entries of `rawRemote` (all of a tree, or one folder's) against `local` into
    /// `collected`: the rules of each entry, shared by the whole-tree plan and the folder walk.
    /// - Parameters:
    ///   - blocked: local non-folders below which nothing is pulled, each noted once; grows.
    /// - Returns: the remote side as planned (upload temporaries, leftovers, what lies below an
    ///   unknown local folder or a local non-folder left out) and how many of its entries have
    ///   a record.
    func walk(
        _ rawRemote: Snapshot, local: Snapshot, records: some RecordLookup,
        partials: [RelativePath: PartialTransfer], unknown: UnknownFolders, around: Surroundings,
        blocked: inout Set<RelativePath>, into collected: inout PlanEpilogue.Collected
    ) -> (remote: Snapshot, recordHits: Int) {
        let typeChanged = around.typeChanged
        // Upload temporaries of an unfinished push are never pulled, and nothing is written
        // below a local name that is not a folder (a symlink there could lead out of the tree).
        var noted = blocked
        var skipped: [SkippedEntry] = []
        let remote = rawRemote.filter { entry in
            guard !UploadNaming.isTemporary(entry.path), !LeftoverNaming.isLeftover(entry.path) else { return false }
            guard unknown.destinationFolder(holding: entry.path) == nil else { return false }
            guard let ancestor = around.nonFolderAncestor(entry.path), !typeChanged.contains(ancestor.path) else {
                return true
            }
            if noted.insert(ancestor.path).inserted {
                skipped.append(
                    SkippedEntry(
                        path: ancestor.path.string,
                        reason:
                            "a \(ancestor.kind.rawValue) here where the device has a folder; nothing below it is pulled"
                    ))
            }
            return false
        }
        blocked = noted
        collected.skipped += skipped
        var recordHits = 0

        let localPositions = remote.positions(in: local)
        for (position, entry) in remote.entries.enumerated() {
            let here = localPositions[position] < 0 ? nil : local.entries[localPositions[position]]
            let found = records.isEmpty ? nil : records[entry.path]
            if found != nil { recordHits += 1 }
            // The record of a file offloaded earlier says nothing of a device file there now.
            let record = found?.offloaded == true ? nil : found
            switch entry.kind {
            case .directory:
                if let here, here.kind == .directory { continue }
                if let here, typeChanged.contains(entry.path) {
                    collected.clearing += TypeChanges.pullClearing(
                        source: entry, here: here, local: local, records: records)
                    collected.folders.append(
                        Action(kind: .mkdirLocal, path: entry.path, source: entry, reason: "new folder"))
                    continue
                }
                if let here {
                    if around.defersInTheWay {
                        collected.inTheWay.append(here)
                    } else if !blocked.contains(entry.path) {
                        // Noted once: a folder with content was named already by the filter above.
                        collected.skipped.append(PullPlanner.inTheWay(here))
                    }
                    continue
                }
                collected.folders.append(
                    Action(kind: .mkdirLocal, path: entry.path, source: entry, reason: "new folder"))
            case .symlink, .other:
                collected.notes.append("\(entry.path): \(entry.kind.rawValue) on the device; not transferred")
            case .file:
                let isNew = record == nil && here == nil && unknown.folder(holding: entry.path) == nil
                if policy.minimumAge > 0, let modified = entry.modified,
                    policy.now.timeIntervalSince1970 - modified.seconds < policy.minimumAge
                {
                    if isNew {
                        collected.newFiles.append(PlanEpilogue.NewFile(entry: entry, note: collected.notes.count))
                    }
                    collected.notes.append(
                        "\(entry.path): modified less than \(Int(policy.minimumAge)) s ago; left for a later run")
                    if let here { collected.unchanged += here.kind == .file ? 1 : 0 }
                    continue
                }
                if let here, here.kind == .directory {
                    let below = around.below(here)
                    if TypeChanges.holdsLeftOut(here.path, side: below.local, policy: policy) {
                        collected.skipped.append(TypeChanges.keptForFilters(here.path, local: true))
                        continue
                    }
                    if below.unknown.forbidsDelete(of: here.path) == nil {
                        collected.clearing += TypeChanges.pullClearing(
                            source: entry, here: here, local: below.local, records: below.records)
                        collected.transfers.append(
                            download(entry, partial: nil, reason: "a file on the device now, a folder here"))
                        continue
                    }
                }
                if let here, here.kind != .file {
                    collected.skipped.append(
                        SkippedEntry(
                            path: entry.path.string,
                            reason: "a file on the device but a \(here.kind.rawValue) here; skipped"))
                    continue
                }
                if isNew {
                    collected.newFiles.append(PlanEpilogue.NewFile(entry: entry, transfer: collected.transfers.count))
                }
                switch decideFile(remote: entry, local: here, record: record) {
                case .nothing:
                    collected.unchanged += 1
                    if let offload = Offload.action(for: entry, record: record, policy: policy) {
                        collected.offloads.append(offload)
                    }
                case .adopt(let localEntry):
                    collected.unchanged += 1
                    collected.adoptions.append(Adoption(remote: entry, local: localEntry))
                case .download(let reason):
                    collected.transfers.append(
                        download(entry, partial: partials.isEmpty ? nil : partials[entry.path], reason: reason))
                    if let offload = Offload.action(for: entry, record: record, policy: policy) {
                        collected.offloads.append(offload)
                    }
                case .conflictThenDownload(let reason):
                    guard let here else { continue }
                    let conflict = ConflictPlan.make(
                        .pull, policy: policy.onConflict, remote: entry, local: here, why: reason
                    ) { download(entry, partial: partials.isEmpty ? nil : partials[entry.path], reason: reason) }
                    collected.transfers.append(contentsOf: conflict.actions)
                    if let adoption = conflict.adoption { collected.adoptions.append(adoption) }
                    if let note = conflict.note { collected.notes.append(note) }
                    if let note = Offload.conflictNote(for: entry, policy: policy) { collected.notes.append(note) }
                case .keepLocal(let reason):
                    collected.unchanged += 1
                    collected.notes.append("\(entry.path): \(reason)")
                    if let note = Offload.conflictNote(for: entry, policy: policy, changedHereOnly: true) {
                        collected.notes.append(note)
                    }
                }
            }
        }
        return (remote, recordHits)
    }

    /// The skipped entry of a device folder whose path holds a local non-folder `here`.
    static func inTheWay(_ here: SnapshotEntry) -> SkippedEntry {
        SkippedEntry(path: here.path.string, reason: "a folder on the device but a \(here.kind.rawValue) here; skipped")
    }

    /// The candidates `evidence` confirms, as renames; a note for each other one (it stays a
    /// download, and its old local file is kept unless `--delete` trashes it).
    func confirmedMoves(_ candidates: [MoveCandidate], evidence: MoveEvidence, notes: inout [String])
        -> [DetectedRename]
    {
        var renames: [DetectedRename] = []
        for candidate in candidates {
            if evidence.confirmed.contains(candidate) {
                renames.append(DetectedRename(from: candidate.from, to: candidate.to))
                continue
            }
            let why = evidence.findings[candidate] ?? "not checked"
            let time = candidate.defaultTime ? " (a default time: it says nothing)" : ""
            let kept = policy.deleteExtraneous ? "" : ", \(candidate.from) kept here"
            notes.append(
                "\(candidate.to): same size and time\(time) as \(candidate.from), gone from the device, "
                    + "but not shown to be the same file (\(why)); treated as a new file\(kept)")
        }
        return renames
    }

    private enum FileDecision {
        case nothing
        case adopt(SnapshotEntry)
        case download(String)
        case conflictThenDownload(String)
        case keepLocal(String)
    }

    private func decideFile(remote: SnapshotEntry, local: SnapshotEntry?, record: FileRecord?) -> FileDecision {
        guard let local else {
            return .download(record == nil ? "new on the device" : "missing here")
        }
        guard let record else {
            if Comparison.sameContent(remote: remote, local: local) { return .adopt(local) }
            return .conflictThenDownload("differs here and no earlier sync says which is newer")
        }
        let remoteChanged = !Comparison.remoteMatches(remote, record)
        let localChanged = !Comparison.localMatches(local, record)
        switch (remoteChanged, localChanged) {
        case (false, false): return .nothing
        case (true, false): return .download("changed on the device")
        case (true, true): return .conflictThenDownload("changed on both sides since the last sync")
        case (false, true): return .keepLocal("changed here since the last sync; kept")
        }
    }

    private func download(_ entry: SnapshotEntry, partial: PartialTransfer?, reason: String) -> Action {
        let size = entry.size ?? 0
        var offset: UInt64 = 0
        if let partial, partial.remoteSize == entry.size, partial.bytesDone <= size,
            let was = partial.remoteModified, let now = entry.modified, was.matches(now)
        {
            offset = partial.bytesDone
        }
        return Action(
            kind: .download, path: entry.path, bytes: size - offset, offset: offset, source: entry,
            reason: offset > 0 ? "\(reason); resuming at byte \(offset)" : reason)
    }
}
