import Foundation

/// The sections a plan is carried out in, one after the other; in each, actions run in the order added.
public enum PlanSection: Int, Sendable, CaseIterable {
    case prepare  // what clears a type change, then the folders to make (parents first)
    case renames  // renames/moves: before any transfer (a transfer may take a name a move frees)
    case transfers  // downloads, uploads, conflict actions
    case deletes  // deletes, deepest first
}

/// Where a plan's actions go as they are made.
public protocol PlanWriter: AnyObject {
    /// - Throws: when the action cannot be kept (a spool on a full disk).
    func append(_ action: Action, to section: PlanSection) throws
}
