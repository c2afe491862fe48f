// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// Why an offload (`--remove-source`) left a device file or folder where it is: one of its
/// conditions failed when its turn came. Not a failure of the run: a note of the device.
struct OffloadHeld: Error, CustomStringConvertible {
    var path: RelativePath
    var reason: String

    var description: String { "\(path): not offloaded, \(reason)" }
}

extension PullExecutor {
    /// How long a re-listing of a folder stands for the offloads of its files that follow,
    /// in seconds: one LIST serves a folder of many files, and a file the device writes to
    /// meanwhile is seen by the next re-listing.
    static let relistValidity: TimeInterval = 2

    /// Deletes the device file of `action` (a `delete_remote` an offload planned), or the
    /// folder the offload emptied, when every condition still holds (`Offload`):
    /// - the state's record of the path stands for the file as planned (its download in this
    ///   run completed, was placed and recorded, or an earlier run's record still holds);
    /// - the local file is the recorded copy (size and time);
    /// - the device's copy equals it: the server's hash when it offers one, else the size and
    ///   the sampled bytes (`CopyCheck`);
    /// - the device's listing of its folder, read just before, shows the same size and time.
    /// Then DELE and, when SIZE no longer finds the file, the record is marked offloaded (a
    /// later `pull --delete` never deletes the copy here).
    /// - Throws: `OffloadHeld` when a condition fails (nothing is deleted), the DELE's error.
    func offload(_ action: Action) throws {
        guard let planned = action.source else { throw EngineError.incompleteAction("an offload without its entry") }
        if planned.kind == .directory { return try removeEmptiedFolder(action.path) }
        let path = action.path
        func held(_ reason: String) -> OffloadHeld { OffloadHeld(path: path, reason: reason) }
        guard let store else { throw held("no state records its copy here") }
        guard let record = try store.record(path: path, device: job.name) else {
            throw held("its download did not complete")
        }
        guard Offload.recordStands(record, for: planned) else {
            throw held(record.offloaded ? "offloaded already" : "its download did not complete")
        }
        let localPath = job.paths.file(path)
        guard let stamp = LocalFileStamp(localPath),
            Offload.localStands(size: stamp.size, modified: stamp.modified, record: record)
        else { throw held("the copy here is not the one recorded") }
        let file: LocalFileReader
        do {
            file = try LocalFileReader(path: localPath, followingSymlink: false)
        } catch {
            throw held("the copy here cannot be read (\(error))")
        }
        let size = record.localSize
        let device = remotePath(root: job.remoteRoot, relative: path.string)
        do {
            if let hash = try CopyCheck.serverHashMatches(remote: remote, path: device, size: size, file: file) {
                guard hash.matches else { throw held("the server's \(hash.algorithm) differs from the copy here") }
            } else if !(try CopyCheck.sampledBytesMatch(remote: remote, path: device, size: size, file: file)) {
                throw held("the sampled bytes on the device differ from the copy here")
            }
        } catch let error as OffloadHeld {
            throw error
        } catch {
            throw held("its bytes could not be compared (\(error))")
        }
        guard let listed = try relisting(path.parent)[path], Offload.stillListed(listed, as: planned) else {
            throw held("it changed on the device since it was listed")
        }
        try remote.delete(device)
        // A server may answer DELE with 250 and keep the file (a read-only card, a lie): the
        // file is asked for again, and only a file the server no longer has is offloaded.
        if try stillOnDevice(device) {
            throw held("the server answered DELE but still has the file")
        }
        try store.markOffloaded(path: path, device: job.name)
    }

    /// True when SIZE of `path` still answers a size after its DELE; false when it answers
    /// 550 (no such file) or the server has no SIZE (500, 502: its 250 is taken as said).
    /// - Throws: when the control connection fails.
    private func stillOnDevice(_ path: String) throws -> Bool {
        do {
            _ = try remote.size(path)
            return true
        } catch let error as FTPError where error.isRefusal {
            return false
        }
    }

    /// Removes the device folder `folder` (never the root) when its listing is empty now.
    /// - Throws: `OffloadHeld` when it still holds something or the server refuses RMD.
    private func removeEmptiedFolder(_ folder: RelativePath) throws {
        guard !folder.isRoot else { throw OffloadHeld(path: folder, reason: "the device root is never removed") }
        relisted = nil
        let path = remotePath(root: job.remoteRoot, relative: folder.string)
        let listing = try remote.list(path)
        guard listing.truncation == nil, listing.entries.allSatisfy({ $0.name == "." || $0.name == ".." }) else {
            throw OffloadHeld(path: folder, reason: "the folder is not empty")
        }
        do {
            try remote.removeDirectory(path)
        } catch let error as FTPError {
            throw OffloadHeld(path: folder, reason: "the server refused to remove the folder (\(error))")
        }
    }

    /// The device's listing of `folder` as paths, read again unless the last one read is of
    /// the same folder and younger than `relistValidity`.
    /// - Throws: when the folder cannot be listed.
    private func relisting(_ folder: RelativePath) throws -> Snapshot {
        let now = Date()
        if let relisted, relisted.folder == folder, now.timeIntervalSince(relisted.at) < Self.relistValidity {
            return relisted.entries
        }
        let scanner = RemoteScanner(remote: remote, root: job.remoteRoot, excludes: .none)
        let listing = try remote.list(remotePath(root: job.remoteRoot, relative: folder.string))
        let entries = scanner.read(folder, listing: listing).entries
        relisted = (folder, now, entries)
        return entries
    }
}
