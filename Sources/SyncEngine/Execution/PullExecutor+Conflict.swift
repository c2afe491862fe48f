import Foundation
import LocalTree
import SyncCore

/// A conflict left as it is (`--on-conflict report`, and push's default): the action fails
/// with the planner's reason, which names the option that resolves it.
struct ConflictReported: Error, CustomStringConvertible {
    let reason: String
    var description: String { "conflict: \(reason)" }
}

extension PullExecutor {
    /// Carries out a pull's `conflict` action as its resolution says: `keep-both` sets the local
    /// version aside as a conflict copy, `remote-wins` moves it to the trash (both let the
    /// download that follows take the free name), `local-wins` changes nothing (the planner
    /// recorded the pair), `report` fails the action and changes nothing.
    /// - Throws: `ConflictReported` for `report`; the local error when the file could not be set
    ///   aside (the download that follows is then not done).
    func resolveConflict(_ action: Action) throws {
        switch action.resolution {
        case nil, .keepBoth?: try keepConflictCopy(action)
        case .localWins?: return
        case .report?: throw ConflictReported(reason: action.reason)
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
