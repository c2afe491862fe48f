// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a sync settles once every path was seen: moves, new files, deletes, folders (see
/// `SyncPlanner`).
extension SyncPlanning {
    /// Turns moves into renames — a local move (same XXH3 digest) into a `rename_remote`, a
    /// device move that `evidence` confirmed into a `rename_local` — then plans the new files of
    /// each side and what the other side deleted.
    /// - Returns: the device's move candidates (size and time alone), for the engine to prove.
    mutating func moves() -> [MoveCandidate] {
        let here = RenameDetection.localMoves(goneHere: goneHere, newFiles: newHere, remote: remote)
        for move in here {
            planRename(.renameRemote, move, source: local[move.to], reason: "moved here (same content)")
        }
        let candidates = RenameDetection.remoteMoves(
            goneThere: goneThere, newFiles: newThere, local: local, remote: remote)
        var there: [DetectedRename] = []
        for candidate in candidates {
            guard evidence.confirmed.contains(candidate) else {
                if let finding = evidence.findings[candidate] {
                    notes.append(
                        "\(candidate.to): not taken as \(candidate.from) moved on the device (\(finding)); downloaded")
                }
                continue
            }
            let move = DetectedRename(from: candidate.from, to: candidate.to)
            planRename(.renameLocal, move, source: remote[candidate.to], reason: "moved on the device (same content)")
            there.append(move)
        }
        // What moved is neither gone from its old path nor new at its new one.
        let (fromHere, toHere) = (Set(here.map(\.from)), Set(here.map(\.to)))
        let (fromThere, toThere) = (Set(there.map(\.from)), Set(there.map(\.to)))
        goneHere.removeAll { fromHere.contains($0.0) }
        newHere.removeAll { toHere.contains($0.path) }
        goneThere.removeAll { fromThere.contains($0.0) }
        newThere.removeAll { toThere.contains($0.path) }
        for entry in newHere { add(upload(entry, reason: "new here")) }
        for entry in newThere { add(download(entry, reason: "new on the device")) }
        transferGroups.sort { $0.path < $1.path }
        planDeletes()
        return candidates
    }

    /// Plans `move` as a rename of `kind`, carrying the record of its old path.
    private mutating func planRename(_ kind: ActionKind, _ move: DetectedRename, source: SnapshotEntry?, reason: String)
    {
        var action = Action(kind: kind, path: move.from, to: move.to, source: source, reason: reason)
        action.record = records[move.from]
        renames.append(action)
    }

    /// With `--delete`, a file one side deleted is deleted on the other (here: to the trash),
    /// unless the side it left shows an empty folder where files were (`DeleteGuard`); without,
    /// it is kept and counted for the notes.
    private mutating func planDeletes() {
        guard policy.deleteExtraneous else {
            keptThere = goneHere.count
            keptHere = goneThere.count
            return
        }
        // Per side and folder: the files not deleted because that folder came back empty.
        var suspect: [(here: Bool, folder: RelativePath, files: Int)] = []
        for (side, gone) in [(true, goneHere), (false, goneThere)] {
            let source = side ? local : remote
            let check = DeleteGuard(
                source: source, records: records, maxDelete: policy.maxDelete, checking: !gone.isEmpty)
            for (path, _) in gone {
                if let folder = check.suspectFolder(for: path) {
                    if let index = suspect.firstIndex(where: { $0.here == side && $0.folder == folder }) {
                        suspect[index].files += 1
                    } else {
                        suspect.append((side, folder, 1))
                    }
                    continue
                }
                deletes.append(
                    side
                        ? Action(kind: .deleteRemote, path: path, source: remote[path], reason: "deleted here")
                        : Action(kind: .deleteLocal, path: path, source: local[path], reason: "deleted on the device"))
            }
        }
        for (isHere, folder, files) in suspect {
            let (side, other) = isHere ? ("here", "on the device") : ("on the device", "here")
            let root = isHere ? "the device's local folder" : "the device's remote folder"
            let shown = folder.isRoot ? root : "'\(folder)' \(side)"
            notes.append(
                "\(shown) came back empty although files were synced there: \(Self.files(files)) in it not deleted"
                    + " \(other) (use --max-delete -1 to allow)")
        }
    }

