// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a connection learned of its server from listings: the server's spelling of names
/// whose normalized (NFC) form differs (NFD), the server clock's offset from ours, and whether
/// listings must go over the control connection. A device run's extra connections start with
/// what its first one learned (`openSibling`) and hand back what they learned (`absorb(_:)`),
/// so every connection names files alike.
///
/// A value: copied on the thread of the connection it comes from, handed to one on another.
public struct LearnedState: Sendable, Equatable {
    /// The server's spelling of a path, keyed by the path's NFC form.
    var serverNames: [String: String] = [:]
    /// Seconds the server's clock is ahead of ours; nil until measured.
    var clockOffset: Double?
    /// True once the one MDTM of a run that measures the offset was spent.
    var offsetProbed = false
    /// Why listings go over the control connection (`STAT`; `FTPSession.controlListingReason`),
    /// nil while they use data connections: learned by a listing of this run. Once set, every
    /// later listing of the connection goes over STAT.
    var controlListing: String?
    /// Why an earlier run listed with STAT (`ControlListingQuirk`), until the first listing
    /// tries a data connection once (`FTPSession.expectControlListing`).
    var controlListingHint: String?
    /// Why LIST goes without `-a` (`FTPSession.plainListReason`): learned by a listing of this
    /// run or stored by an earlier one (`PlainListQuirk`); nil while `LIST -a` is sent.
    var plainList: String?

    /// Nothing learned yet.
    public init() {}

    /// The server's spelling of `path` when it differs from `path`.
    public func spelling(of path: String) -> String? {
        serverNames[path.nfc]
    }

    /// Remembers that the server spells `path` as `spelling` (taught by another connection).
    public mutating func remember(spelling: String, of path: String) {
        serverNames[path.nfc] = spelling
    }

    /// Adds what `other` (an extra connection of the same device run, done listing) learned:
    /// the spellings of the names it listed (ours win) and, when none was measured here yet,
    /// its measure of the server's clock offset, its reason to list with STAT and to send LIST
    /// without `-a`.
    public mutating func absorb(_ other: LearnedState) {
        serverNames.merge(other.serverNames) { mine, _ in mine }
        if clockOffset == nil, let offset = other.clockOffset { clockOffset = offset }
        offsetProbed = offsetProbed || other.offsetProbed
        if controlListing == nil { controlListing = other.controlListing }
        if plainList == nil { plainList = other.plainList }
    }
}
