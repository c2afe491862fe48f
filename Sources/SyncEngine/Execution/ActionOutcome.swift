import Foundation
import SyncCore

/// What carrying out one planned action came to: its report and the bytes it moved. The one
/// outcome of every executor, whichever the direction.
struct ActionOutcome {
    /// The action as carried out (done or failed, with the error).
    var report: ActionReport
    /// Bytes transferred by the action (0 for anything but a download or upload).
    var transferred: UInt64

    /// `action` done, having moved `transferred` bytes.
    static func done(_ action: Action, transferred: UInt64 = 0) -> ActionOutcome {
        ActionOutcome(report: ActionReport(action: action, status: .done), transferred: transferred)
    }

    /// `action` left for a later run (`ActionStatus.held`) for `reason` (one line).
    static func held(_ action: Action, _ reason: String) -> ActionOutcome {
        ActionOutcome(report: ActionReport(action: action, status: .held, error: reason), transferred: 0)
    }

    /// `action` failed with `error` (one line), having moved nothing worth counting.
    static func failed(_ action: Action, _ error: String) -> ActionOutcome {
        ActionOutcome(report: ActionReport(action: action, status: .failed, error: error), transferred: 0)
    }
}
