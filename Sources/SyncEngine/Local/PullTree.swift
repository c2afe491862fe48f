// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

/// The local side of one device's pull, shared by the executors of all its connections: the
/// two roots every local change walks from (the device's folder and `.ftpsync/`, each opened
/// once), when the plan's scan began, and which conflict copies were made. What the scan saw
/// of a local file comes with the action on it (`Action.seen`).
///
/// Every folder below a root is reached with `TreeFolder.folder(_:create:)` afresh for each
/// action, never from a cache: a folder swapped for a symlink (or moved out of the tree) since
/// the last action is found, not followed.
final class PullTree: @unchecked Sendable {
    let paths: LocalPaths
    /// When the plan's scan started (ns since 1970, wall clock): a file whose inode changed
    /// (`st_ctime`) at or after it may have changed since the scan looked at it.
    let scanStarted: Int64
    /// Paths whose download follows a conflict copy in the plan: done only once that copy is made.
    let conflicted: Set<RelativePath>
    /// Files only a killed run leaves in the tree, found by the scan (`LocalScanner.isLeftover`).
    let leftovers: [RelativePath]
    private let lock = NSLock()
    private var deviceRoot: TreeFolder?
    private var stateRoot: TreeFolder?
    private var conflicts: [RelativePath: String?] = [:]

    init(
        paths: LocalPaths, scanStarted: Date, conflicted: Set<RelativePath>, leftovers: [RelativePath] = []
    ) {
        self.paths = paths
        self.leftovers = leftovers
        self.conflicted = conflicted
        let nanoseconds = (scanStarted.timeIntervalSince1970 * 1e9).rounded(.down)
        self.scanStarted = nanoseconds < 9e18 && nanoseconds > -9e18 ? Int64(nanoseconds) : 0
    }

    /// The device's folder (made when missing), opened once per run.
    /// - Throws: `LocalFileError` when it cannot be made or opened.
    func device() throws(LocalFileError) -> TreeFolder {
        lock.lock()
        defer { lock.unlock() }
        if let deviceRoot { return deviceRoot }
        let opened = try TreeFolder.openRoot(paths.deviceRoot, create: true)
        deviceRoot = opened
        return opened
    }

    /// `<local>/.ftpsync` (made when missing), opened once per run: the tree's root by its
    /// path, `.ftpsync` below it without following a symlink.
    /// - Throws: `LocalFileError` when it cannot be made or opened.
    func state() throws(LocalFileError) -> TreeFolder {
        lock.lock()
        defer { lock.unlock() }
        if let stateRoot { return stateRoot }
        let opened = try TreeFolder.openRoot(paths.treeRoot, create: true).folder(
            LocalScanner.stateFolderName, create: true)
        stateRoot = opened
        return opened
    }

    /// The folder `path` of the device (relative to its root), walked from the root.
    func folder(_ path: RelativePath, create: Bool) throws(LocalFileError) -> TreeFolder {
        try device().folder(path.isRoot ? "" : path.string, create: create)
    }

    /// The folder holding this device's partial downloads, `.ftpsync/partial/<device>`.
    func partialFolder() throws(LocalFileError) -> TreeFolder {
        try state().folder("partial/" + paths.device, create: true)
    }

    /// `.ftpsync/tmp`: where copies across file systems are staged when it shares the
    /// destination's file system; nil when it cannot be made.
    func staging() -> TreeFolder? {
        try? state().folder("tmp", create: true)
    }

    /// Notes the outcome of the conflict copy of `path`: nil when made, else why it failed.
    func noteConflict(_ path: RelativePath, failure: String?) {
        lock.lock()
        conflicts[path] = .some(failure)
        lock.unlock()
    }

    /// The outcome of this run's conflict copy of `path`: nil when none was tried, `.some(nil)`
    /// when it was made, `.some(reason)` when it failed.
    func conflict(_ path: RelativePath) -> String?? {
        lock.lock()
        defer { lock.unlock() }
        return conflicts[path]
    }
}
