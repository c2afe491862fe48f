// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Building blocks for planner tests: paths, entries and records from short literals.
enum Fixture {
    static func path(_ s: String) -> RelativePath {
        (try? RelativePath(validating: s)) ?? .root
    }

    /// A file as a LIST listing gives it: whole minutes.
    static func listed(_ p: String, _ size: UInt64, _ t: Double) -> SnapshotEntry {
        SnapshotEntry(path: path(p), kind: .file, size: size, modified: FileTime(seconds: t, granularity: .minute))
    }

    /// A local file: exact time, and a digest when given.
    static func local(_ p: String, _ size: UInt64, _ t: Double, digest: String? = nil) -> SnapshotEntry {
        SnapshotEntry(
            path: path(p), kind: .file, size: size, modified: FileTime(seconds: t, granularity: .exact), digest: digest)
    }

    static func folder(_ p: String) -> SnapshotEntry { SnapshotEntry(path: path(p), kind: .directory) }

    /// The record of a pair last synced as `remote` (listed) and `local`.
    static func record(_ remote: SnapshotEntry, _ local: SnapshotEntry) -> FileRecord {
        FileRecord(
            path: local.path, remoteSize: remote.size, remoteModified: remote.modified, localSize: local.size ?? 0,
            localModified: local.modified ?? FileTime(seconds: 0, granularity: .exact), digest: local.digest)
    }

    /// Records for pairs of (remote, local) entries.
    static func records(_ pairs: [(SnapshotEntry, SnapshotEntry)]) -> [RelativePath: FileRecord] {
        Dictionary(uniqueKeysWithValues: pairs.map { ($0.1.path, record($0.0, $0.1)) })
    }

    static func kinds(_ result: PlanResult) -> [String] {
        result.plan.actions.map { action in
            action.kind.rawValue + " " + action.path.string + (action.to.map { " -> " + $0.string } ?? "")
        }
    }
}
