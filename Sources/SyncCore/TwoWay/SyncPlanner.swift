// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Plans a two-way sync (`ftpsync sync`): each path of the device and of the local tree is
/// compared with its own side's record of the last sync, and what changed on one side is carried
/// to the other (docs/cli.md, "How sync decides").
///
/// Pure: the snapshots, records and interrupted transfers come in as values, the clock and the
/// names of conflict copies as parameters, and the plan goes out.
///
/// | the device | here | with a record | without |
/// |---|---|---|---|
/// | changed | unchanged | download | — |
/// | unchanged | changed | upload | — |
/// | changed | changed | conflict (`on_conflict`), nothing when the same | — |
/// | file | file | — | the same: record it; else a conflict |
/// | file | — | gone here: `--delete` deletes it there, else kept | download |
/// | — | file | gone there: `--delete` trashes it here, else kept | upload |
///
/// A file deleted on one side and changed on the other is copied back (the change wins); a move
/// on one side (issue 10's evidence) is a rename on the other; a folder either side could not
/// read in full is left alone whole; a file on one side where the other has a folder is skipped.
public struct SyncPlanner: Sendable {
    /// The user's choices: `onConflict`, `deleteExtraneous`, `maxDelete` (deletes of both sides
    /// count), `now`.
    public var policy: SyncPolicy
    /// The name a conflict copy of a file named `name` gets in this run
    /// (`NAME.conflict-<UTC time>.EXT`); the engine names the device's copy the same way.
    public var conflictName: @Sendable (String) -> String

    /// - Parameters:
    ///   - policy: the user's choices (its `direction` is `.sync`).
    ///   - conflictName: the name of the conflict copy of a name, in this run.
    public init(policy: SyncPolicy, conflictName: @escaping @Sendable (String) -> String) {
        self.policy = policy
        self.conflictName = conflictName
    }

    /// Plans a sync of `remote` and `local`.
    ///
    /// - Parameters:
    ///   - remote: what the device lists under its root.
    ///   - local: what the local folder holds, files with their XXH3 digests where hashed.
    ///   - records: the last sync of each path (both sides' size and time), by path.
    ///   - downloads: interrupted downloads, whose bytes on disk a download resumes from.
    ///   - uploads: interrupted uploads, whose temporary on the device an upload resumes.
    ///   - evidence: what the engine proved about the candidates of an earlier plan of the same
    ///     sides: a move candidate (`PlanResult.moveCandidates`) confirmed is a `rename_local`; a
    ///     pair of the same size (`PlanResult.contentCandidates`) confirmed is recorded as in
    ///     sync, refuted or unchecked it is a conflict.
    /// - Returns: the plan; the pairs to record as in sync; the records of paths gone from both
    ///   sides; a refusal when the deletes of both sides together exceed `maxDelete`; the move
    ///   candidates to prove; the interrupted uploads nothing resumes.
    public func plan(
        remote: Snapshot, local: Snapshot, records: [RelativePath: FileRecord],
        downloads: [RelativePath: PartialTransfer] = [:], uploads: [RelativePath: UploadPartial] = [:],
        evidence: MoveEvidence = .none
    ) -> PlanResult {
        var planning = SyncPlanning(
            planner: self, remote: remote, local: local, records: records, downloads: downloads, uploads: uploads,
            evidence: evidence)
        planning.walk()
        let candidates = planning.moves()
        planning.folders()
        var result = planning.result()
        result.moveCandidates = candidates
        result.contentCandidates = planning.contentCandidates
        result.abandonedUploads = uploads.keys.filter { path in
            !result.plan.actions.contains { $0.kind == .upload && $0.path == path && $0.offset > 0 }
        }.sorted()
        return result
    }
}

/// One planning of `SyncPlanner`: what the walk over both sides found, path by path, until the
/// moves, folders and deletes are settled.
struct SyncPlanning {
    let planner: SyncPlanner
    let remote: Snapshot
    let local: Snapshot
    let records: [RelativePath: FileRecord]
    let downloads: [RelativePath: PartialTransfer]
    let uploads: [RelativePath: UploadPartial]
    let unknown: UnknownFolders
    let evidence: MoveEvidence
    var policy: SyncPolicy { planner.policy }
    /// Paths both sides hold with the same size whose content the engine is to compare.
    var contentCandidates: [MoveCandidate] = []
    /// Files left for a later run (`min_age`) or outside the size and age bounds, counted.
    var tooYoung = 0
    var outOfBounds = 0

