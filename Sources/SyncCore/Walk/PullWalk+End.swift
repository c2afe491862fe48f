// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The end of a folder walk: what crosses folders, planned once every folder was visited.
extension PullWalk {
    /// The moves (proven through the source), the new files held back that are no moves, the
    /// deletes (deepest first, through the delete guard), and the refusal of a plan that
    /// deletes more files than `--max-delete` allows: nothing was changed by then.
    /// - Throws: what the writer throws.
    mutating func finish() throws -> PullWalkResult {
        let candidates = RenameDetection.remoteMoves(vanished: vanished, newFiles: ledger.held.map(\.entry)) {
            DefaultTimes(counts: times.counts)
        }
        let evidence = candidates.isEmpty ? MoveEvidence.none : source.evidence(for: candidates)
        let renames = planner.confirmedMoves(candidates, evidence: evidence, notes: &ledger.notes)
        let refusal = try ledger.finish(renames: renames)
        return PullWalkResult(
            notes: ledger.allNotes, unchanged: ledger.unchanged, skipped: ledger.skipped, adopted: ledger.adopted,
            forgotten: ledger.forgotten, refusal: refusal, moveCandidates: candidates,
            overlap: ledger.deviceHasRecords ? ledger.overlap.overlap(unknownFolders: ledger.unknownSource) : nil,
            records: ledger.recordsSeen)
    }
}
