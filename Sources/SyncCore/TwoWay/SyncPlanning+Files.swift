// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The rules of one file of a sync (see `SyncPlanner`).
extension SyncPlanning {
    /// True when the local file differs from its record: size or time changed and, when both
    /// digests are known, the content too (a file touched without a change is unchanged).
    static func localChanged(_ here: SnapshotEntry, _ record: FileRecord) -> Bool {
        if Comparison.localMatches(here, record) { return false }
        if let digest = here.digest, let recorded = record.digest, digest == recorded, here.size == record.localSize {
            return false
        }
        return true
    }

    /// A file both sides hold.
    mutating func both(_ there: SnapshotEntry, _ here: SnapshotEntry, record recorded: FileRecord?) {
        // A record whose two sizes differ holds a pair that was never the same file (pull's and
        // push's `local-wins`/`remote-wins` record such a pair): it says nothing of which side
        // changed, as if there were none.
        var record = recorded
        if let size = recorded?.remoteSize, size != recorded?.localSize { record = nil }
        guard let record else {
            // Size and a time to the second (or finer) on both: the same file, as for pull and push.
            if Comparison.sameContent(remote: there, local: here),
                (there.modified?.granularity ?? .day) >= .second
            {
                adoptions.append(Adoption(remote: there, local: here))
                unchanged += 1
            } else {
                compared(there, here, why: "new on both sides")
            }
            return
        }
        let changedThere = !Comparison.remoteMatches(there, record)
        let changedHere = Self.localChanged(here, record)
        switch (changedThere, changedHere) {
        case (false, false):
            unchanged += 1
            // Touched here without a change: recorded anew, so it is not hashed again next time.
            if !Comparison.localMatches(here, record) { adoptions.append(Adoption(remote: there, local: here)) }
        case (true, false):
            add(download(there, reason: "changed on the device"))
        case (false, true):
            var sent = upload(here, reason: "changed here")
            sent.destination = there
            add(sent)
        case (true, true):
            compared(there, here, why: "changed on both sides since the last sync")
        }
    }

    /// Two versions that may be one: of the same size, the content the engine compared
    /// (`evidence`) decides — the same is recorded, else a conflict; a pair not compared yet is
    /// a candidate (and a conflict in this plan). Different sizes are a conflict at once.
    mutating func compared(_ there: SnapshotEntry, _ here: SnapshotEntry, why: String) {
        guard let size = there.size, size == here.size else {
            return conflict(there, here, why: "\(why), with different sizes")
        }
        let candidate = MoveCandidate(from: there.path, to: there.path, size: size, defaultTime: false)
        if evidence.confirmed.contains(candidate) {
            adoptions.append(Adoption(remote: there, local: here))
            unchanged += 1
            return
        }
        if let finding = evidence.findings[candidate] { return conflict(there, here, why: "\(why): \(finding)") }
        contentCandidates.append(candidate)
        conflict(there, here, why: "\(why), the content not compared")
    }

    /// A file only the device holds.
    mutating func onlyThere(_ there: SnapshotEntry, record: FileRecord?) {
        guard let record else { return newThere.append(there) }
        if Comparison.remoteMatches(there, record) {
            goneHere.append((there.path, record))
        } else {
            add(
                download(there, reason: "deleted here but changed on the device since the last sync; copied back"))
        }
    }

    /// A file only the local tree holds.
    mutating func onlyHere(_ here: SnapshotEntry, record: FileRecord?) {
        guard let record else { return newHere.append(here) }
        if Self.localChanged(here, record) {
            add(
                upload(here, reason: "deleted on the device but changed here since the last sync; copied back"))
        } else {
            goneThere.append((here.path, record))
        }
    }

    /// The actions of a file whose two versions differ, as `on_conflict` resolves it:
    /// - `keep-both`: the device's version is renamed to its conflict copy's name there (the
    ///   conflict action), then ours is uploaded under the name and the device's downloaded under
    ///   the copy's name: both sides hold both;
    /// - `local-wins`: ours is uploaded over the device's; `remote-wins`: ours goes to the trash
    ///   and the device's is downloaded; `newer-wins`: the later one wins, `keep-both` when the
    ///   times cannot tell; `report`: nothing changes and the conflict fails the device.
    mutating func conflict(_ there: SnapshotEntry, _ here: SnapshotEntry, why: String) {
        var resolution = ConflictResolver.resolve(policy.onConflict, remote: there.modified, local: here.modified)
        var copy: RelativePath?
        if resolution == .keepBoth {
            copy = try? there.path.parent.appending(validating: planner.conflictName(there.path.name))
            if let taken = copy, remote[taken] != nil || local[taken] != nil || taken == there.path {
                copy = nil
            }
            if copy == nil { resolution = .report }
        }
        var action = Action(kind: .conflict, path: there.path, source: there, reason: why)
        action.resolution = resolution
        switch resolution {
        case .report:
            action.reason =
                policy.onConflict == .report
                ? ConflictResolver.reportedReason(.sync, why: why)
                : "\(why); both left as they are: the name of its conflict copy is taken"
            add(action)
        case .keepBoth:
            guard let copy else { return }
            action.reason =
                ConflictResolver.resolvedReason(.sync, .keepBoth, why: why) + "; the device's as \(copy.name)"
            var sent = upload(here, reason: "\(why); this version (keep-both)")
            sent.resolution = .keepBoth
            var copied = there
            copied.path = copy
            copied.rawName = nil
            var fetched = download(copied, reason: "the device's version of \(there.path) (keep-both)")
            fetched.offset = 0
            fetched.bytes = there.size ?? 0
            transferGroups.append((there.path, [action, sent, fetched]))
        case .localWins:
            action.reason = ConflictResolver.resolvedReason(.sync, .localWins, why: why)
            var sent = upload(here, reason: "\(why) (local-wins)")
            sent.resolution = .localWins
            sent.destination = there
            transferGroups.append((there.path, [action, sent]))
        case .remoteWins:
            action.reason = ConflictResolver.resolvedReason(.sync, .remoteWins, why: why)
            var fetched = download(there, reason: "\(why) (remote-wins)")
            fetched.resolution = .remoteWins
            transferGroups.append((there.path, [action, fetched]))
        }
    }

    /// Plans `action` alone for its path.
    mutating func add(_ action: Action) { transferGroups.append((action.path, [action])) }

    /// A download of `entry`, resumed from an interrupted one when its device file is unchanged.
    func download(_ entry: SnapshotEntry, reason: String) -> Action {
        let size = entry.size ?? 0
        var offset: UInt64 = 0
        if let partial = downloads[entry.path], partial.remoteSize == entry.size, partial.bytesDone <= size,
            let was = partial.remoteModified, let now = entry.modified, was.matches(now)
        {
            offset = partial.bytesDone
        }
        return Action(
            kind: .download, path: entry.path, bytes: size - offset, offset: offset, source: entry,
            reason: offset > 0 ? "\(reason); resuming at byte \(offset)" : reason)
    }

    /// An upload of `entry`, resumed from an interrupted one when the local file is unchanged.
    func upload(_ entry: SnapshotEntry, reason: String) -> Action {
        let size = entry.size ?? 0
        var offset: UInt64 = 0
        if let partial = uploads[entry.path], partial.localSize == size, partial.bytesDone <= size,
            let was = partial.localModified, let now = entry.modified, was.matches(now)
        {
            offset = partial.bytesDone
        }
        return Action(
            kind: .upload, path: entry.path, bytes: size - offset, offset: offset, source: entry,
            reason: offset > 0 ? "\(reason); resuming at byte \(offset)" : reason)
    }
}
