// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Plans a push: which folders to make on the device, what to upload, rename or delete there.
///
/// Pure, like `PullPlanner`. The local side is compared with its recorded half (size, time, and
/// the XXH3 digest for moves), the device with its recorded listing, so clock skew and time
/// zones never cause a transfer. A device file that changed since the last sync is never
/// overwritten or deleted: it becomes a `conflict` action and both sides are left alone.
public struct PushPlanner: Sendable {
    public var policy: SyncPolicy

    public init(policy: SyncPolicy) {
        self.policy = policy
    }

    /// Plans a push of `local` onto `remote`.
    ///
    /// Both snapshots are walked once, side by side (they are sorted by path); the records are
    /// looked up once per local entry.
    /// - Parameters:
    ///   - local: what the device's local folder holds, files with their digests.
    ///   - remote: what the device lists under its root.
    ///   - records: the last successful sync of this device, by path.
    ///   - partials: interrupted uploads, by path, with the bytes their temporary files hold.
    public func plan(
        local rawLocal: Snapshot, remote rawRemote: Snapshot, records: [RelativePath: FileRecord],
        partials: [RelativePath: UploadPartial]
    ) -> PlanResult {
        let remote = Self.planned(remote: rawRemote)
        // Folders either side could not read in full: no deletes, renames or overwrites there;
        // nothing is sent below a device folder not listed in full unless it was listed there.
        let unknown = UnknownFolders(source: rawLocal, destination: rawRemote)
        let local = Self.planned(local: rawLocal, remote: remote, unknown: unknown)
        // What the walk plans, handed to the shared end (`PlanEpilogue`).
        var collected = PlanEpilogue.Collected(
            notes: unknown.notes(sourcePlace: "here", destinationPlace: "on the device"))
        var blockedBelow: [RelativePath] = []
        let recordHits = walk(
            local, remote: remote, records: records, partials: partials, unknown: unknown,
            below: { _ in (remote, records) }, blockedBelow: &blockedBelow, into: &collected)

        let goneHere = unknown.outside(RenameDetection.absent(from: local, records: records, hits: recordHits))
        let renames = RenameDetection.localMoves(
            goneHere: goneHere, newFiles: collected.newFiles.map(\.entry), remote: remote)
        let epilogue = PlanEpilogue(
            policy: policy, unknown: unknown, source: local, destination: remote, records: records,
            collected: consume collected)
        var result = epilogue.finish(gone: goneHere, renames: renames)
        result.abandonedUploads = Self.abandoned(partials, local: rawLocal)
        return result
    }

    /// The device side as planned: upload temporaries and leftovers left out.
    static func planned(remote rawRemote: Snapshot) -> Snapshot {
        rawRemote.filter { !UploadNaming.isTemporary($0.path) && !LeftoverNaming.isLeftover($0.path) }
    }

    /// The local side as planned: nothing below a device folder not listed in full unless the
    /// device listed it there (`remote` is the device side as planned).
    static func planned(local rawLocal: Snapshot, remote: Snapshot, unknown: UnknownFolders) -> Snapshot {
        unknown.destination.isEmpty && unknown.destinationHidden.isEmpty
            ? rawLocal
            : rawLocal.filter { unknown.destinationFolder(holding: $0.path) == nil || remote[$0.path] != nil }
    }

