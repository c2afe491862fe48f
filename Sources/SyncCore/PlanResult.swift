// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A path that both sides already hold with the same content although no record says so
/// (first run, lost state, a file touched without a change): the engine records it without
/// transferring anything.
public struct Adoption: Sendable, Hashable {
    public var remote: SnapshotEntry
    public var local: SnapshotEntry

    public init(remote: SnapshotEntry, local: SnapshotEntry) {
        self.remote = remote
        self.local = local
    }
}

/// What a planner hands to the engine: the plan, the pairs to record as in sync, the records to
/// drop, and whether the run must be refused.
public struct PlanResult: Sendable {
    public var plan: Plan
    /// Pairs found in sync without a (matching) record: record them, transfer nothing.
    public var adoptions: [Adoption]
    /// Recorded paths that neither side holds any more: their records are dropped.
    public var forgotten: [RelativePath]
    /// Set when the device run must not change anything (the delete limit was exceeded): the
    /// reason, one line. The plan is still given, for the report.
    public var refusal: String?
    /// Moves the pull planner proposes from size and time alone: the engine proves each one's
    /// content (`MoveEvidence`) and plans again with what it found. Empty for a push.
    public var moveCandidates: [MoveCandidate] = []
    /// Interrupted uploads (a push) whose local file is gone (deleted or moved): nothing will
    /// resume them; the engine removes their temporary files from the device and forgets them.
    /// Sorted; empty for a pull.
    public var abandonedUploads: [RelativePath] = []
    /// A sync's pairs of one path that both sides hold with the same size, where size and time
    /// do not prove the content the same (both changed since the last sync, no record, a time
    /// that differs or is only to the minute): the engine compares their content and plans
    /// again with what it found (`MoveEvidence`, each candidate's `from` and `to` the path).
    /// Empty for a pull and a push.
    public var contentCandidates: [MoveCandidate] = []

    public init(
        plan: Plan, adoptions: [Adoption] = [], forgotten: [RelativePath] = [], refusal: String? = nil
    ) {
        self.plan = plan
        self.adoptions = adoptions
        self.forgotten = forgotten
        self.refusal = refusal
    }
}

/// An interrupted upload as the push planner sees it: the local file as it was when the upload
/// began, and the bytes its temporary file on the server holds now.
public struct UploadPartial: Sendable, Hashable {
    public var path: RelativePath
    /// Size in bytes of the local file when the upload began.
    public var localSize: UInt64
    /// Modification time of the local file when the upload began.
    public var localModified: FileTime?
    /// Bytes the temporary file holds on the server (by SIZE), 0 when unknown.
    public var bytesDone: UInt64

    public init(path: RelativePath, localSize: UInt64, localModified: FileTime?, bytesDone: UInt64) {
        self.path = path
        self.localSize = localSize
        self.localModified = localModified
        self.bytesDone = bytesDone
    }
}
