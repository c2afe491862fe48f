// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

extension PullExecutor {
    /// Carries out a pull's `conflict` action as its resolution says: `keep-both` sets the local
    /// version aside as a conflict copy, `remote-wins` moves it to the trash (both let the
    /// download that follows take the free name), `local-wins` changes nothing (the planner
    /// recorded the pair). A conflict left as it is (`report`) never reaches the executor.
    /// - Throws: the local error when the file could not be set aside (the download that
    ///   follows is then not done); `EngineError.incompleteAction` for a conflict the planner
    ///   gave no resolution.
    func resolveConflict(_ action: Action) throws {
        switch action.resolution {
        case .keepBoth?: try keepConflictCopy(action)
        case .localWins?: return
        case nil, .report?: throw EngineError.incompleteAction("a conflict without its resolution")
        case .remoteWins?:
            do {
                let folder = try tree.folder(action.path.parent, create: false)
                try trash(action.path.name, in: folder, path: action.path)
                tree.noteConflict(action.path, failure: nil)
            } catch {
                tree.noteConflict(action.path, failure: "\(error)")
                throw error
            }
        }
    }
}