    /// Plans the entries of `local` (all of a tree, or one folder's) against `remote` into
    /// `collected`: the rules of each entry, shared by the whole-tree plan and the folder walk.
    /// - Parameters:
    ///   - below: the device side and the records at and below a device folder where the local
    ///     side now has a file (what clearing it must look at).
    ///   - blockedBelow: local folders below which no file is sent (a conflict keeps the device
    ///     file in their way); grows.
    /// - Returns: how many entries of `local` have a record.
    func walk(
        _ local: Snapshot, remote: Snapshot, records: some RecordLookup,
        partials: [RelativePath: UploadPartial], unknown: UnknownFolders,
        below: (SnapshotEntry) -> (remote: Snapshot, records: any RecordLookup),
        blockedBelow: inout [RelativePath], into collected: inout PlanEpilogue.Collected
    ) -> Int {
        var recordHits = 0
        // Device entries of the other kind in the way of a local one (`TypeChanges`) are removed
        // first (`collected.clearing`); where one changed there (a conflict), nothing is sent below it.
        let remotePositions = local.positions(in: remote)
        for (position, entry) in local.entries.enumerated() {
            let there = remotePositions[position] < 0 ? nil : remote.entries[remotePositions[position]]
            let record = records.isEmpty ? nil : records[entry.path]
            if record != nil { recordHits += 1 }
            switch entry.kind {
            case .directory:
                if let there, there.kind == .directory { continue }
                if let there, there.kind == .file, unknown.forbidsDelete(of: there.path) == nil {
                    let cleared = TypeChanges.pushClearing(
                        source: entry, there: there, remote: remote, records: records)
                    collected.clearing += cleared
                    if cleared.contains(where: { $0.kind == .conflict }) {
                        blockedBelow.append(entry.path)
                    } else {
                        collected.folders.append(
                            Action(kind: .mkdirRemote, path: entry.path, source: entry, reason: "new folder"))
                    }
                    continue
                }
                if let there {
                    collected.skipped.append(
                        SkippedEntry(
                            path: entry.path.string,
                            reason: "a folder here but a \(there.kind.rawValue) on the device; skipped"))
                    continue
                }
                collected.folders.append(
                    Action(kind: .mkdirRemote, path: entry.path, source: entry, reason: "new folder"))
            case .symlink, .other:
                collected.notes.append("\(entry.path): \(entry.kind.rawValue) here; not transferred")
            case .file:
                if !blockedBelow.isEmpty, blockedBelow.contains(where: { $0.isAncestor(of: entry.path) }) { continue }
                if let there, there.kind == .directory, unknown.forbidsDelete(of: there.path) == nil {
                    let view = below(there)
                    if TypeChanges.holdsLeftOut(there.path, side: view.remote, policy: policy) {
                        collected.skipped.append(TypeChanges.keptForFilters(there.path, local: false))
                        continue
                    }
                    let cleared = TypeChanges.pushClearing(
                        source: entry, there: there, remote: view.remote, records: view.records)
                    collected.clearing += cleared
                    if !cleared.contains(where: { $0.kind == .conflict }) {
                        collected.transfers.append(
                            upload(entry, partial: nil, reason: "a file here now, a folder on the device"))
                    }
                    continue
                }
                if record == nil && there == nil && unknown.folder(holding: entry.path) == nil {
                    collected.newFiles.append(PlanEpilogue.NewFile(entry: entry, transfer: collected.transfers.count))
                }
                if let there, there.kind != .file {
                    collected.skipped.append(
                        SkippedEntry(
                            path: entry.path.string,
                            reason: "a file here but a \(there.kind.rawValue) on the device; skipped"))
                    continue
                }
                switch decideFile(local: entry, remote: there, record: record) {
                case .nothing:
                    collected.unchanged += 1
                case .adopt(let remoteEntry):
                    collected.unchanged += 1
                    collected.adoptions.append(Adoption(remote: remoteEntry, local: entry))
                case .upload(let reason):
                    collected.transfers.append(
                        upload(entry, partial: partials.isEmpty ? nil : partials[entry.path], reason: reason))
                case .conflict(let reason):
                    guard let there else { continue }
                    let conflict = ConflictPlan.make(
                        .push, policy: policy.onConflict, remote: there, local: entry, why: reason
                    ) { upload(entry, partial: partials.isEmpty ? nil : partials[entry.path], reason: reason) }
                    collected.transfers.append(contentsOf: conflict.actions)
                    if let adoption = conflict.adoption { collected.adoptions.append(adoption) }
                    if let note = conflict.note { collected.notes.append(note) }
                }
            }
        }
        return recordHits
    }

    /// The interrupted uploads whose local file is gone (deleted or moved): nothing will resume
    /// them, so their temporary files on the device are removed, with their rows.
    static func abandoned(_ partials: [RelativePath: UploadPartial], local: Snapshot) -> [RelativePath] {
        partials.keys.filter { local[$0]?.kind != .file }.sorted()
    }

    private enum FileDecision {
        case nothing
        case adopt(SnapshotEntry)
        case upload(String)
        case conflict(String)
    }

    private func decideFile(local: SnapshotEntry, remote: SnapshotEntry?, record: FileRecord?) -> FileDecision {
        guard let remote else {
            return .upload(record == nil ? "new here" : "missing on the device")
        }
        guard let record else {
            if Comparison.sameContent(remote: remote, local: local) { return .adopt(remote) }
            // Lost or never-made state is no permission to overwrite: nothing says which side
            // is newer, so the device's copy is kept (CONTRACT.md 0.2: push's `on_conflict`
            // default is `report`).
            return .conflict("changed on both sides and no earlier sync says which is newer")
        }
        if !Comparison.remoteMatches(remote, record) {
            return .conflict("changed on the device since the last sync")
        }
        if Comparison.localMatches(local, record) { return .nothing }
        // Touched but not changed: same digest and size as recorded, so only the record moves on.
        if let digest = local.digest, digest == record.digest, local.size == record.localSize {
            return .adopt(remote)
        }
        return .upload("changed here")
    }

    private func upload(_ entry: SnapshotEntry, partial: UploadPartial?, reason: String) -> Action {
        let size = entry.size ?? 0
        var offset: UInt64 = 0
        if let partial, partial.localSize == size, partial.bytesDone <= size,
            let was = partial.localModified, let now = entry.modified, was.matches(now)
        {
            offset = partial.bytesDone
        }
        return Action(
            kind: .upload, path: entry.path, bytes: size - offset, offset: offset, source: entry,
            reason: offset > 0 ? "\(reason); resuming at byte \(offset)" : reason)
    }
}
