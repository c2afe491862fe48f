// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The end of a push's folder walk: what crosses folders, planned once every folder was visited.
extension PushWalk {
    /// The moves (by digest), the new files held back that are no moves, the deletes (deepest
    /// first, through the delete guard), the interrupted uploads abandoned, and the refusal of a
    /// plan that deletes more files than `--max-delete` allows: nothing was changed by then.
    /// - Throws: what the writer throws.
    mutating func finish() throws -> PushWalkResult {
        // A folder's files are planned before its subfolders': in path order, a vanished path
        // goes to the first new file of its digest, as in the whole-tree plan.
        ledger.held.sort { $0.entry.path < $1.entry.path }
        let renames = RenameDetection.localMoves(vanished: vanished, newFiles: ledger.held.map(\.entry))
        let refusal = try ledger.finish(renames: renames)
        return PushWalkResult(
            notes: ledger.allNotes, unchanged: ledger.unchanged, skipped: ledger.skipped, adopted: ledger.adopted,
            forgotten: ledger.forgotten, refusal: refusal,
            abandonedUploads: partials.keys.filter { !resumable.contains($0) }.sorted(), records: ledger.recordsSeen,
            overlap: ledger.deviceHasRecords ? ledger.overlap.overlap(unknownFolders: ledger.unknownDestination) : nil)
    }
}
