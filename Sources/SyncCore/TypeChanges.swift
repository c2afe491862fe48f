// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A path that is a file on one side and a folder on the other because the source side changed
/// its type (a device file that became a folder, or the reverse). Like lftp `mirror` and rclone,
/// the destination follows, with or without `--delete`; nothing is lost on the way:
/// - pull: the local entry in the way goes to the trash (`delete_local`) when it and everything
///   below it is as recorded at the last sync; otherwise it is set aside as a conflict copy
///   (`NAME.conflict-<UTC time>.EXT`, a folder as a whole; resolution `keep-both`). Never unlinked.
/// - push: the device entry in the way is deleted (DELE, or RMD after DELE of its content,
///   deepest first) when it and everything below it is as recorded; otherwise a `conflict`
///   (resolution `report`) is reported and the device is left as it is.
///
/// The actions run before every other action of the plan (`PlanOrder`, `clearing`).
enum TypeChanges {
    /// The actions that clear the local entry `here` (at the path of `source`, of the other
    /// kind) for a pull.
    /// - Parameters:
    ///   - local: the local side, for the content below a folder.
    ///   - records: the last successful sync, by path.
    static func pullClearing(
        source: SnapshotEntry, here: SnapshotEntry, local: Snapshot, records: some RecordLookup
    ) -> [Action] {
        let path = here.path
        let what = source.kind == .directory ? "a folder" : "a file"
        var unchanged = here.kind == .directory || unchangedLocal(here, records)
        if here.kind == .directory {
            for entry in local.entries where path.isAncestor(of: entry.path) && entry.kind != .directory {
                if !unchangedLocal(entry, records) { unchanged = false }
            }
        }
        if unchanged {
            return [
                Action(
                    kind: .deleteLocal, path: path, source: here,
                    reason: "\(what) on the device now; the \(here.kind.rawValue) here goes to the trash")
            ]
        }
        var conflict = Action(
            kind: .conflict, path: path, source: here,
            reason: "\(what) on the device now, but the \(here.kind.rawValue) here changed since the last sync; kept"
                + " as a conflict copy")
        conflict.resolution = .keepBoth
        return [conflict]
    }

    /// The actions that clear the device entry `there` (of the other kind than the local `source`)
    /// for a push; a single `conflict` when something there changed since the last sync.
    /// - Parameters:
    ///   - remote: the device side, for the content below a folder.
    ///   - records: the last successful sync, by path.
    static func pushClearing(
        source: SnapshotEntry, there: SnapshotEntry, remote: Snapshot, records: some RecordLookup
    ) -> [Action] {
        let path = there.path
        let what = source.kind == .directory ? "a folder" : "a file"
        var below: [SnapshotEntry] = []
        var unchanged = there.kind == .directory || unchangedRemote(there, records)
        if there.kind == .directory {
            for entry in remote.entries where path.isAncestor(of: entry.path) {
                below.append(entry)
                if entry.kind != .directory && !unchangedRemote(entry, records) { unchanged = false }
            }
        }
        guard unchanged else {
            var conflict = Action(
                kind: .conflict, path: path, source: there,
                reason: "\(what) here now, but the \(there.kind.rawValue) on the device changed since the last"
                    + " sync; not deleted")
            // Left as it is: the action is reported, nothing changes on the device.
            conflict.resolution = .report
            return [conflict]
        }
        let deepestFirst = below.sorted { a, b in
            a.path.depth != b.path.depth ? a.path.depth > b.path.depth : b.path < a.path
        }
        return (deepestFirst + [there]).map { entry in
            Action(
                kind: .deleteRemote, path: entry.path, source: entry,
                reason: "\(what) here now; the \(there.kind.rawValue) on the device is removed")
        }
    }

    /// True when the folder `path` holds, at any depth, something the filters leave out on
    /// `side`: a path its glob rules left out (`Snapshot.leftOut`) or a file out of
    /// `policy.bounds`. Such a folder is never cleared: it would take what the user asked to
    /// leave alone along (rclone's rule); the entry of the other kind is skipped instead. On a
    /// push with `deviceDotNamesLeftOut`, every device folder may hold such names.
    /// - Parameter side: the side the folder is on, with (at least) everything below it.
    static func holdsLeftOut(_ path: RelativePath, side: Snapshot, policy: SyncPolicy) -> Bool {
        if side.leftOut.contains(where: { path.isAncestor(of: $0) }) { return true }
        // A push's device folder may hold dot-names its listing never showed (`hidden: false`).
        if policy.direction == .push, policy.deviceDotNamesLeftOut { return true }
        guard !policy.bounds.isEmpty else { return false }
        return side.entries.contains {
            path.isAncestor(of: $0.path) && policy.bounds.excludes($0, now: policy.now) != nil
        }
    }

    /// The skipped entry of a folder that is not cleared because it holds what the filters
    /// leave out (`holdsLeftOut`); `here` says whether the folder is local (pull) or on the
    /// device (push).
    static func keptForFilters(_ path: RelativePath, local: Bool) -> SkippedEntry {
        let reason =
            local
            ? "a file on the device but a folder here holding what the filters leave out; the file is not pulled"
                + " and the folder stays"
            : "a file here but a folder on the device holding what the filters leave out; the file is not pushed"
                + " and the folder stays"
        return SkippedEntry(path, reason: reason)
    }

    /// The deletes among clearing actions: they count against `--max-delete` like any other.
    static func deletes(_ clearing: [Action]) -> [Action] {
        clearing.filter { $0.kind == .deleteLocal || $0.kind == .deleteRemote }
    }

    /// A local file (or anything else) counts as unchanged only when recorded and matching.
    private static func unchangedLocal(_ entry: SnapshotEntry, _ records: some RecordLookup) -> Bool {
        guard entry.kind == .file, let record = records[entry.path] else { return false }
        return Comparison.localMatches(entry, record)
    }

    private static func unchangedRemote(_ entry: SnapshotEntry, _ records: some RecordLookup) -> Bool {
        guard entry.kind == .file, let record = records[entry.path] else { return false }
        return Comparison.remoteMatches(entry, record)
    }
}
