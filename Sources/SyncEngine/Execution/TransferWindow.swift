import Foundation
import SyncCore

/// One run of consecutive transfers of a plan, shared by the connections carrying it out: the
/// transfers taken from the plan and waiting for a connection, and the outcomes finished but
/// not yet handed over in the plan's order. The scheduler bounds how many it adds ahead of the
/// oldest outcome not handed over; this only keeps them. Without an order, transfers are taken
/// in the plan's order; with one, the first in that order of those waiting is taken.
final class TransferWindow: @unchecked Sendable {
    private let condition = NSCondition()
    /// Transfers not taken yet.
    private var waiting: TransferHeap
    /// Outcomes finished, not yet handed over, by plan position.
    private var finished: [Int: ActionOutcome] = [:]
    /// True once no more transfers will be added.
    private var closed = false
    /// Connections still taking transfers.
    private var workers = 0
    /// Connections waiting in `take` for a transfer.
    private var idle = 0
    /// Transfers finished so far, and their bytes (`ConnectionGrowth`).
    private var finishedCount = 0
    private var finishedBytes: UInt64 = 0

    /// - Parameter order: the order transfers are taken in; nil: the plan's.
    init(order: TransferOrder? = nil) {
        waiting = TransferHeap(order: order)
    }

    /// Adds the transfer at plan position `id`.
    func add(_ action: Action, id: Int) {
        condition.withLock {
            waiting.insert(action, id: id)
            condition.signal()
        }
    }

    /// No more transfers will be added: connections stop once the waiting ones are taken.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// A connection begins taking transfers (call before its thread starts).
    func workerStarted() {
        condition.withLock { workers += 1 }
    }

    /// A connection stopped taking transfers (its connection is gone, or the run is over).
    func workerEnded() {
        condition.withLock {
            workers -= 1
            condition.broadcast()
        }
    }

    /// The oldest transfer waiting (without an order) or the first in the order, once there is
    /// one; nil when the window is closed and none is waiting.
    func take() -> (id: Int, action: Action)? {
        condition.withLock {
            idle += 1
            defer { idle -= 1 }
            while waiting.isEmpty && !closed { condition.wait() }
            return waiting.popFirst()
        }
    }

    /// The transfer `take` would give, taken now by a connection still busy with another one
    /// (so that its commands go out ahead, `ActionExecutor.expect(next:)`); nil when none waits
    /// or when the connections waiting for one would be left without (they come first).
    func takeAhead() -> (id: Int, action: Action)? {
        condition.withLock {
            guard waiting.count > idle else { return nil }
            return waiting.popFirst()
        }
    }

    /// Puts back a transfer taken ahead that its connection will not carry out (it was lost).
    func giveBack(_ id: Int, _ action: Action) {
        condition.withLock {
            waiting.insert(action, id: id)
            condition.signal()
        }
    }

    /// Keeps the outcome of the transfer at plan position `id`.
    func finish(_ id: Int, _ outcome: ActionOutcome) {
        condition.withLock {
            finished[id] = outcome
            finishedCount += 1
            finishedBytes = Saturating.add(finishedBytes, outcome.transferred)
            condition.broadcast()
        }
    }

    /// How many transfers finished so far and their bytes, and how many wait for a connection.
    var progress: (transfers: Int, bytes: UInt64, waiting: Int) {
        condition.withLock { (finishedCount, finishedBytes, waiting.count) }
    }

    /// The outcome of the transfer at plan position `id` (added before), once it finished;
    /// when no connection is left to take it, it fails without being started.
    func outcome(of id: Int) -> ActionOutcome {
        while true {
            if let outcome = outcome(of: id, waitingAtMost: 3_600) { return outcome }
        }
    }

    /// `outcome(of:)`, or nil when it did not come within `seconds`.
    func outcome(of id: Int, waitingAtMost seconds: Double) -> ActionOutcome? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while true {
                if let outcome = finished.removeValue(forKey: id) { return outcome }
                if workers <= 0, let left = waiting.remove(id: id) {
                    return .failed(left.action, "no connection was left to carry it out")
                }
                if !condition.wait(until: deadline) { return finished.removeValue(forKey: id) }
            }
        }
    }
}
