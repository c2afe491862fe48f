// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Carries out the actions of one direction's plan over one remote session. The device run
/// numbers the actions, tells the events, stops on a cancellation and reports the conflicts the
/// plan leaves as they are (`ConnectionWorker`); the executor only carries out the rest.
protocol ActionExecutor {
    /// The device and the run's choices.
    var job: DeviceJob { get }
    /// Told of transfer progress; nil for none.
    var events: SyncEventHandler? { get }
    /// Carries out `action` (index `id` in the plan, for progress).
    /// - Returns: the bytes transferred.
    /// - Throws: why the action failed; it fails this action only.
    func carryOut(_ action: Action, id: Int) throws -> UInt64
    /// Records a pair the plan found in sync without a (matching) record.
    func adopt(_ adoption: Adoption)
    /// Commits what this executor's actions left pending (a pull's record batch); called each
    /// time its connection stops taking actions from a run of transfers.
    func flush()
    /// Work left for the end of the run on this connection (a push re-lists uploaded folders).
    func finish()
    /// Told, before `carryOut` of an action, which action this connection carries out after it
    /// (nil: none known yet), so that its commands may go out ahead (`TransferFollowUp`).
    /// `mayStart`, when given, decides at the moment they would go out whether that action
    /// still starts (a run cap); once it said yes, the action counts as started.
    func expect(next: Action?, mayStart: (@Sendable () -> Bool)?)
    /// The bytes that were already there when the last `carryOut` began its transfer, when that
    /// is not its action's offset: a resume the kept bytes did not allow starts from byte 0, a
    /// download in segments resumes from what its ranges hold. Nil: as planned. The report
    /// shows it as the action's offset.
    var startedFrom: UInt64? { get }
    /// The bytes this executor's transfers moved so far, whatever came of them.
    var moved: ByteTally { get }
    /// The device's notes the last `carryOut` left (a download fetched again because its bytes
    /// differed from the server's digest), taken: each is returned once.
    func takeNotes() -> [String]
}

extension ActionExecutor {
    /// An executor that sends nothing ahead: nothing to do.
    func expect(next: Action?, mayStart: (@Sendable () -> Bool)?) {}
    /// An executor whose transfers always start where planned.
    var startedFrom: UInt64? { nil }
    /// An executor that counts no bytes (it moves none over a data connection).
    var moved: ByteTally { ByteTally() }
    /// An executor that leaves no notes.
    func takeNotes() -> [String] { [] }
}

extension ActionExecutor {
    /// A meter for the transfer of action `id`: its progress events, its bytes against the
    /// run's caps and in the executor's `moved`.
    /// - Parameters:
    ///   - start: bytes already there (a resumed transfer), counted from.
    ///   - total: the file's size in bytes, when known.
    func transferMeter(id: Int, start: UInt64, total: UInt64?) -> TransferMeter? {
        TransferMeter(
            device: job.name, id: id, start: start, total: total, handler: events, caps: job.caps, tally: moved)
    }
}
