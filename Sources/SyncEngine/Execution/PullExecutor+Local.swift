// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import LocalTree
import SyncCore

/// A finished download waiting for its name: a partial under `.ftpsync/`, or a file with no
/// name yet in its final folder.
enum FinishedDownload {
    case partial(TreeFolder, String)
    case anonymous(PartialFileWriter)
    /// Already in its final folder under a temporary name.
    case named(String)
}

extension PullExecutor {
    /// Puts a finished download at `action.path`, walking from the device's root afresh (a
    /// symlink on the way fails it). The name is replaced only when it still holds the very
    /// file the plan's scan saw there (`action.seen`: same size, mtime, inode and device, and no inode change
    /// since the scan began); when the plan saw nothing there (or set the local file aside as a
    /// conflict copy), only a free name is taken. Anything else is the user's: it stays, and the
    /// download goes beside it as a conflict copy.
    /// - Returns: the identity of the placed file when it was copied across file systems (a new
    ///   inode), nil when it was renamed or linked.
    /// - Throws: `EngineError.changedDuringDownload` when placed beside the user's file;
    ///   `LocalFileError` when it could not be placed at all (the download stays unplaced).
    func place(_ finished: FinishedDownload, for action: Action) throws -> FileIdentity? {
        let name = action.path.name
        let folder = try tree.folder(action.path.parent, create: true)
        var expected = action.seen
        if case .some(.none) = tree.conflict(action.path) { expected = nil }
        if let current = try folder.status(name) {
            guard let expected, current.kind == .file, current.identity == expected,
                current.changeNanoseconds < tree.scanStarted
            else { return try placeBeside(finished, in: folder, action: action) }
            return try replace(finished, in: folder, action: action, expected: expected)
        }
        do {
            return try put(finished, in: folder, as: name, replace: false)
        } catch {
            guard error.code == EEXIST else { throw error }
        }
        // A file appeared under the name since it was looked at: the user's.
        return try placeBeside(finished, in: folder, action: action)
    }

    /// Replaces the file the plan saw at `action.path` (just checked unchanged) with no window
    /// for a change to slip in: the download gets a temporary name beside it, the two names
    /// are exchanged atomically, and the file that comes out is checked once more (same inode,
    /// size, mtime): when it is not the one expected, the names are exchanged back and the
    /// download is kept beside it. A kill in between leaves one of the two under the temporary
    /// name, a leftover the next pull moves to the trash. Where names cannot be exchanged, a
    /// plain rename over the name.
    private func replace(_ finished: FinishedDownload, in folder: TreeFolder, action: Action, expected: FileIdentity)
        throws -> FileIdentity?
    {
        let name = action.path.name
        let temporary = TreeFolder.temporaryName()
        let copied = try put(finished, in: folder, as: temporary, replace: false)
        let exchanged: Bool
        do {
            exchanged = try folder.exchange(temporary, name)
        } catch {
            // The name went away since it was checked: take it if still free.
            do {
                try folder.rename(temporary, to: folder, as: name, replace: false)
                return copied
            } catch {
                return try placeBeside(.named(temporary), in: folder, action: action)
            }
        }
        guard exchanged else {
            try folder.rename(temporary, to: folder, as: name, replace: true)
            return copied
        }
        if let old = try? folder.status(temporary), old.kind == .file, old.identity == expected {
            _ = try? folder.removeFile(temporary)
            return copied
        }
        // Changed in the last instant: the user's file back under its name, the download beside.
        _ = try folder.exchange(temporary, name)
        return try placeBeside(.named(temporary), in: folder, action: action)
    }

    /// Places the download as `NAME.conflict-<UTC time>.EXT` beside a local file that changed.
    private func placeBeside(_ finished: FinishedDownload, in folder: TreeFolder, action: Action) throws
        -> FileIdentity?
    {
        let copy = LocalFileSystem.conflictName(for: action.path.name, at: runStarted)
        _ = try put(finished, in: folder, as: copy, replace: false)
        throw EngineError.changedDuringDownload(path: action.path.string, keptAs: copy)
    }

    /// Renames (or links) the finished download to `name` in `folder`.
    private func put(_ finished: FinishedDownload, in folder: TreeFolder, as name: String, replace: Bool)
        throws(LocalFileError) -> FileIdentity?
    {
        switch finished {
        case .anonymous(let writer):
            try folder.place(writer, as: name, replace: replace)
            return nil
        case .named(let temporary):
            try folder.rename(temporary, to: folder, as: name, replace: replace)
            return nil
        case .partial(let partials, let partialName):
            if try partials.move(partialName, to: folder, as: name, replace: replace, staging: tree.staging()) {
                return nil
            }
            guard let status = try folder.status(name) else {
                throw LocalFileError(operation: "stat", path: folder.shown(name), code: ENOENT)
            }
            return status.identity
        }
    }

