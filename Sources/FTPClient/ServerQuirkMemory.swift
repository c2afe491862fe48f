// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Synchronization

/// A set of servers (`host:port`) with a quirk learnt on one connection, remembered for the
/// process (one run) so that later connections avoid it at once; each with a note of how the
/// quirk showed (empty when none was given).
final class ServerQuirkMemory: Sendable {
    private let servers = Mutex<[String: String]>([:])

    /// Whether `server` showed the quirk earlier in this process.
    func contains(_ server: String) -> Bool { servers.withLock { $0[server] != nil } }

    /// How `server` showed the quirk; nil when it did not (yet).
    func note(for server: String) -> String? { servers.withLock { $0[server] } }

    /// Remembers that `server` showed the quirk, and how (`note`; the first one is kept).
    func insert(_ server: String, note: String = "") {
        servers.withLock { servers in if servers[server] == nil { servers[server] = note } }
    }
}

/// Servers whose FEAT reply did not end within its bounds: later connections skip FEAT.
enum UnendingFeatureReplies {
    static let shared = ServerQuirkMemory()
}

/// Servers whose TLS 1.3 session tickets ran out for data connections: later connections use TLS 1.2.
enum TLSResumptionFallback {
    static let shared = ServerQuirkMemory()
}

/// Servers whose listing data connections failed and that list with STAT: later connections
/// list with STAT at once.
enum ControlConnectionListings {
    static let shared = ServerQuirkMemory()
}
