import Foundation

/// The end of a folder walk: what crosses folders, planned once every folder was visited.
extension PullWalk {
    /// The moves (proven through the source), the new files held back that are no moves, the
    /// deletes (deepest first, through the delete guard), and the refusal of a plan that
    /// deletes more files than `--max-delete` allows: nothing was changed by then.
    /// - Throws: what the writer throws.
    mutating func finish() throws -> PullWalkResult {
        let terms = PlanEpilogue.Terms.of(.pull)
        let candidates = RenameDetection.remoteMoves(vanished: vanished, newFiles: held.map(\.entry)) {
            DefaultTimes(counts: times)
        }
        let evidence = candidates.isEmpty ? MoveEvidence.none : source.evidence(for: candidates)
        let renames = planner.confirmedMoves(candidates, evidence: evidence, notes: &notes)
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
        return PullWalkResult(
            notes: unknown.notes(sourcePlace: "on the device", destinationPlace: "here") + notes,
            unchanged: unchanged, skipped: skipped, adoptions: adoptions, forgotten: forgotten.sorted(),
            refusal: DeleteGuard.refusal(files: files + clearingDeletes, maxDelete: policy.maxDelete),
            moveCandidates: candidates,
            overlap: deviceHasRecords ? overlap.overlap(unknownFolders: unknownSource) : nil,
            records: recordsSeen)
    }
}
