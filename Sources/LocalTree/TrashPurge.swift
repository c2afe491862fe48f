// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import SyncCore

/// Removes the folders of pull's trash (`<local>/.ftpsync/trash/<UTC stamp>/`) that
/// `TrashRetention` finds older than the retention. Run under the tree's lock, after the
/// devices of a pull.
///
/// Nothing is followed: the trash is reached from the tree's root without following a symlink,
/// every folder below is opened with `O_NOFOLLOW` (`TreeFolder`), and a symlink is removed as a
/// link (`unlinkat`), never the file it points to. Names that are not a stamp are left alone.
/// The work is bounded (`entryLimit` removals, `depthLimit` folders deep); what is left waits
/// for the next pull. Failures are noted in the outcome, never thrown.
public struct TrashPurge: Sendable {
    /// What a purge did.
    public struct Outcome: Sendable, Hashable {
        /// The names of the trash folders removed whole, in the order removed.
        public var removedFolders: [String] = []
        /// Files, links and folders removed, the trash folders themselves included.
        public var removedEntries = 0
        /// Names in the trash that are not a stamp, left alone (at most `noteLimit`).
        public var foreignNames: [String] = []
        /// One line per failure (at most `noteLimit`): the path and the cause.
        public var errors: [String] = []
        /// Failures beyond those in `errors`.
        public var moreErrors = 0
        /// True when `entryLimit` stopped the purge before it was done.
        public var stoppedAtLimit = false

        /// An outcome with nothing done.
        public init() {}

        mutating func note(_ error: String) {
            if errors.count < TrashPurge.noteLimit { errors.append(error) } else { moreErrors &+= 1 }
        }
    }

    /// How many failures and foreign names an outcome keeps.
    public static let noteLimit = 10

    /// The tree's root (`Configuration.localRoot`).
    public let localRoot: String
    /// Seconds a trash folder is kept; 0 keeps all.
    public let retentionSeconds: Int
    /// The most entries one purge removes.
    public let entryLimit: Int
    /// The deepest folder below a trash folder a purge enters; deeper ones are left (noted).
    public let depthLimit: Int

    /// A purge of the trash of `localRoot`.
    /// - Parameters:
    ///   - retentionSeconds: `RunSettings.trashRetentionSeconds`.
    ///   - entryLimit: the most entries removed per purge (1,000,000 by default).
    ///   - depthLimit: how deep below a trash folder it goes (256 folders by default: each
    ///     level holds a descriptor open).
    public init(localRoot: String, retentionSeconds: Int, entryLimit: Int = 1_000_000, depthLimit: Int = 256) {
        self.localRoot = localRoot
        self.retentionSeconds = retentionSeconds
        self.entryLimit = entryLimit
        self.depthLimit = depthLimit
    }

    /// Removes the trash folders `TrashRetention.verdict` finds old at `now`.
    /// - Parameter runStarted: when this run began: folders stamped since are kept.
    public func run(now: Date, runStarted: Date) -> Outcome {
        var outcome = Outcome()
        guard retentionSeconds > 0 else { return outcome }
        let trash: TreeFolder
        let names: [String]
        do {
            trash = try TreeFolder.openRoot(localRoot, create: false).folder(
                LocalScanner.stateFolderName + "/trash", create: false)
            names = try trash.names().sorted()
        } catch {
            if error.code != ENOENT { outcome.note(error.description) }
            return outcome
        }
        var budget = entryLimit
        for name in names {
            let stamp = UTCFields.date(basicStamp: name)
            switch TrashRetention.verdict(
                stamp: stamp, now: now, runStarted: runStarted, retentionSeconds: retentionSeconds)
            {
            case .keep: continue
            case .notAStamp:
                if outcome.foreignNames.count < TrashPurge.noteLimit { outcome.foreignNames.append(name) }
            case .remove:
                guard budget > 0 else {
                    outcome.stoppedAtLimit = true
                    return outcome
                }
                if remove(name, in: trash, depth: 0, budget: &budget, outcome: &outcome) {
                    outcome.removedFolders.append(name)
                }
            }
        }
        return outcome
    }

    /// Removes `name` of `folder` and all it holds, never following a symlink; true when it
    /// is gone. Stops (false) when `budget` runs out; notes each failure in `outcome`.
    private func remove(
        _ name: String, in folder: TreeFolder, depth: Int, budget: inout Int, outcome: inout Outcome
    ) -> Bool {
        guard budget > 0 else {
            outcome.stoppedAtLimit = true
            return false
        }
        do {
            guard let status = try folder.status(name) else { return true }
            if status.kind == .directory {
                guard depth < depthLimit else {
                    outcome.note("\(folder.shown(name)): left, deeper than \(depthLimit) folders")
                    return false
                }
                // O_NOFOLLOW | O_DIRECTORY: a folder swapped for a symlink since fails here.
                let child = try folder.folder(name, create: false)
                var emptied = true
                for inner in try child.names() {
                    emptied = remove(inner, in: child, depth: depth + 1, budget: &budget, outcome: &outcome) && emptied
                    if outcome.stoppedAtLimit { return false }
                }
                guard emptied else { return false }
                _ = try folder.removeEmptyFolder(name)
            } else {
                // unlinkat: a symlink goes as a link; what it points to is not touched.
                _ = try folder.removeFile(name)
            }
            budget -= 1
            outcome.removedEntries &+= 1
            return true
        } catch {
            outcome.note(error.description)
            return false
        }
    }
}
