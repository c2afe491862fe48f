// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import SyncCore
import SyncStore

/// The identity check of a device run (see `ServerIdentity`), right after the first login and
/// before anything is listed or changed.
enum IdentityCheck {
    /// The result of the check.
    enum Verdict: Equatable {
        /// Go on; `notes` tell of an identity recorded or accepted.
        case proceed(notes: [String])
        /// Leave the device untouched (status `refused`, exit 4); the message says what changed.
        case refuse(String)
    }

    /// Compares the server's identity with the one recorded for the device: none recorded →
    /// record it; the same → go on; changed only where firmware updates change it (banner text,
    /// a few features) → note it, record it and go on; another server (certificate, SYST, FEAT
    /// family: `ServerIdentity.decisiveChanges`) → refuse, unless `job.acceptNewIdentity` (then
    /// the new one is recorded). A dry run records nothing. A transport that cannot tell
    /// (`RemoteFileSystem.identity()` nil: a server whose SYST fails) is not checked. Another
    /// server, refused or accepted, is noted in `transitions` (`identity_changed`).
    static func verify(
        remote: RemoteFileSystem, job: DeviceJob, store: StateStore?, host: String,
        noting transitions: DeviceTransitions? = nil
    ) -> Verdict {
        guard let said = remote.identity() else { return .proceed(notes: []) }
        var current = said.identity
        let recorded = (try? store?.identity(device: job.name)).flatMap { $0 }.flatMap(ServerIdentity.init(stored:))
        // A FEAT that did not end tells nothing of the server: compare (and keep) the recorded one.
        if said.featuresUnknown, let recorded { current.features = recorded.features }
        switch compare(current, recorded: recorded, job: job, store: store, host: host, transitions: transitions) {
        case .proceed(let notes): return .proceed(notes: said.notes + notes)
        case .refuse(let message): return .refuse(message)
        }
    }

    private static func compare(
        _ current: ServerIdentity, recorded: ServerIdentity?, job: DeviceJob, store: StateStore?, host: String,
        transitions: DeviceTransitions?
    ) -> Verdict {
        guard let recorded else {
            if !job.dryRun { try? store?.setIdentity(current.stored, device: job.name) }
            return .proceed(notes: [])
        }
        let changes = current.changes(from: recorded)
        if changes.isEmpty { return .proceed(notes: []) }
        let what = changes.joined(separator: "; ")
        // A new banner text or a few features more or less: a firmware update, not another device.
        if current.decisiveChanges(from: recorded).isEmpty {
            if !job.dryRun { try? store?.setIdentity(current.stored, device: job.name) }
            let done = job.dryRun ? "a real run records it" : "recorded"
            return .proceed(notes: [
                "the server's identity changed (\(what)): taken for a firmware update of the same device; \(done)"
            ])
        }
        if job.acceptNewIdentity {
            transitions?.note(.identityChanged, "another identity, accepted with --accept-new-identity: \(what)")
            if !job.dryRun { try? store?.setIdentity(current.stored, device: job.name) }
            return .proceed(notes: ["new server identity accepted: \(what)"])
        }
        transitions?.note(.identityChanged, "another identity, refused: \(what)")
        return .refuse(
            "the server at \(host) answers with another identity than at the last sync (\(what)): "
                + "probably another device at the same address; nothing was changed for this device. "
                + "If it is the same device (new firmware, reset), run with --accept-new-identity")
    }

    /// The refusal when `overlap` (measured over `records` records, asked only when they are
    /// enough to judge) shows another tree (`ListingOverlap`); nil when it is the device's own
    /// or `job.acceptNewIdentity` is set. A refusal is noted in `transitions` (`identity_changed`).
    static func foreignTree(
        records: Int, job: DeviceJob, noting transitions: DeviceTransitions? = nil, overlap: () -> ListingOverlap?
    ) -> String? {
        guard !job.acceptNewIdentity, records >= ListingOverlap.minimumRecords, let overlap = overlap(),
            overlap.isAnotherTree
        else { return nil }
        let refusal = overlap.refusal(host: job.host)
        transitions?.note(.identityChanged, refusal)
        return refusal
    }
}
