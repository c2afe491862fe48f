// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// The plan writer a folder walk (`PullWalk`, `PushWalk`) writes to: each action gets what the
/// executor needs of its path before it goes on to `base` (the device's `PlanSpool`): the local
/// file's identity and the record as the walk saw them while the path's folder was being
/// planned (`lookup`), and for a local rename planned at the end, when the walk no longer holds
/// its folder, the record of its old path (`record`). The paths of conflict actions are kept (`PullTree`
/// needs them; there are as many as there are conflicts).
final class AnnotatingPlanWriter: PlanWriter {
    private let base: PlanWriter
    private let lookup: (RelativePath) throws -> (FileIdentity?, FileRecord?)
    private let record: (RelativePath) throws -> FileRecord?
    /// The paths of the conflict actions written so far.
    private(set) var conflicted = Set<RelativePath>()

    /// - Parameters:
    ///   - base: where the annotated actions go.
    ///   - lookup: the local identity and the record at a path of the folder being planned.
    ///   - record: the record of a path, read from the state.
    init(
        base: PlanWriter, lookup: @escaping (RelativePath) throws -> (FileIdentity?, FileRecord?),
        record: @escaping (RelativePath) throws -> FileRecord?
    ) {
        self.base = base
        self.lookup = lookup
        self.record = record
    }

    /// - Throws: what `base` throws, or the state's error reading a record.
    func append(_ action: Action, to section: PlanSection) throws {
        var annotated = action
        let (identity, known) = try lookup(action.path)
        annotated.seen = identity
        annotated.record = known
        if annotated.record == nil && action.kind == .renameLocal { annotated.record = try record(action.path) }
        if action.kind == .conflict { conflicted.insert(action.path) }
        try base.append(annotated, to: section)
    }

    /// - Throws: what `base` throws.
    func adopt(_ adoption: Adoption) throws { try base.adopt(adoption) }

    /// - Throws: what `base` throws.
    func forget(_ path: RelativePath) throws { try base.forget(path) }
}
