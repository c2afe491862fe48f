// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The end both planners share, once each walked its two sides: the moves found take back
/// what was planned for their new files and become renames, the delete candidates pass the
/// delete guard, and the actions are put in order (`PlanOrder`).
///
/// Pure. The source is the side copied from (the device for a pull, the local tree for a push),
/// the destination the side written; what a direction words or decides differently is in
/// `Terms`.
struct PlanEpilogue {
    /// A file new on the source side (no record, absent on the destination): it may turn out
    /// to be a move, and what was planned for it is then taken back.
    struct NewFile {
        var entry: SnapshotEntry
        /// Its transfer's position in `transfers`, when one was planned.
        var transfer: Int?
        /// Its note's position in `notes`, when a note was planned instead (too young to pull).
        var note: Int?
    }

    var policy: SyncPolicy
    var unknown: UnknownFolders
    /// The source side as planned (upload temporaries and leftovers left out).
    var source: Snapshot
    /// The destination side as planned.
    var destination: Snapshot
    var records: [RelativePath: FileRecord]
    /// What clears a type change, first in the plan.
    var clearing: [Action] = []
    var folders: [Action] = []
    var transfers: [Action] = []
    var notes: [String] = []
    var skipped: [SkippedEntry] = []
    var adoptions: [Adoption] = []
    var unchanged = 0
    var newFiles: [NewFile] = []
    var offloads: [Action] = []
    /// Device folders that keep something after the offloads (`Offload.keptFolders`): not removed.
    var deviceKeeps = Set<RelativePath>()

    init(
        policy: SyncPolicy, unknown: UnknownFolders, source: Snapshot, destination: Snapshot,
        records: [RelativePath: FileRecord]
    ) {
        self.policy = policy
        self.unknown = unknown
        self.source = source
        self.destination = destination
        self.records = records
    }

    /// What a planner's walk of the two sides collects for the end, in one value.
    struct Collected {
        /// What clears a type change (`TypeChanges`), first in the plan.
        var clearing: [Action] = []
        var folders: [Action] = []
        var transfers: [Action] = []
        /// Informational lines of the report.
        var notes: [String] = []
        /// What could not be synced: the device ends `partial`.
        var skipped: [SkippedEntry] = []
        var adoptions: [Adoption] = []
        var unchanged = 0
        /// Files new on the source side: they may turn out to be moves, and what was planned for
        /// each (a transfer, or a note) is then taken back.
        var newFiles: [NewFile] = []
        /// Local non-folders where the device has a folder, for the folder walk to note once it
        /// knows whether anything below the folder was left out (`PullPlanner.Surroundings`).
        var inTheWay: [SnapshotEntry] = []
        /// The offloads (`--remove-source`, `Offload`): `delete_remote` of device files.
        var offloads: [Action] = []
    }

    /// The end of a planner's walk: `collected` over `source` and `destination`.
    init(
        policy: SyncPolicy, unknown: UnknownFolders, source: Snapshot, destination: Snapshot,
        records: [RelativePath: FileRecord], collected: consuming Collected
    ) {
        self.init(policy: policy, unknown: unknown, source: source, destination: destination, records: records)
        clearing = collected.clearing
        folders = collected.folders
        transfers = collected.transfers
        notes = collected.notes
        skipped = collected.skipped
        adoptions = collected.adoptions
        unchanged = collected.unchanged
        newFiles = collected.newFiles
        offloads = collected.offloads
    }

    /// How a direction words its renames, deletes and notes, and what it keeps.
    struct Terms: Equatable {
        var rename: ActionKind
        var renameReason: String
        var delete: ActionKind
        var deleteReason: String
        /// The command, what left the source and where the kept files are, for `DeleteGuard.keptNote`.
        var command: String
        var gone: String
        var place: String
        /// The note of a conflict copy kept on the destination.
        var conflictCopyNote: String
        /// Whether a destination file changed since the last sync is a conflict rather than a
        /// delete (a push: the device has no trash).
        var keepsChangedDestination: Bool

