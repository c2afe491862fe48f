// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// What the planner saw of the files of one action: a dry run's `expect` (CONTRACT.md,
/// "Version 0.2"), which `ftpsync apply` checks again before it carries the action out.
public struct ActionExpectation: Sendable, Codable, Equatable {
    /// One file as it was seen.
    public struct Facts: Sendable, Codable, Equatable {
        /// Size in bytes; nil when the side gave none.
        public var size: UInt64?
        /// Modification time, seconds since 1970-01-01 UTC (a device's as listed); nil when none.
        public var modified: Double?
        /// XXH3-128 digest of a local file (32 hex digits), when it was hashed.
        public var digest: String?

        /// The facts of the given values.
        public init(size: UInt64?, modified: Double?, digest: String? = nil) {
            self.size = size
            self.modified = modified
            self.digest = digest
        }
    }

    /// The file the action carries over: the device's for a download, a local rename or a
    /// delete there; the local one for an upload, a device rename or a delete here. Nil for a
    /// folder (its time changes with what it holds).
    public var source: Facts?
    /// The local file at the action's path as the plan's scan saw it; nil when there was none.
    public var local: Facts?
    /// The device's file an upload replaces (`Action.destination`), as listed; nil when none
    /// or not known.
    public var target: Facts?
    /// How a conflict and the transfer that follows it resolve it (`keep-both`, …); nil for
    /// every other action.
    public var resolution: ConflictResolution?

    /// The expectation of the given facts.
    public init(source: Facts?, local: Facts?) {
        self.source = source
        self.local = local
    }

    /// What `action` carries: its entry (a file's size, time and digest) and the local file
    /// the scan saw at its path.
    public init(action: Action) {
        source = action.source.flatMap { entry in
            entry.kind == .directory
                ? nil : Facts(size: entry.size, modified: entry.modified?.seconds, digest: entry.digest)
        }
        local = action.seen.map { Facts(size: $0.size, modified: Double($0.mtimeNanoseconds) / 1e9) }
        target = action.destination.map { Facts(size: $0.size, modified: $0.modified?.seconds) }
        resolution = action.resolution
    }

    /// What differs between this (as planned) and `now` (as seen again), one line; nil when
    /// they agree. A digest counts only when both sides of the comparison have one.
    public func difference(from now: ActionExpectation) -> String? {
        var changes: [String] = []
        Self.compare(source, now.source, "the file", into: &changes)
        // An upload's file is the local file: said once.
        let same = source?.size == local?.size && source?.modified == local?.modified
        if !(same && !changes.isEmpty) { Self.compare(local, now.local, "the local file", into: &changes) }
        Self.compare(target, now.target, "the device's file", into: &changes)
        if resolution != now.resolution {
            changes.append(
                "the conflict now resolves as \(now.resolution?.rawValue ?? "none"), not"
                    + " \(resolution?.rawValue ?? "none")")
        }
        return changes.isEmpty ? nil : changes.joined(separator: "; ")
    }

    private static func compare(_ was: Facts?, _ now: Facts?, _ what: String, into changes: inout [String]) {
        switch (was, now) {
        case (nil, nil): return
        case (nil, _?): changes.append("\(what) appeared")
        case (_?, nil): changes.append("\(what) is gone")
        case (let was?, let now?):
            if was.size != now.size {
                changes.append(
                    "\(what)'s size \(was.size.map(String.init) ?? "?") -> \(now.size.map(String.init) ?? "?")")
            }
            if was.modified != now.modified { changes.append("\(what)'s modification time changed") }
            if let a = was.digest, let b = now.digest, a != b { changes.append("\(what)'s content changed") }
        }
    }
}