    /// Moves the local copy of a file the device moved (its content proven the same, see
    /// `MoveEvidenceCheck`); the record follows it. Never replaces a file at the new name, and
    /// never moves a copy that changed here since the last sync (`LocalRenameCheck`).
    func renameLocal(_ action: Action) throws {
        guard let to = action.to else { throw EngineError.incompleteAction("rename without its target") }
        let from = try tree.folder(action.path.parent, create: false)
        let destination = try tree.folder(to.parent, create: true)
        try LocalRenameCheck.check(
            action.path, current: try from.status(action.path.name), to: to,
            occupied: try destination.status(to.name) != nil, record: action.record)
        try from.move(action.path.name, to: destination, as: to.name, replace: false, staging: tree.staging())
        guard let status = try destination.status(to.name) else {
            throw LocalFileError(operation: "stat", path: destination.shown(to.name), code: ENOENT)
        }
        let record = FileRecord(
            path: to, remoteSize: action.source?.size ?? action.record?.remoteSize,
            remoteModified: action.source?.modified ?? action.record?.remoteModified,
            localSize: status.identity.size, localModified: status.identity.modified, digest: action.record?.digest)
        try store?.transaction {
            try store?.upsertRecord(record, device: job.name)
            try store?.deleteRecord(path: action.path, device: job.name)
        }
    }

    /// Never removes a file outright: it goes to `.ftpsync/trash/<UTC time>/<device>/<path>`
    /// (`~1`, `~2`, … after the name when taken); an empty folder is removed, one still holding
    /// something (excluded files) goes to the trash too — but for a sync and for `apply`, whose
    /// plans delete each file on its own: there a folder goes only when empty, and anything in
    /// it now (new since the plan, or left out of it) stays with it.
    /// - Throws: `LocalFileError` (a sync's or apply's folder that is not empty: ENOTEMPTY).
    func deleteLocal(_ action: Action) throws {
        if action.path.isRoot {
            throw LocalFileError(operation: "trash", path: job.paths.deviceRoot, code: 0, detail: "the device root")
        }
        let folder = try tree.folder(action.path.parent, create: false)
        let name = action.path.name
        if action.source?.kind == .directory, job.reviewed != nil || job.policy.direction == .sync {
            try folder.removeEmptyFolder(name)
            return
        }
        if action.source?.kind == .directory, (try? folder.removeEmptyFolder(name)) != nil {
            return
        }
        try trash(name, in: folder, path: action.path)
        try store?.deleteRecord(path: action.path, device: job.name)
    }

    /// Moves `name` of `folder` (at `path`) to `.ftpsync/trash/<UTC time>/<device>/<path>`,
    /// with `~1`, `~2`, … after the name when taken; never over anything.
    func trash(_ name: String, in folder: TreeFolder, path: RelativePath) throws {
        var place = "trash/\(UTCFields(runStarted).basicStamp)/\(job.name)"
        if !path.parent.isRoot { place += "/" + path.parent.string }
        let trash = try tree.state().folder(place, create: true)
        var candidate = name
        var attempt = 0
        while try trash.status(candidate) != nil {
            attempt += 1
            candidate = NameFitting.fit(stem: name, tag: "~\(attempt)", ext: "")
        }
        try folder.move(name, to: trash, as: candidate, replace: false, staging: nil)
    }

    /// Moves a file only a killed run leaves in the tree (`LocalScanner.isLeftover`) to the
    /// trash; returns the note for the report.
    func sweepLeftover(_ path: RelativePath) -> String {
        do {
            try trash(path.name, in: try tree.folder(path.parent, create: false), path: path)
            return "\(path): left by an interrupted run; moved to the trash"
        } catch {
            return "\(path): left by an interrupted run; not synced (\(error))"
        }
    }

    /// Sets the local version aside as `NAME.conflict-<UTC time>.EXT` (never over a file
    /// there), and tells the download that follows whether it may go ahead.
    func keepConflictCopy(_ action: Action) throws {
        do {
            let folder = try tree.folder(action.path.parent, create: false)
            let copy = LocalFileSystem.conflictName(for: action.path.name, at: runStarted)
            try folder.rename(action.path.name, to: folder, as: copy, replace: false)
            tree.noteConflict(action.path, failure: nil)
        } catch {
            tree.noteConflict(action.path, failure: "\(error)")
            throw error
        }
    }
}