        static func of(_ direction: SyncDirection) -> Terms {
            switch direction {
            case .pull:
                return Terms(
                    rename: .renameLocal, renameReason: "moved on the device", delete: .deleteLocal,
                    deleteReason: "gone from the device", command: "pull", gone: "gone from the device", place: "here",
                    conflictCopyNote: "a conflict copy here; kept (delete it by hand)", keepsChangedDestination: false)
            case .push, .sync:
                return Terms(
                    rename: .renameRemote, renameReason: "moved here (same content)", delete: .deleteRemote,
                    deleteReason: "gone from here", command: "push", gone: "no longer here", place: "on the device",
                    conflictCopyNote: "a conflict copy on the device; kept (delete it there by hand)",
                    keepsChangedDestination: true)
            }
        }
    }

    /// The plan result.
    /// - Parameters:
    ///   - gone: the recorded paths absent from the source (outside folders not read in full).
    ///   - renames: the moves found (proven for a pull, by digest for a push).
    ///   - offloaded: the offloaded paths absent from the source (`Offload`): forgotten once
    ///     the destination lacks them too.
    consuming func finish(
        gone: [(RelativePath, FileRecord)], renames: [DetectedRename], offloaded: [RelativePath] = []
    ) -> PlanResult {
        let terms = Terms.of(policy.direction)
        takeBack(renames)
        let renamedFrom = Set(renames.map(\.from))
        let renameActions = renames.map { rename in
            Action(
                kind: terms.rename, path: rename.from, to: rename.to, source: source[rename.to],
                reason: terms.renameReason)
        }
        let candidates = deleteCandidates(gone: gone, renamed: renamedFrom, terms: terms)
        let guardian = DeleteGuard(
            source: source, records: records, maxDelete: policy.maxDelete, checking: !candidates.isEmpty)
        let deletes = guardedDeletes(candidates, guardian: guardian, terms: terms)
        let forgotten = (gone.map(\.0) + offloaded).filter { destination.position(of: $0) == nil }.sorted()
        let clearingDeletes = TypeChanges.deletes(clearing)
        let offloadFolders =
            policy.removeSourceFolders
            ? Offload.folders(above: offloads.map(\.path)).filter { !deviceKeeps.contains($0.path) } : []
        // The transfers, usually the bulk of a plan, are handed over without a second copy.
        let planned = transfers
        transfers = []
        let plan = Plan(
            actions: PlanOrder.ordered(
                clearing: clearing, folders: folders, renames: renameActions, transfers: consume planned,
                deletes: deletes + offloads) + offloadFolders,
            notes: notes, unchanged: unchanged, skipped: skipped)
        return PlanResult(
            plan: plan, adoptions: adoptions, forgotten: forgotten,
            refusal: guardian.refusal(deletes: deletes + clearingDeletes)
                ?? Offload.refusal(files: offloads.count, limit: policy.maxOffload))
    }

    /// Drops the transfers and notes planned for the new files that `renames` carry over.
    mutating func takeBack(_ renames: [DetectedRename]) {
        guard !renames.isEmpty else { return }
        let renamedTo = Set(renames.map(\.to))
        var dropTransfers = Set<Int>()
        var dropNotes = Set<Int>()
        for file in newFiles where renamedTo.contains(file.entry.path) {
            if let transfer = file.transfer { dropTransfers.insert(transfer) }
            if let note = file.note { dropNotes.insert(note) }
        }
        if !dropTransfers.isEmpty {
            transfers = transfers.enumerated().filter { !dropTransfers.contains($0.offset) }.map(\.element)
        }
        if !dropNotes.isEmpty {
            notes = notes.enumerated().filter { !dropNotes.contains($0.offset) }.map(\.element)
        }
    }

    /// What `--delete` would remove (the destination's entries the source lacks, less the renamed
    /// and what a type change clears as a whole); without `--delete`, none, and a note of the
    /// files kept.
    private mutating func deleteCandidates(
        gone: [(RelativePath, FileRecord)], renamed: Set<RelativePath>, terms: Terms
    ) -> [SnapshotEntry] {
        guard policy.deleteExtraneous else {
            if let note = DeleteGuard.keptNote(
                gone: gone, kept: destination, renamed: renamed, command: terms.command, what: terms.gone,
                place: terms.place)
            {
                notes.append(note)
            }
            return []
        }
        var candidates = DeleteGuard.candidates(in: destination, absentFrom: source, renamed: renamed)
        if !clearing.isEmpty {
            let cleared = clearing.map(\.path)
            candidates.removeAll { entry in cleared.contains { $0 == entry.path || $0.isAncestor(of: entry.path) } }
        }
        return candidates
    }

