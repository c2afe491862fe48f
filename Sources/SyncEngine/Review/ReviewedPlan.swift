// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// A dry run's plan of one device, read back for `ftpsync apply`: the actions a person
/// reviewed, each with what the planner saw (`ActionExpectation`), and the identity of the
/// server it was made against.
public struct ReviewedPlan: Sendable, Equatable {
    /// One reviewed action.
    public struct Entry: Sendable, Equatable {
        public var kind: ActionKind
        /// Relative to the device's root, as in the plan's JSON.
        public var path: String
        /// The new path of a rename.
        public var to: String?
        /// Bytes the action was to move.
        public var bytes: UInt64
        /// What the planner saw; nil in a plan made before `expect` existed (then refused).
        public var expect: ActionExpectation?

        /// An entry of the given fields.
        public init(kind: ActionKind, path: String, to: String?, bytes: UInt64 = 0, expect: ActionExpectation?) {
            self.kind = kind
            self.path = path
            self.to = to
            self.bytes = bytes
            self.expect = expect
        }
    }

    /// The reviewed actions, in the plan's order.
    public var actions: [Entry]
    /// The server identity the plan was made against (`DeviceReport.identity`); nil when the
    /// dry run could not tell.
    public var identity: String?

    /// A reviewed plan of `actions`, made against the server `identity`.
    public init(actions: [Entry], identity: String?) {
        self.actions = actions
        self.identity = identity
    }
}