    /// Transfers and conflicts, by the path they are planned for: a conflict's actions stay
    /// together and in their order.
    var transferGroups: [(path: RelativePath, actions: [Action])] = []
    /// The transfers and conflicts planned so far.
    var transfers: [Action] { transferGroups.flatMap(\.actions) }
    var renames: [Action] = []
    var folderActions: [Action] = []
    var deletes: [Action] = []
    var adoptions: [Adoption] = []
    var forgotten: [RelativePath] = []
    var notes: [String] = []
    var skipped: [SkippedEntry] = []
    var unchanged = 0
    /// Paths where one side has a file and the other a folder: nothing at or below them is synced.
    var blocked = Set<RelativePath>()
    /// Recorded files deleted here while the device's copy is unchanged.
    var goneHere: [(RelativePath, FileRecord)] = []
    /// Recorded files deleted on the device while the local copy is unchanged.
    var goneThere: [(RelativePath, FileRecord)] = []
    /// Files new here (no record, none on the device), and new on the device.
    var newHere: [SnapshotEntry] = []
    var newThere: [SnapshotEntry] = []
    /// Folders only the device has, and only here.
    var remoteOnlyFolders: [RelativePath] = []
    var localOnlyFolders: [RelativePath] = []
    /// Files kept on one side although the other deleted them (no `--delete`), for the notes.
    var keptThere = 0
    var keptHere = 0

    init(
        planner: SyncPlanner, remote: Snapshot, local: Snapshot, records: [RelativePath: FileRecord],
        downloads: [RelativePath: PartialTransfer], uploads: [RelativePath: UploadPartial], evidence: MoveEvidence
    ) {
        self.evidence = evidence
        self.planner = planner
        self.remote = remote
        self.local = local
        self.records = records
        self.downloads = downloads
        self.uploads = uploads
        unknown = UnknownFolders(source: remote, destination: local)
    }

    /// Every path of either side or of the records, once, in path order.
    private func allPaths() -> [RelativePath] {
        var paths = Set(remote.entries.map(\.path))
        paths.formUnion(local.entries.map(\.path))
        paths.formUnion(records.keys)
        return paths.sorted()
    }

    /// True when `path` or a folder above it is blocked (a file against a folder).
    private func isBlocked(_ path: RelativePath) -> Bool { Self.isAtOrBelow(path, any: blocked) }

    /// True when `path` or a folder above it is in `set`.
    static func isAtOrBelow(_ path: RelativePath, any set: Set<RelativePath>) -> Bool {
        guard !set.isEmpty else { return false }
        var folder = path
        while !folder.isRoot {
            if set.contains(folder) { return true }
            folder = folder.parent
        }
        return false
    }

    /// True when the filters left `path` out on either side, or a folder above it: its record
    /// stays, and nothing is done there.
    func isLeftOut(_ path: RelativePath) -> Bool {
        Self.isAtOrBelow(path, any: remote.leftOut) || Self.isAtOrBelow(path, any: local.leftOut)
    }

    /// Why a file of either side is left alone this run: outside the size and age bounds, or
    /// modified less than `min_age` ago (still being written); nil when it takes part.
    private mutating func heldBack(_ there: SnapshotEntry?, _ here: SnapshotEntry?) -> Bool {
        for entry in [there, here].compactMap({ $0 }) where entry.kind == .file {
            if policy.bounds.excludes(entry, now: policy.now) != nil {
                outOfBounds += 1
                return true
            }
            if policy.minimumAge > 0, let modified = entry.modified,
                policy.now.timeIntervalSince1970 - modified.seconds < policy.minimumAge
            {
                tooYoung += 1
                notes.append("\(entry.path): modified less than \(Int(policy.minimumAge)) s ago; left for a later run")
                return true
            }
        }
        return false
    }

    /// Decides each path by what the two sides and its record hold.
    mutating func walk() {
        for path in allPaths() {
            // A folder not read in full on either side: left alone whole (the engine reports it).
            if unknown.folder(holding: path) != nil { continue }
            if isLeftOut(path) || UploadNaming.isTemporary(path) || isBlocked(path) { continue }
            let (there, here) = (remote[path], local[path])
            if heldBack(there, here) { continue }
            decide(path, there: there, here: here, record: records[path])
        }
    }

    private mutating func decide(
        _ path: RelativePath, there: SnapshotEntry?, here: SnapshotEntry?, record: FileRecord?
    ) {
        switch (there?.kind, here?.kind) {
        case (nil, nil):
            forgotten.append(path)
        case (.symlink?, _), (.other?, _), (_, .symlink?), (_, .other?):
            guard let there, let here else { return }
            let what = { (entry: SnapshotEntry) in entry.kind == .directory ? "a folder" : "a \(entry.kind.rawValue)" }
            skipped.append(
                SkippedEntry(path, reason: "\(what(there)) on the device and \(what(here)) here: not synced"))
            blocked.insert(path)
        case (.directory?, .directory?):
            return
        case (.directory?, .file?), (.file?, .directory?):
            let (deviceHas, hereHas) = there?.kind == .directory ? ("a folder", "a file") : ("a file", "a folder")
            skipped.append(
                SkippedEntry(
                    path,
                    reason: "\(deviceHas) on the device and \(hereHas) here: not synced (rename or remove one of them)")
            )
            blocked.insert(path)
        case (.directory?, nil):
            remoteOnlyFolders.append(path)
        case (nil, .directory?):
            localOnlyFolders.append(path)
        case (.file?, .file?):
            if let there, let here { both(there, here, record: record) }
        case (.file?, nil):
            if let there { onlyThere(there, record: record) }
        case (nil, .file?):
            if let here { onlyHere(here, record: record) }
        }
    }
}
