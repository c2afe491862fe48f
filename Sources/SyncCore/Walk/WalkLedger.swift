// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a pull's and a push's folder walks (`PullWalk`, `PushWalk`) keep alike across folders
/// until the end (issue 17): the unknown folders of each side, the notes and skipped entries,
/// how many pairs were adopted and records forgotten (those go to the writer at once), what
/// type changes cleared, the new files held back (they
/// may be moves), the delete candidates still waiting (`DeleteQueue`), the records read and how much of the device's listing
/// they recognise. The source is the side copied from (the device for a pull, the local tree
/// for a push), the destination the other.
///
/// Pure: it writes actions to the walk's writer and reads nothing.
struct WalkLedger {
    let policy: SyncPolicy
    let direction: SyncDirection
    let terms: PlanEpilogue.Terms
    let writer: any PlanWriter
    /// Unknown folders found so far, each side (complete once the walk is done).
    var unknownSource = Set<RelativePath>()
    var unknownDestination = Set<RelativePath>()
    var hiddenSource = Set<RelativePath>()
    var hiddenDestination = Set<RelativePath>()
    var notes: [String] = []
    var skipped: [SkippedEntry] = []
    /// Pairs found in sync and records dropped, handed to the writer (`PlanWriter.adopt`, `forget`).
    var adopted = 0
    var forgotten = 0
    var unchanged = 0
    /// Paths a type change clears (nothing below them is deleted), and the file deletes among them.
    var cleared: [RelativePath] = []
    var clearingDeletes = 0
    /// Gone records whose file the destination still holds (the note of a run without `--delete`).
    var goneKept = 0
    /// New source files that may be moves, with what was planned for each.
    var held: [Held] = []
    /// The most new files held back and gone records kept as possible moves, together: past
    /// it the walk stops looking for moves (`givesUpMoves(vanished:)`), so what it holds across
    /// folders stays bounded. 50,000 (some 20 MB held); tests set it lower.
    var moveCandidateLimit = 50_000
    /// The most entries of one folder planned at once: a huge folder's actions are planned and
    /// written a slice at a time, so what waits in memory is one slice's. 4,096; tests set it
    /// lower.
    var planSlice = 4_096
    /// The slices of `count` entries, in order.
    func slices(of count: Int) -> [Range<Int>] {
        let size = max(1, planSlice)
        return stride(from: 0, to: max(count, 1), by: size).map { $0..<min(count, $0 + size) }
    }
    /// True once the walk stopped looking for moves.
    private(set) var movesGivenUp = false
    /// The destination entries the source lacks, for `--delete`, as far as they wait.
    var deletes = DeleteQueue()
    /// Records read.
    var recordsSeen = 0
    /// How much of the device's listing the records recognise, folder by folder.
    var overlap = ListingOverlap.Tally()
    /// False when the device has no record at all (a first sync): no new file can be a move
    /// and no overlap is counted.
    var deviceHasRecords = true
    /// Device files an offload deletes (`Offload`), written as the walk goes, and the files of
    /// which the folders it may empty are made at the end (`--remove-source-folders`).
    var offloads = 0
    var offloadedFiles: [RelativePath] = []
    /// Device folders that keep something after the offload (a file not offloaded, one the
    /// filters left out, names the listing may not show) and the folders above them: never
    /// removed by `--remove-source-folders`.
    var deviceKeeps = Set<RelativePath>()
    /// Source entries the filters left out (a folder left out whole counts once), for the
    /// note of the run (`filteredNote`).
    var filteredOut = 0

    /// A new file held back until the end: a rename if it turns out to be a move, else what
    /// was planned for it (a transfer, a note).
    struct Held {
        var entry: SnapshotEntry
        var transfer: Action?
        var note: String?
    }

    init(policy: SyncPolicy, direction: SyncDirection, writer: any PlanWriter) {
        self.policy = policy
        self.direction = direction
        terms = PlanEpilogue.Terms.of(direction)
        self.writer = writer
    }

    /// Visits `root` and every folder `visit` returns, depth first in path order: the children
    /// go on the stack in reverse, so the smallest is taken next.
    /// - Throws: what `visit` throws.
    static func depthFirst<Place>(from root: Place, _ visit: (Place) throws -> [Place]) rethrows {
        var pending = [root]
        while let place = pending.popLast() { pending += try visit(place).reversed() }
    }

