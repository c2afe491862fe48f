import Foundation

/// The end of a push's folder walk: what crosses folders, planned once every folder was visited.
extension PushWalk {
    /// The moves (by digest), the new files held back that are no moves, the deletes (deepest
    /// first, through the delete guard), the interrupted uploads abandoned, and the refusal of a
    /// plan that deletes more files than `--max-delete` allows: nothing was changed by then.
    /// - Throws: what the writer throws.
    mutating func finish() throws -> PushWalkResult {
        let terms = PlanEpilogue.Terms.of(.push)
        // A folder's files are planned before its subfolders': in path order, a vanished path
        // goes to the first new file of its digest, as in the whole-tree plan.
        held.sort { $0.entry.path < $1.entry.path }
        let renames = RenameDetection.localMoves(vanished: vanished, newFiles: held.map(\.entry))
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
        }
        var deletes: [Action] = []
        if policy.deleteExtraneous {
            let kept = deleteCandidates.filter { candidate in
                let path = candidate.entry.path
                return !renamedFrom.contains(path) && !cleared.contains { $0 == path || $0.isAncestor(of: path) }
            }
            var conflicts: [Action] = []
            deletes = PlanEpilogue.guardedDeletes(
                kept, policy: policy, unknown: unknown, terms: terms, notes: &notes, transfers: &conflicts)
            for action in conflicts { try writer.append(action, to: .transfers) }
        } else if let note = DeleteGuard.keptNote(
            count: max(0, goneKept - renames.count), command: terms.command, what: terms.gone, place: terms.place)
        {
            notes.append(note)
        }
        for action in PlanOrder.deepestFirst(deletes) { try writer.append(action, to: .deletes) }
        let files = deletes.filter { $0.source?.kind != .directory }.count
        return PushWalkResult(
            notes: unknown.notes(sourcePlace: "here", destinationPlace: "on the device") + notes,
            unchanged: unchanged, skipped: skipped, adoptions: adoptions, forgotten: forgotten.sorted(),
            refusal: DeleteGuard.refusal(files: files + clearingDeletes, maxDelete: policy.maxDelete),
            abandonedUploads: partials.keys.filter { !resumable.contains($0) }.sorted(), records: recordsSeen,
            overlap: deviceHasRecords ? overlap.overlap(unknownFolders: unknownDestination) : nil)
    }
}
