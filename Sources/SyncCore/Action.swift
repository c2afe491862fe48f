// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The kinds of action a plan holds (CONTRACT.md, JSON `kind`).
public enum ActionKind: String, Sendable, Hashable, Codable, CaseIterable {
    case download
    case upload
    case deleteLocal = "delete_local"
    case deleteRemote = "delete_remote"
    case renameLocal = "rename_local"
    case renameRemote = "rename_remote"
    case mkdirLocal = "mkdir_local"
    case mkdirRemote = "mkdir_remote"
    case conflict
}

/// One step of a plan and the reason it was planned.
public struct Action: Sendable, Hashable {
    public var kind: ActionKind
    /// The path acted on, relative to the device's root.
    public var path: RelativePath
    /// The new path, for renames.
    public var to: RelativePath?
    /// Bytes this action moves over the network (for transfers: size minus offset).
    public var bytes: UInt64
    /// Where a resumed transfer starts, in bytes (0 when not resumed).
    public var offset: UInt64
    /// The source entry this action carries over (size and time to record and to set).
    public var source: SnapshotEntry?
    /// Why the planner chose this action, for the text report and `--verbose`.
    public var reason: String
    /// For a `conflict` action and the transfer that follows it: how the conflict is resolved
    /// (`--on-conflict`); nil for every other action.
    public var resolution: ConflictResolution?
    /// The last sync's record of `path`, when the plan had one: what a rename carries over and
    /// checks, and what tells a download replacing a synced file from a new one. Nil when none.
    public var record: FileRecord?
    /// The local file at `path` as the plan's scan saw it (size, mtime, inode, device): a pull
    /// replaces or moves only that very file; a push's upload hashes it when it has no digest.
    /// Nil when the scan saw no regular file there.
    public var seen: FileIdentity?
    /// A sync's upload: the device's file at `path` as the plan saw it, which the upload
    /// replaces (nil: the device had none there). Checked again (SIZE) before the upload's
    /// RNTO, so a device file changed during the run is never overwritten.
    public var destination: SnapshotEntry?

    public init(
        kind: ActionKind, path: RelativePath, to: RelativePath? = nil, bytes: UInt64 = 0, offset: UInt64 = 0,
        source: SnapshotEntry? = nil, reason: String
    ) {
        self.kind = kind
        self.path = path
        self.to = to
        self.bytes = bytes
        self.offset = offset
        self.source = source
        self.reason = reason
    }
}

/// The ordered actions for one device, plus what the planner noticed but will not act on.
public struct Plan: Sendable {
    /// Actions in the order they are to be carried out: folders before their contents.
    public var actions: [Action]
    /// Entries skipped and why (links, devices, names the local side cannot hold).
    public var notes: [String]
    /// Paths that are the same on both sides and need nothing.
    public var unchanged: Int
    /// Entries that could not be synced (a symlink in the way, a type change not applied): each
    /// makes the device `partial`.
    public var skipped: [SkippedEntry]

    public init(actions: [Action] = [], notes: [String] = [], unchanged: Int = 0, skipped: [SkippedEntry] = []) {
        self.actions = actions
        self.notes = notes
        self.unchanged = unchanged
        self.skipped = skipped
    }

    /// Number of actions of the given kind.
    public func count(_ kind: ActionKind) -> Int { actions.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }
}