    var unknown: UnknownFolders {
        UnknownFolders(
            source: unknownSource, destination: unknownDestination, sourceHidden: hiddenSource,
            destinationHidden: hiddenDestination)
    }

    /// Notes the unknown folders a device listing of `folder` reveals, on the device's side.
    mutating func noteDevice(_ listing: FolderListing, of folder: RelativePath) {
        switch direction {
        case .pull:
            if listing.isIncomplete { unknownSource.insert(folder) }
            if listing.mayHideDotNames { hiddenSource.insert(folder) }
        case .push, .sync:
            if listing.isIncomplete { unknownDestination.insert(folder) }
            if listing.mayHideDotNames { hiddenDestination.insert(folder) }
        }
    }

    /// Takes the records directly in `folder`: counted, and (when the device has records)
    /// tallied against the device's `listing` of it.
    mutating func take(records: RecordTable, folder: RelativePath, listing: Snapshot) {
        recordsSeen += records.count
        if deviceHasRecords {
            let deviceUnknown = direction == .pull ? unknownSource : unknownDestination
            let under = deviceUnknown.contains { $0 == folder || $0.isAncestor(of: folder) }
            overlap.add(listing: listing, records: records, unknown: under)
        }
    }

    /// Writes what `collected` planned for one folder, holding back the new files for which
    /// `mayBeMove` is true (their transfer, and with `holdingNotes` their note, wait for the
    /// end).
    /// - Throws: what the writer or `mayBeMove` throws.
    mutating func keep(
        _ collected: consuming PlanEpilogue.Collected, holdingNotes: Bool, mayBeMove: (SnapshotEntry) throws -> Bool
    ) throws {
        for action in collected.clearing {
            try writer.append(action, to: .prepare)
            cleared.append(action.path)
        }
        clearingDeletes += TypeChanges.deletes(collected.clearing).filter { $0.source?.kind != .directory }.count
        for action in collected.folders { try writer.append(action, to: .prepare) }
        var heldTransfers = Set<Int>()
        var heldNotes = Set<Int>()
        for file in collected.newFiles {
            guard !movesGivenUp, try mayBeMove(file.entry) else { continue }
            let note = holdingNotes ? file.note : nil
            held.append(
                Held(
                    entry: file.entry, transfer: file.transfer.map { collected.transfers[$0] },
                    note: note.map { collected.notes[$0] }))
            if let transfer = file.transfer { heldTransfers.insert(transfer) }
            if let note { heldNotes.insert(note) }
        }
        for (index, action) in collected.transfers.enumerated() where !heldTransfers.contains(index) {
            try writer.append(action, to: .transfers)
        }
        for action in collected.offloads {
            try writer.append(action, to: .deletes)
            if policy.removeSourceFolders, offloadedFiles.last?.hasSameParentBytes(as: action.path) != true {
                offloadedFiles.append(action.path)
            }
        }
        offloads += collected.offloads.count
        for (index, note) in collected.notes.enumerated() where !heldNotes.contains(index) { notes.append(note) }
        skipped += collected.skipped
        for adoption in collected.adoptions { try writer.adopt(adoption) }
        adopted += collected.adoptions.count
        unchanged += collected.unchanged
    }

    /// Stops looking for moves once the new files held back and `vanished` (the gone records
    /// the walk keeps as where a move may come from) together pass `moveCandidateLimit`: the
    /// held files get what was planned for them, written now, nothing more is held, and a note
    /// says so. Nothing is lost: a move not found is a new file and a gone one.
    /// - Returns: true when it stopped now (the walk then drops its gone records).
    /// - Throws: what the writer throws.
    mutating func givesUpMoves(vanished: Int) throws -> Bool {
        guard !movesGivenUp, Saturating.add(UInt64(held.count), UInt64(max(0, vanished))) > moveCandidateLimit
        else { return false }
        movesGivenUp = true
        for file in held {
            if let transfer = file.transfer { try writer.append(transfer, to: .transfers) }
            if let note = file.note { notes.append(note) }
        }
        held = []
        // No rename will take over a delete candidate now: those held for one are weighed.
        try releaseHeldDeletes()
        notes.append(
            "more than \(moveCandidateLimit) files may have moved: this run renames none of them and copies"
                + " each as a new file (nothing is lost)")
        return true
    }

    /// Hands the record of `path` to the writer to be dropped (`PlanWriter.forget`).
    /// - Throws: what the writer throws.
    mutating func forget(_ path: RelativePath) throws {
        try writer.forget(path)
        forgotten += 1
    }

