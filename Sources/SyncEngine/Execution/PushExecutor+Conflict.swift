// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

/// The device-side conflict copies of one push run, shared by the workers of its connections:
/// a `keep-both` upload is placed only after its conflict action renamed the device's version
/// aside, whichever connection carries the upload.
final class RemoteConflictCopies: @unchecked Sendable {
    /// When the run started (UTC), for the names of the copies.
    let runStarted: Date
    private let lock = NSLock()
    /// By path: nil when the device's version was renamed aside, else why not.
    private var outcomes: [RelativePath: String?] = [:]

    init(runStarted: Date) {
        self.runStarted = runStarted
    }

    /// Notes the outcome of setting `path`'s device version aside: nil when done, else why not.
    func note(_ path: RelativePath, failure: String?) {
        lock.lock()
        defer { lock.unlock() }
        outcomes[path] = .some(failure)
    }

    /// Throws unless the device's version of `path` was renamed aside this run.
    /// - Throws: `EngineError.remoteConflictCopyFailed` naming the cause.
    func requireSetAside(_ path: RelativePath) throws {
        lock.lock()
        let outcome = outcomes[path]
        lock.unlock()
        switch outcome {
        case .some(.none): return
        case .some(.some(let cause)): throw EngineError.remoteConflictCopyFailed(path: path.string, cause: cause)
        case .none: throw EngineError.remoteConflictCopyFailed(path: path.string, cause: "it was not made")
        }
    }
}

extension PushExecutor {
    /// Carries out a push's `conflict` action as its resolution says: `keep-both` renames the
    /// device's version to `NAME.conflict-<UTC time>.EXT` beside it (RNFR/RNTO, never over an
    /// existing name) so the upload that follows keeps both; `local-wins` changes nothing here
    /// (the upload that follows overwrites); `remote-wins` changes nothing (the planner recorded
    /// the pair). A conflict left as it is (`report`) never reaches the executor.
    /// - Throws: the server's refusal of the rename; `EngineError.incompleteAction` for a
    ///   conflict the planner gave no resolution.
    func resolveConflict(_ action: Action) throws {
        switch action.resolution {
        case nil, .report?: throw EngineError.incompleteAction("a conflict without its resolution")
        case .localWins?, .remoteWins?: return
        case .keepBoth?:
            do {
                let target = remotePath(root: job.remoteRoot, relative: action.path.string)
                let name = LocalFileSystem.conflictName(for: action.path.name, at: conflicts.runStarted)
                // The name is built from a valid component and adds no `/` or NUL.
                let asidePath = (try? action.path.parent.appending(validating: name)) ?? action.path
                let aside = remotePath(root: job.remoteRoot, relative: asidePath.string)
                // RNTO replaces an existing name on most servers: never over a file there.
                if (try? remote.size(aside)) != nil {
                    throw EngineError.remoteConflictCopyFailed(
                        path: action.path.string, cause: "\(name) exists on the device")
                }
                try remote.rename(from: target, to: aside)
                conflicts.note(action.path, failure: nil)
            } catch {
                conflicts.note(action.path, failure: "\(error)")
                throw error
            }
        }
    }
}