    /// Folders one side holds alone: made on the other side when they are new (no record below
    /// them) or something goes into them; deleted (deepest first) when the other side deleted
    /// them and nothing in them stays — with `--delete`, or when everything in them moved away.
    mutating func folders() {
        let neededHere = Self.ancestors(
            of: transfers.filter { $0.kind == .download }.map(\.path)
                + renames.filter { $0.kind == .renameLocal }.compactMap(\.to))
        let neededThere = Self.ancestors(
            of: transfers.filter { $0.kind == .upload }.map(\.path)
                + renames.filter { $0.kind == .renameRemote }.compactMap(\.to))
        let recorded = Self.ancestors(of: Array(records.keys))
        let removedThere = Set(deletes.filter { $0.kind == .deleteRemote }.map(\.path))
        let movedThere = Set(renames.filter { $0.kind == .renameRemote }.map(\.path))
        let removedHere = Set(deletes.filter { $0.kind == .deleteLocal }.map(\.path))
        let movedHere = Set(renames.filter { $0.kind == .renameLocal }.map(\.path))
        for (folders, side, needed, removed, moved, made, delete) in [
            (
                remoteOnlyFolders, remote, neededHere, removedThere, movedThere, ActionKind.mkdirLocal,
                ActionKind.deleteRemote
            ),
            (localOnlyFolders, local, neededThere, removedHere, movedHere, .mkdirRemote, .deleteLocal),
        ] {
            // Deepest first: a folder below that is made, or stays, decides for the ones above.
            var making = Set<RelativePath>()
            var staying = Set<RelativePath>()
            for folder in folders.sorted(by: { $0.depth > $1.depth }) {
                if needed.contains(folder) || !recorded.contains(folder) || making.contains(folder) {
                    let reason = made == .mkdirLocal ? "new folder on the device" : "new folder here"
                    folderActions.append(Action(kind: made, path: folder, source: side[folder], reason: reason))
                    making.formUnion(Self.ancestors(of: [folder]))
                    staying.formUnion(Self.ancestors(of: [folder]))
                } else if let action = emptied(
                    folder, side: side, removed: removed, moved: moved, kind: delete, staying: staying)
                {
                    deletes.append(action)
                } else {
                    staying.formUnion(Self.ancestors(of: [folder]))
                }
            }
        }
    }

    /// The delete of `folder` of `side`, the other side having deleted it: when every file below
    /// it goes (`removed`, or `moved` away) and no folder below it stays (`staying`), with
    /// `--delete` or when something moved out of it; nil when it stays.
    private func emptied(
        _ folder: RelativePath, side: Snapshot, removed: Set<RelativePath>, moved: Set<RelativePath>,
        kind: ActionKind, staying: Set<RelativePath>
    ) -> Action? {
        guard unknown.forbidsDelete(of: folder) == nil, !staying.contains(folder) else { return nil }
        // What the filters left out of it would go with it.
        if side.leftOut.contains(where: { $0 == folder || folder.isAncestor(of: $0) }) { return nil }
        var movedAway = false
        for entry in side.entries where folder.isAncestor(of: entry.path) && entry.kind != .directory {
            if moved.contains(entry.path) {
                movedAway = true
            } else if !removed.contains(entry.path) {
                return nil
            }
        }
        guard policy.deleteExtraneous || movedAway else { return nil }
        let reason = kind == .deleteRemote ? "deleted here" : "deleted on the device"
        return Action(kind: kind, path: folder, source: side[folder], reason: movedAway ? "emptied by moves" : reason)
    }

    /// Every folder at or above each of `paths`' parents, the root excluded.
    static func ancestors(of paths: [RelativePath]) -> Set<RelativePath> {
        var folders = Set<RelativePath>()
        for path in paths {
            var folder = path.parent
            while !folder.isRoot, folders.insert(folder).inserted { folder = folder.parent }
        }
        return folders
    }

    /// The plan: folders, renames, transfers and conflicts, then deletes deepest first; the
    /// refusal when the deletes of both sides exceed `maxDelete`.
    func result() -> PlanResult {
        var notes = notes
        if keptThere > 0 {
            notes.append(
                "\(Self.files(keptThere)) deleted here since the last sync \(keptThere == 1 ? "is" : "are") kept"
                    + " on the device: sync --delete deletes \(keptThere == 1 ? "it" : "them") there")
        }
        if outOfBounds > 0 {
            notes.append("\(Self.files(outOfBounds)) outside the size and age bounds left alone on both sides")
        }
        if keptHere > 0 {
            notes.append(
                "\(Self.files(keptHere)) deleted on the device since the last sync \(keptHere == 1 ? "is" : "are")"
                    + " kept here: sync --delete moves \(keptHere == 1 ? "it" : "them") to the trash")
        }
        let files = deletes.filter { $0.source?.kind != .directory }.count
        let actions = PlanOrder.ordered(
            folders: folderActions, renames: renames, transfers: transfers, deletes: deletes)
        return PlanResult(
            plan: Plan(actions: actions, notes: notes, unchanged: unchanged, skipped: skipped), adoptions: adoptions,
            forgotten: forgotten, refusal: DeleteGuard.refusal(files: files, maxDelete: policy.maxDelete))
    }

    static func files(_ count: Int) -> String { count == 1 ? "1 file" : "\(count) files" }
}