    /// The empty folder that makes deleting in a folder suspect (`DeleteGuard`): `inherited`
    /// (its parent's answer) unless the folder is an anchor (in the planned source side, or
    /// the root); an anchor is suspect itself when `planned` (its planned source content) is
    /// empty though records lie below it (`hasRecordsBelow`, asked only then).
    /// - Throws: what `hasRecordsBelow` throws.
    func suspect(
        _ folder: RelativePath, isAnchor: Bool, inherited: RelativePath?, planned: Snapshot,
        hasRecordsBelow: (RelativePath) throws -> Bool
    ) throws -> RelativePath? {
        guard policy.maxDelete != nil, policy.deleteExtraneous else { return nil }
        guard isAnchor else { return inherited }
        guard planned.count == 0, try hasRecordsBelow(folder) else { return nil }
        return folder
    }

    /// The subfolders of a folder in any of the three trees, in path order: those holding
    /// records (`recordFolders`) and the folders of the device's and the local side's entries.
    static func subfolders(recordFolders: [RelativePath], _ sides: Snapshot...) -> [RelativePath] {
        var folders = Set(recordFolders)
        for side in sides {
            for entry in side.entries where entry.kind == .directory { folders.insert(entry.path) }
        }
        return folders.sorted()
    }

    /// How a subfolder stands for the delete guard, `kind` being what the planned source side
    /// holds at its path: an anchor when a folder, its parent's `suspect` when nothing, no
    /// suspect when something else.
    static func anchoring(_ kind: EntryKind?, suspect: RelativePath?) -> (isAnchor: Bool, suspect: RelativePath?) {
        switch kind {
        case nil: (false, suspect)
        case .directory?: (true, nil)
        default: (false, nil)
        }
    }

    /// The end of the walk, once every folder was visited: the held files that `renames` took
    /// over become renames, the others get what was planned for them; then the deletes that
    /// waited (`finishDeletes`; the delete guard counts the whole run's), or the note of the
    /// gone files kept.
    /// - Returns: the refusal of a plan that deletes more files than `--max-delete` allows
    ///   (nothing was changed by then), nil when none.
    /// - Throws: what the writer throws.
    mutating func finish(renames: [DetectedRename]) throws -> String? {
        let renamedFrom = Set(renames.map(\.from))
        let fromOf = Dictionary(renames.map { ($0.to, $0.from) }) { first, _ in first }
        for file in held {
            if let from = fromOf[file.entry.path] {
                try writer.append(
                    Action(
                        kind: terms.rename, path: from, to: file.entry.path, source: file.entry,
                        reason: terms.renameReason), to: .renames)
                continue
            }
            if let transfer = file.transfer { try writer.append(transfer, to: .transfers) }
            if let note = file.note { notes.append(note) }
        }
        let files = try finishDeletes(renamedFrom: renamedFrom)
        for folder in Offload.folders(above: offloadedFiles) where !deviceKeeps.contains(folder.path) {
            try writer.append(folder, to: .deletes)
        }
        if !policy.deleteExtraneous,
            let note = DeleteGuard.keptNote(
                count: max(0, goneKept - renames.count), command: terms.command, what: terms.gone, place: terms.place)
        {
            notes.append(note)
        }
        return DeleteGuard.refusal(files: files + clearingDeletes, maxDelete: policy.maxDelete)
            ?? Offload.refusal(files: offloads, limit: policy.maxOffload)
    }

    /// The notes of the whole walk: the unknown folders' first, then the rest in walk order,
    /// then how much the filters left out.
    var allNotes: [String] {
        let (source, destination) = direction == .pull ? ("on the device", "here") : ("here", "on the device")
        return unknown.notes(sourcePlace: source, destinationPlace: destination) + notes
            + (filteredNote.map { [$0] } ?? [])
    }

    /// What the filters left out of the source side, one line; nil when nothing (found by a
    /// first user: only `ls` said it).
    var filteredNote: String? {
        guard filteredOut > 0 else { return nil }
        let entries = filteredOut == 1 ? "1 entry" : "\(filteredOut) entries"
        // `ls` lists the device's side, one folder at a time.
        guard direction == .pull else { return "\(entries) here left out by the filters" }
        return "\(entries) on the device left out by the filters "
            + "(ftpsync ls DEVICE:FOLDER --show-excluded shows them, one folder at a time)"
    }
}
