// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// What carrying out one planned action came to: its report and the bytes it moved. The one
/// outcome of every executor, whichever the direction.
struct ActionOutcome {
    /// The action as carried out (done or failed, with the error).
    var report: ActionReport
    /// Bytes transferred by the action (0 for anything but a download or upload).
    var transferred: UInt64
    /// True for a transfer a run cap cut after its grace (status `deferred`).
    var wasCut = false
    /// True for an action not started at all (a stop or a run cap came first).
    var notStarted = false
    /// Why the action was left undone on purpose (an offload whose condition failed,
    /// `OffloadHeld`): a note of the device, not an action of its report. Nil otherwise.
    var leftAlone: String?
    /// The device's notes the action left besides its report (a download fetched again).
    var notes: [String] = []

    /// `action` done, having moved `transferred` bytes.
    static func done(_ action: Action, transferred: UInt64 = 0) -> ActionOutcome {
        ActionOutcome(report: ActionReport(action: action, status: .done), transferred: transferred)
    }

    /// `action` left undone on purpose, for the reason `note` (the device's note).
    static func leftAlone(_ action: Action, _ note: String) -> ActionOutcome {
        ActionOutcome(report: ActionReport(action: action, status: .planned), transferred: 0, leftAlone: note)
    }

    /// `action` left for a later run (`ActionStatus.held`) for `reason` (one line).
    static func held(_ action: Action, _ reason: String) -> ActionOutcome {
        ActionOutcome(report: ActionReport(action: action, status: .held, error: reason), transferred: 0)
    }

    /// `action` failed with `error` (one line), having moved nothing worth counting.
    static func failed(_ action: Action, _ error: String) -> ActionOutcome {
        ActionOutcome(report: ActionReport(action: action, status: .failed, error: error), transferred: 0)
    }

    /// `action` left for the next run by a run cap, with why (one line); `cut`: it had started
    /// and was cut after the cap's grace.
    static func deferred(_ action: Action, _ reason: String, cut: Bool = false) -> ActionOutcome {
        ActionOutcome(
            report: ActionReport(action: action, status: .deferred, error: reason), transferred: 0, wasCut: cut)
    }
}
