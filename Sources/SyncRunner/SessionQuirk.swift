// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import SyncEngine
import SyncStore
import Synchronization

/// Something a device's server was found doing wrong that its sessions then avoid, kept in the
/// state so that later runs avoid it at once: NOOP during transfers (`keepalive`), pipelined
/// transfer commands (`pipelining`), and what a probe for `HASH` found (`hashProbe`). One of
/// each per device run; its sessions are watched as they connect.
final class SessionQuirk: Sendable {
    /// Where one quirk is kept and how sessions show it.
    struct Kind: Sendable {
        /// Reads the stored reason of a device, nil when none.
        let stored: @Sendable (StateStore, String) throws -> String?
        /// Stores a learned reason for a device.
        let store: @Sendable (StateStore, String, String) throws -> Void
        /// Tells a session what an earlier run learned.
        let tell: @Sendable (FTPSession, String) -> Void
        /// What a session learned in this run, nil when nothing.
        let learned: @Sendable (FTPSession) -> String?
        /// The device's note for a learned reason.
        let note: @Sendable (String) -> String

        /// A server that misbehaves with NOOP during transfers (`FTPSession.keepaliveOffReason`).
        static let keepalive = Kind(
            stored: { store, device in try store.keepaliveQuirk(device: device) },
            store: { store, device, reason in try store.setKeepaliveQuirk(reason, device: device) },
            tell: { session, reason in session.expectNoKeepalive(because: reason) },
            learned: { $0.keepaliveOffReason },
            note: { "\($0): keepalive is off for this device (NOOP no longer sent during transfers)" })

        /// A server that loses or refuses pipelined transfer commands (`FTPSession.pipelineOffReason`).
        static let pipelining = Kind(
            stored: { store, device in try store.pipelineQuirk(device: device) },
            store: { store, device, reason in try store.setPipelineQuirk(reason, device: device) },
            tell: { session, reason in session.expectNoPipelining(because: reason) },
            learned: { $0.pipelineOffReason },
            note: { "\($0): pipelining is off for this device (transfer commands go one at a time)" })

        /// What probing for `HASH` found on a server whose FEAT names no hash command
        /// (`FTPSession.hashProbe`), so later runs do not probe again.
        static let hashProbe = Kind(
            stored: { store, device in try store.hashProbe(device: device) },
            store: { store, device, outcome in try store.setHashProbe(outcome, device: device) },
            tell: { session, outcome in session.rememberHashProbe(outcome) },
            learned: { $0.hashProbe },
            note: { "probed the server for a file hash command: \($0)" })
    }

    private let kind: Kind
    private let store: StateStore?
    private let device: String
    /// The reason an earlier run stored, nil when none.
    let stored: String?
    private let sessions = Mutex<[FTPSession]>([])

    /// Reads what the state knows of `device`'s `kind` of quirk.
    init(_ kind: Kind, store: StateStore?, device: String) {
        self.kind = kind
        self.store = store
        self.device = device
        self.stored = store.flatMap { try? kind.stored($0, device) } ?? nil
    }

    /// Tells a new session of the device what the state knows, and watches what it learns.
    func watch(_ session: FTPSession) {
        if let stored { kind.tell(session, stored) }
        sessions.withLock { $0.append(session) }
    }

    /// After the device's work: stores a reason learned in this run (not when `persist` is
    /// false: a dry run) and notes it in `report`.
    func conclude(_ report: inout DeviceReport, persist: Bool) {
        guard stored == nil else { return }
        let learned = sessions.withLock { sessions in sessions.lazy.compactMap { self.kind.learned($0) }.first }
        sessions.withLock { $0.removeAll() }
        guard let learned else { return }
        if persist, let store { try? kind.store(store, device, learned) }
        report.note(kind.note(learned))
    }
}
