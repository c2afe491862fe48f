// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The sections a plan is carried out in, one after the other; in each, actions run in the order added.
public enum PlanSection: Int, Sendable, CaseIterable {
    case prepare  // what clears a type change, then the folders to make (parents first)
    case renames  // renames/moves: before any transfer (a transfer may take a name a move frees)
    case transfers  // downloads, uploads, conflict actions
    case deletes  // deletes, deepest first
}

/// Where a plan's actions go as they are made, and what the plan asks of the state once it is
/// accepted: the pairs found in sync to record, the records to drop. A walk of any size holds
/// none of them.
public protocol PlanWriter: AnyObject {
    /// - Throws: when the action cannot be kept (a spool on a full disk).
    func append(_ action: Action, to section: PlanSection) throws
    /// Keeps `adoption`, a pair found in sync, to be recorded once the plan is accepted.
    /// - Throws: when it cannot be kept.
    func adopt(_ adoption: Adoption) throws
    /// Keeps the record of `path` to be dropped once the plan is accepted (its file is gone
    /// from both sides).
    /// - Throws: when it cannot be kept.
    func forget(_ path: RelativePath) throws
}
