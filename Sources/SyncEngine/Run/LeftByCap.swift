// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// What a run cap (`RunCaps`) left of a device's plan for the next run: its `left` in the JSON
/// document, null in each count when the cap stopped the device before its plan was made (not
/// started, or cut while connecting or listing): what it had to do is unknown.
public struct LeftByCap: Sendable, Codable, Equatable {
    /// Transfers (downloads, uploads) not done: not started, or cut after the grace; nil: unknown.
    public var files: Int?
    /// Bytes those transfers were planned to move (a cut one resumes, so the next run moves
    /// less); nil: unknown.
    public var bytes: UInt64?
    /// Every action not carried out because of the cap, the transfers included; nil:
    /// unknown.
    public var actions: Int?
    /// Transfers cut `RunCaps.grace` seconds after the cap, resuming on the next run; nil: unknown.
    public var cut: Int?
    /// False for a device the cap kept from starting at all (nothing connected, nothing
    /// recorded in the state).
    public var started: Bool

    /// Nothing left yet: the counts of a device whose plan is being carried out.
    public init() {
        files = 0
        bytes = 0
        actions = 0
        cut = 0
        started = true
    }

    /// A device the cap stopped before its plan was made: nothing of its work is known.
    public static let unknown = LeftByCap(started: true)

    /// A device the cap kept from starting (`started` false): nothing of its work is known.
    public static let notStarted = LeftByCap(started: false)

    private init(started: Bool) {
        files = nil
        bytes = nil
        actions = nil
        cut = nil
        self.started = started
    }

    /// True for a device the cap stopped before its plan was made.
    public var isUnknown: Bool { actions == nil }

    /// True when nothing was left (an unknown remainder is not empty).
    public var isEmpty: Bool { actions == 0 }

    /// Counts `report`, an action the cap deferred; `cut`: it had started and was cut.
    public mutating func count(_ report: ActionReport, cut wasCut: Bool) {
        actions = (actions ?? 0) + 1
        guard report.kind == .download || report.kind == .upload else { return }
        files = (files ?? 0) + 1
        bytes = Saturating.add(bytes ?? 0, report.bytes)
        if wasCut { cut = (cut ?? 0) + 1 }
    }

    enum CodingKeys: String, CodingKey {
        case files, bytes, actions, cut, started
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        // Always every key: null says "not known", never "none".
        try c.encode(files, forKey: .files)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(actions, forKey: .actions)
        try c.encode(cut, forKey: .cut)
        try c.encode(started, forKey: .started)
    }
}
