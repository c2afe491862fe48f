// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// What became of one planned action.
public enum ActionStatus: String, Sendable, Codable, CaseIterable {
    /// Dry run: planned, not carried out.
    case planned
    case done
    case failed
    /// Left for the next run by a run cap (`RunCaps`): not started once the cap was reached,
    /// or cut `RunCaps.grace` seconds after it (`error` says which).
    case deferred
    /// Left for a later run (issue 19): a download whose file was still being written — its
    /// size changed between the listing and the end of the transfer. Nothing was placed or
    /// recorded; `error` says what was seen, and the device's notes name it.
    case held
    /// `ftpsync apply`: not carried out, because a file changed since the reviewed plan was
    /// made or the action is no longer planned (`error` says which).
    case refused
}

/// One action as reported in the text and JSON output (CONTRACT.md, "JSON output").
public struct ActionReport: Sendable, Codable, Equatable {
    public var kind: ActionKind
    /// Relative to the device's root, `/`-separated, never starting with `/`.
    public var path: String
    /// The new path of a rename.
    public var to: String?
    /// Bytes this action moves over the network.
    public var bytes: UInt64
    /// Where a resumed transfer started (0 when not resumed).
    public var offset: UInt64
    public var status: ActionStatus
    /// Why the action failed, was deferred or held, one line; nil unless `status` is `failed`,
    /// `deferred` or `held`.
    public var error: String?
    /// False for a transfer whose size the listing did not give (a rough `12.5M` that SIZE did
    /// not confirm): `bytes` is then 0 for the plan, not the file's size. Not in the JSON.
    public var sizeKnown = true
    /// A dry run's: what the planner saw of the action's files, which `ftpsync apply` checks;
    /// nil for an action carried out.
    public var expect: ActionExpectation?

    /// A report of the given fields (paths relative to the device's root; sizes in bytes).
    public init(
        kind: ActionKind, path: String, to: String? = nil, bytes: UInt64 = 0, offset: UInt64 = 0,
        status: ActionStatus, error: String? = nil, sizeKnown: Bool = true
    ) {
        self.kind = kind
        self.path = path
        self.to = to
        self.bytes = bytes
        self.offset = offset
        self.status = status
        self.error = error
        self.sizeKnown = sizeKnown
    }

    /// The report of `action` as it ended: `status`, and for a failed one `error`.
    public init(action: Action, status: ActionStatus, error: String? = nil) {
        kind = action.kind
        path = action.path.string
        to = action.to?.string
        bytes = action.bytes
        offset = action.offset
        self.status = status
        self.error = error
        if action.kind == .download || action.kind == .upload, let source = action.source {
            sizeKnown = source.size != nil
        }
        if status == .planned { expect = ActionExpectation(action: action) }
    }

    enum CodingKeys: String, CodingKey {
        case kind, path, to, bytes, offset, status, error, expect
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(path, forKey: .path)
        if kind == .renameLocal || kind == .renameRemote { try c.encode(to, forKey: .to) }
        try c.encode(bytes, forKey: .bytes)
        try c.encode(offset, forKey: .offset)
        try c.encode(status, forKey: .status)
        try c.encode(error, forKey: .error)
        if let expect { try c.encode(expect, forKey: .expect) }
    }
}
