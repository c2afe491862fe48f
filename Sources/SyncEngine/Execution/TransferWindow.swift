// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

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
    /// Transfers handed out to connections so far: the next one's turn.
    private var turns = 0
    /// The latest turn whose transfer started; -1: none yet.
    private var latestStarted = -1
    /// The turns whose transfers started (asked once more when carried out).
    private var started: Set<Int> = []
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
    func take() -> TransferTurn? {
        condition.withLock {
            idle += 1
            defer { idle -= 1 }
            while waiting.isEmpty && !closed { condition.wait() }
            return handOut()
        }
    }

    /// The next waiting transfer with the turn it is handed out at; call with the lock held.
    private func handOut() -> TransferTurn? {
        guard let (id, action) = waiting.popFirst() else { return nil }
        defer { turns += 1 }
        return TransferTurn(id: id, action: action, number: turns, window: self)
    }

    /// True when the transfer handed out at `turn` started: its commands went out ahead, or a
    /// cap's question let it start.
    func hasStarted(turn: Int) -> Bool { condition.withLock { started.contains(turn) } }

    /// The run cap that keeps the transfer handed out at `turn` from starting, or nil: it starts.
    ///
    /// Before a cap every transfer starts. After it, one still starts when a transfer handed out
    /// after it started already: it was handed out first, and only its connection was busy (a
    /// connection takes its next transfer while the current one ends). So what a cap leaves is
    /// always the last of the transfers in their order, never one in the middle; at most one
    /// transfer per connection starts after the cap this way.
    ///
    /// Asked when a transfer's commands would go out ahead and again when it is carried out: a
    /// transfer that started once gets nil again.
    /// - Parameter reached: the cap the run reached, nil while within its caps.
    func capStopping(turn: Int, reached: () -> RunCap?) -> RunCap? {
        condition.withLock {
            if started.contains(turn) { return nil }
            if let cap = reached(), latestStarted < turn { return cap }
            latestStarted = max(latestStarted, turn)
            started.insert(turn)
            return nil
        }
    }

    /// The transfer `take` would give, taken now by a connection still busy with another one
    /// (so that its commands go out ahead, `ActionExecutor.expect(next:)`); nil when none waits
    /// or when the connections waiting for one would be left without (they come first).
    func takeAhead() -> TransferTurn? {
        condition.withLock {
            guard waiting.count > idle else { return nil }
            return handOut()
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

/// A transfer handed out to a connection: its plan position, the action, and its turn (the
/// transfers a run of transfers handed out before it).
struct TransferTurn: Sendable {
    let id: Int
    let action: Action
    let number: Int
    let window: TransferWindow

    /// The run cap that keeps this transfer from starting, or nil: it starts
    /// (`TransferWindow.capStopping(turn:reached:)`).
    func capStopping(_ reached: () -> RunCap?) -> RunCap? {
        window.capStopping(turn: number, reached: reached)
    }

    /// True once this transfer started (`TransferWindow.hasStarted(turn:)`).
    var hasStarted: Bool { window.hasStarted(turn: number) }
}