    /// A destination entry the source lacks, as the delete guard weighs it.
    struct DeleteCandidate {
        var entry: SnapshotEntry
        /// The record of its path, if any.
        var record: FileRecord?
        /// The empty source folder that makes deleting it suspect (`DeleteGuard.suspectFolder`).
        var suspect: RelativePath?
    }

    /// The deletes of `candidates` the guard lets through.
    private mutating func guardedDeletes(_ candidates: [SnapshotEntry], guardian: DeleteGuard, terms: Terms)
        -> [Action]
    {
        let weighed = candidates.map { entry in
            DeleteCandidate(entry: entry, record: records[entry.path], suspect: guardian.suspectFolder(for: entry.path))
        }
        return Self.guardedDeletes(
            weighed, policy: policy, unknown: unknown, terms: terms, notes: &notes, transfers: &transfers)
    }

    /// The deletes of `candidates` the guard lets through. Kept, with a note: what lies in a
    /// folder not read in full, below a suspect empty folder, a conflict copy, and (a push) a
    /// device file changed since the last sync, which becomes a conflict action instead (added
    /// to `transfers`). A folder still holding something kept is not deleted.
    static func guardedDeletes(
        _ candidates: [DeleteCandidate], policy: SyncPolicy, unknown: UnknownFolders, terms: Terms,
        notes: inout [String], transfers: inout [Action]
    ) -> [Action] {
        var deletes: [Action] = []
        var kept: [RelativePath] = []
        var suspects = DeleteGuard.KeptBelowSuspects()
        defer { notes += suspects.notes() }
        for candidate in candidates {
            switch weigh(candidate, policy: policy, unknown: unknown, terms: terms) {
            case .ignored: continue
            case .delete(let action): deletes.append(action)
            case .offloaded: kept.append(candidate.entry.path)
            case .suspect(let folder):
                suspects.add(below: folder)
                kept.append(candidate.entry.path)
            case .kept(let note):
                notes.append(note)
                kept.append(candidate.entry.path)
            case .conflict(let action):
                transfers.append(action)
                kept.append(candidate.entry.path)
            }
        }
        deletes.removeAll { delete in
            delete.source?.kind == .directory && kept.contains { delete.path.isAncestor(of: $0) }
        }
        return deletes
    }

    /// What the delete guard makes of one candidate (a folder's delete is still dropped when
    /// something below it is kept, which only the caller knows).
    enum Verdict {
        /// In a folder not read in full: not deleted, no note (the folder's note says it).
        case ignored
        case delete(Action)
        /// Kept without a note: the local copy of a file offloaded from the device (`Offload`).
        case offloaded
        /// Kept, with the note saying why.
        case kept(String)
        /// Kept below this suspect empty folder (one note per folder says so).
        case suspect(RelativePath)
        /// Kept, set aside as a conflict copy by this action (a push's changed device file).
        case conflict(Action)
    }

    /// Weighs `candidate`: ignored in a folder not read in full, kept below a suspect empty
    /// folder or as a conflict copy, a conflict when (a push) the device file changed since
    /// the last sync, else deleted.
    static func weigh(_ candidate: DeleteCandidate, policy: SyncPolicy, unknown: UnknownFolders, terms: Terms)
        -> Verdict
    {
        let entry = candidate.entry
        guard unknown.forbidsDelete(of: entry.path) == nil else { return .ignored }
        // Never lose a file: the device no longer has an offloaded file, this copy is the only one.
        if entry.kind == .file, candidate.record?.offloaded == true { return .offloaded }
        if let folder = candidate.suspect { return .suspect(folder) }
        // A version a conflict kept is the user's to remove: never deleted unasked.
        if entry.kind == .file, candidate.record == nil, ConflictNaming.isConflictCopy(entry.path.name) {
            return .kept("\(entry.path): \(terms.conflictCopyNote)")
        }
        if terms.keepsChangedDestination, entry.kind == .file, let record = candidate.record,
            !Comparison.remoteMatches(entry, record),
            let conflict = ConflictPlan.deletedHere(entry, policy: policy.onConflict)
        {
            return .conflict(conflict)
        }
        return .delete(Action(kind: terms.delete, path: entry.path, source: entry, reason: terms.deleteReason))
    }
}
