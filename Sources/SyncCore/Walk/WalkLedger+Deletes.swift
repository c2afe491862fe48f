// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The deletes of a folder walk with `--delete`, decided as the walk goes (issue 17): a
/// destination entry the source lacks is weighed by the delete guard when its folder is
/// planned (a file) or once the walk has left the folder's subtree (a folder: only then is it
/// known whether something below it is kept, or not known in full). What the walk keeps
/// until its end is only what a rename may take over — the candidates that may be the source
/// of a move (bounded with the move candidates) and the folders above them. Written children
/// before their folder.
struct DeleteQueue {
    /// The folder candidates of one folder, in path order, from `next` on not yet weighed.
    struct Frame {
        var folder: RelativePath
        var waiting: [PlanEpilogue.DeleteCandidate]
        var next = 0
        /// True once the walk has been in the candidate at `next`: once it is elsewhere in the
        /// frame's folder, that candidate's subtree is done.
        var entered = false
    }

    /// The frames of the folders the walk is in, outermost first.
    var frames: [Frame] = []
    /// Candidates that may be the source of a rename, weighed at the end.
    var held: [PlanEpilogue.DeleteCandidate] = []
    /// Folder candidates above a held candidate, weighed at the end after it.
    var heldFolders: [PlanEpilogue.DeleteCandidate] = []
    /// The folders above a held candidate, and above something kept (not deleted then).
    var heldBelow = Set<RelativePath>()
    var keptBelow = Set<RelativePath>()
    /// File deletes written (the delete guard's count).
    var files = 0
    /// What was kept below suspect folders, noted at the end (one note per folder).
    var suspects = DeleteGuard.KeptBelowSuspects()

    /// Adds every folder above `path` to `set` (stops at the first already there: its own
    /// ancestors are there too).
    static func mark(ancestorsOf path: RelativePath, in set: inout Set<RelativePath>) {
        var folder = path
        while !folder.isRoot {
            folder = folder.parent
            guard set.insert(folder).inserted else { return }
        }
    }
}

extension WalkLedger {
    /// Adds the entries of `destination` (one folder) that the planned source side `planned`
    /// lacks as delete candidates (with `--delete` only): a file is weighed now unless its path
    /// is in `moveSources` (a gone record a move may come from: weighed at the end), a folder
    /// once the walk has left it.
    /// - Throws: what the writer throws.
    mutating func addDeleteCandidates(
        destination: Snapshot, planned: Snapshot, records: RecordTable, suspect: RelativePath?,
        moveSources: Set<RelativePath>
    ) throws {
        guard policy.deleteExtraneous else { return }
        let positions = destination.positions(in: planned)
        var folders: [PlanEpilogue.DeleteCandidate] = []
        for (position, entry) in destination.entries.enumerated() where positions[position] < 0 {
            let candidate = PlanEpilogue.DeleteCandidate(entry: entry, record: records[entry.path], suspect: suspect)
            if entry.kind == .directory {
                folders.append(candidate)
            } else if moveSources.contains(entry.path) {
                deletes.held.append(candidate)
                DeleteQueue.mark(ancestorsOf: entry.path, in: &deletes.heldBelow)
            } else {
                try weigh(candidate)
            }
        }
        guard let first = folders.first else { return }
        deletes.frames.append(DeleteQueue.Frame(folder: first.entry.path.parent, waiting: folders))
    }

    /// Weighs the folder candidates whose subtree the walk has left, now that it visits `folder`:
    /// all of a folder the walk has left, else those it has been in, in order. Whether the walk
    /// has been in a candidate is seen, not told by path order: the walk may visit a folder
    /// under another spelling than the candidate's (records in NFC, a local folder in NFD), and
    /// the two spellings sort apart ("e" + U+0301 before "f", U+00E9 after it).
    /// - Throws: what the writer throws.
    mutating func leaveFolders(before folder: RelativePath) throws {
        while var frame = deletes.frames.popLast() {
            let inside = frame.folder == folder || frame.folder.isAncestor(of: folder)
            while frame.next < frame.waiting.count {
                let candidate = frame.waiting[frame.next]
                let path = candidate.entry.path
                if inside && (path == folder || path.isAncestor(of: folder)) {
                    // The walk is in it.
                    frame.entered = true
                    break
                }
                // Not visited yet: still ahead of the walk.
                if inside && !frame.entered { break }
                frame.next += 1
                frame.entered = false
                try weighFolder(candidate)
            }
            if inside {
                deletes.frames.append(frame)
                return
            }
        }
    }

    /// The end of the deletes, once every folder was visited: the folders still waiting, then
    /// the held candidates that no rename (`renamedFrom`) took over, then the folders above
    /// them, deepest first.
    /// - Returns: how many file deletes were written in all.
    /// - Throws: what the writer throws.
    mutating func finishDeletes(renamedFrom: Set<RelativePath>) throws -> Int {
        guard policy.deleteExtraneous else { return 0 }
        // No folder is an ancestor of the root's content's end: every frame is left.
        while let frame = deletes.frames.popLast() {
            for candidate in frame.waiting[frame.next...] { try weighFolder(candidate) }
        }
        try releaseHeldDeletes(renamedFrom: renamedFrom)
        notes += deletes.suspects.notes()
        return deletes.files
    }

    /// Weighs the candidates held for a rename that `renamedFrom` did not take over, then the
    /// folders that waited above them, deepest first. The folders the walk is still in weigh
    /// theirs when it leaves them.
    /// - Throws: what the writer throws.
    mutating func releaseHeldDeletes(renamedFrom: Set<RelativePath> = []) throws {
        for candidate in deletes.held where !renamedFrom.contains(candidate.entry.path) { try weigh(candidate) }
        let folders = deletes.heldFolders.sorted { a, b in
            let (depthA, depthB) = (a.entry.path.depth, b.entry.path.depth)
            return depthA != depthB ? depthA > depthB : b.entry.path < a.entry.path
        }
        deletes.held = []
        deletes.heldFolders = []
        deletes.heldBelow = []
        for candidate in folders { try weighFolder(candidate) }
    }

    /// Weighs a folder candidate whose subtree is done: at the end when a held candidate lies
    /// below it; not deleted when something below it is kept.
    private mutating func weighFolder(_ candidate: PlanEpilogue.DeleteCandidate) throws {
        if deletes.heldBelow.contains(candidate.entry.path) { return deletes.heldFolders.append(candidate) }
        try weigh(candidate)
    }

    /// Weighs one candidate through the delete guard and writes what it decided.
    private mutating func weigh(_ candidate: PlanEpilogue.DeleteCandidate) throws {
        let path = candidate.entry.path
        if cleared.contains(where: { $0 == path || $0.isAncestor(of: path) }) { return }
        switch PlanEpilogue.weigh(candidate, policy: policy, unknown: unknown, terms: terms) {
        case .ignored:
            return
        case .delete(let action):
            if candidate.entry.kind == .directory && deletes.keptBelow.contains(path) { return }
            try writer.append(action, to: .deletes)
            if candidate.entry.kind != .directory { deletes.files += 1 }
        case .offloaded:
            DeleteQueue.mark(ancestorsOf: path, in: &deletes.keptBelow)
        case .kept(let note):
            notes.append(note)
            DeleteQueue.mark(ancestorsOf: path, in: &deletes.keptBelow)
        case .suspect(let folder):
            deletes.suspects.add(below: folder)
            DeleteQueue.mark(ancestorsOf: path, in: &deletes.keptBelow)
        case .conflict(let action):
            try writer.append(action, to: .transfers)
            DeleteQueue.mark(ancestorsOf: path, in: &deletes.keptBelow)
        }
    }
}
