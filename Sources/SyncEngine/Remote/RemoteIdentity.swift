// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a server says of itself at login, as the identity check of a device run reads it
/// (`IdentityCheck`).
public struct RemoteIdentity: Sendable, Equatable {
    /// Banner, SYST, FEAT and certificate (`ServerIdentity`).
    public var identity: ServerIdentity
    /// True when FEAT did not end: the features tell nothing of the server.
    public var featuresUnknown: Bool
    /// What the session noticed worth telling the user (`FTPSession.notes`).
    public var notes: [String]

    /// - Parameters:
    ///   - identity: what the server answered.
    ///   - featuresUnknown: true when its FEAT reply did not end.
    ///   - notes: lines for the device's notes.
    public init(identity: ServerIdentity, featuresUnknown: Bool = false, notes: [String] = []) {
        self.identity = identity
        self.featuresUnknown = featuresUnknown
        self.notes = notes
    }
}
