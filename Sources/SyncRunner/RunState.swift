import Foundation
import SyncStore

/// The run lock and the state database of one local tree, held for the length of a run.
struct RunState {
    /// The lock; nil for a dry run, which takes none.
    let lock: RunLock?
    /// The state; nil for a dry run on a tree that has none yet.
    let store: StateStore?

    /// Takes the lock and opens (or creates) the state. A dry run takes no lock and creates
    /// nothing: it reads the state only when there is one.
    /// - Throws: `RunLockHeld` when another run holds the lock; `RunLockError.failed` when the
    ///   lock file cannot be made; `StoreError` when the state cannot be opened.
    static func open(localRoot: String, dryRun: Bool) throws -> RunState {
        if dryRun {
            return RunState(lock: nil, store: try StateStore.openExisting(localRoot: localRoot))
        }
        let lock: RunLock
        do {
            lock = try RunLock.acquire(localRoot: localRoot)
        } catch {
            guard case .held(_, let pid) = error else { throw error }
            throw RunLockHeld(localRoot: localRoot, pid: pid)
        }
        return RunState(lock: lock, store: try StateStore.open(localRoot: localRoot))
    }
}
