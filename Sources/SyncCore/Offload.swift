// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What `--remove-source` (a pull's offload) plans and what its execution checks, kept pure.
///
/// The planner plans a `delete_remote` for each device file it downloads and each one already
/// in sync (a record whose both halves still hold); never for what it holds back (too young,
/// excluded, a conflict, a local copy that differs, a type change, a size or time unknown).
/// The engine deletes only when, at that moment, the record stands for the listed file
/// (`recordStands`), the local copy is the recorded one and verified, and the device still
/// lists the file as planned (`stillListed`).
public enum Offload {
    /// The reason of an offload action, for the report.
    public static let reason = "offload: the copy here is verified"
    /// The reason of the delete of a folder the offload empties.
    public static let folderReason = "offload: the folder, if the offload empties it"

    /// The offload of `entry` (a device file about to be downloaded or already in sync), or
    /// nil when it cannot be checked before a DELE (no exact size or no time).
    static func action(for entry: SnapshotEntry, record: FileRecord?, policy: SyncPolicy) -> Action? {
        guard policy.removeSource, policy.direction == .pull, entry.kind == .file, entry.size != nil,
            entry.modified != nil
        else { return nil }
        var action = Action(kind: .deleteRemote, path: entry.path, source: entry, reason: reason)
        action.record = record
        return action
    }

    /// The note of a device file an offload leaves on the device because it is in conflict
    /// with the copy here (found by a first user: such files stayed without a word); nil when
    /// the run offloads nothing.
    /// - Parameter changedHereOnly: the copy here changed and the device's did not: the device
    ///   holds the only copy of its version.
    static func conflictNote(for entry: SnapshotEntry, policy: SyncPolicy, changedHereOnly: Bool = false) -> String? {
        guard policy.removeSource, policy.direction == .pull, entry.kind == .file else { return nil }
        if changedHereOnly {
            return "\(entry.path): not offloaded, the copy here changed since the last sync and the device's is"
                + " the only copy of its version"
        }
        return "\(entry.path): not offloaded, it is in conflict with the copy here; a later run offloads it"
            + " only once both are the same"
    }

    /// The device folders that keep something once `offloaded` files are gone, and the folders
    /// above them (never removed by `--remove-source-folders`): a file, link or other entry of
    /// `device` (as listed, upload temporaries included) not offloaded, a path its filters left
    /// out (`Snapshot.leftOut`), a folder not read in full or that may hide dot-names, and —
    /// with `policy.deviceDotNamesLeftOut` — every folder.
    static func keptFolders(device: Snapshot, offloaded: Set<RelativePath>, policy: SyncPolicy) -> Set<RelativePath> {
        var kept = Set<RelativePath>()
        func keep(_ folder: RelativePath) {
            guard !folder.isRoot, kept.insert(folder).inserted else { return }
            DeleteQueue.mark(ancestorsOf: folder, in: &kept)
        }
        for entry in device.entries {
            if entry.kind == .directory {
                if policy.deviceDotNamesLeftOut { keep(entry.path) }
            } else if !offloaded.contains(entry.path) {
                keep(entry.path.parent)
            }
        }
        for path in device.leftOut { keep(path.parent) }
        for folder in device.unknown.union(device.hiddenUnknown) { keep(folder) }
        return kept
    }

    /// The folders (never the root) above the files of `offloads`, as `delete_remote` actions
    /// of folders, deepest first: each is removed only if the offload left it empty.
    static func folders(above offloads: [RelativePath]) -> [Action] {
        var folders = Set<RelativePath>()
        for path in offloads {
            var folder = path.parent
            while !folder.isRoot, folders.insert(folder).inserted { folder = folder.parent }
        }
        let actions = folders.map { folder in
            Action(
                kind: .deleteRemote, path: folder, source: SnapshotEntry(path: folder, kind: .directory),
                reason: folderReason)
        }
        return PlanOrder.deepestFirst(actions)
    }

    /// Why a plan offloading `files` device files is refused under `limit` (nil: no limit), or nil.
    static func refusal(files: Int, limit: Int?) -> String? {
        guard let limit, files > limit else { return nil }
        return "the plan offloads \(files) device files (--remove-source), more than --max-delete \(limit);"
            + " nothing was changed (use --max-delete -1 for no limit)"
    }

    /// True when `record` (read from the state just before the DELE) stands for `planned`, the
    /// device file as the plan listed it: not offloaded already, and the same size and time as
    /// were recorded at its download.
    public static func recordStands(_ record: FileRecord, for planned: SnapshotEntry) -> Bool {
        guard !record.offloaded, let size = planned.size, record.remoteSize == size else { return false }
        return Comparison.remoteMatches(planned, record)
    }

    /// True when the local file (its size and time, `modified`, read just before the DELE) is
    /// the copy `record` holds.
    public static func localStands(size: UInt64, modified: FileTime, record: FileRecord) -> Bool {
        size == record.localSize && modified.matches(record.localModified)
    }

    /// True when the device's listing just before the DELE (`listed`) shows the file as
    /// planned: a file, the exact size, the same time (a listed minute holds a planned second).
    public static func stillListed(_ listed: SnapshotEntry, as planned: SnapshotEntry) -> Bool {
        guard listed.kind == .file, let size = planned.size, listed.size == size,
            let now = listed.modified, let then = planned.modified
        else { return false }
        return Comparison.listedMatch(now, recorded: then) || Comparison.listedMatch(then, recorded: now)
    }
}
