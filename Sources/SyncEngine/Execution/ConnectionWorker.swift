// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// One control connection's share of a device run: carries out actions over its own session.
struct ConnectionWorker {
    /// Carries out one action, numbered by its place in the plan (progress events name it so);
    /// a failure fails that action only. A transfer of a run of transfers comes with its turn,
    /// which decides whether it still starts once a run cap was reached; without one the cap
    /// alone decides.
    func perform(_ action: Action, _ id: Int, turn: TransferTurn? = nil) -> ActionOutcome {
        body(action, id, turn)
    }
    private var body: (Action, Int, TransferTurn?) -> ActionOutcome
    /// False once the connection is gone (closed by the server, timed out): the worker then
    /// takes no more actions.
    var isUsable: () -> Bool
    /// Work left for the end of the run on this connection (push: re-list uploaded folders).
    var finish: () -> Void
    /// Ends the session (QUIT).
    var close: () -> Void
    /// Commits what the worker's actions left pending (the records of a `PullRecordBatch`);
    /// called each time the worker stops taking actions from a run of transfers.
    var flush: () -> Void
    /// Tells the executor which transfer follows the next `perform` on this connection (nil:
    /// none known), so that its commands may go out ahead; they go out only if its turn may
    /// still start then (`TransferTurn.capStopping`), which makes it a started transfer.
    var expect: (TransferTurn?) -> Void

    /// A worker carrying out actions with `executor` over `remote`, usable while its FTP
    /// control connection is open; see `init(executor:isUsable:close:)`.
    init(remote: RemoteFileSystem, executor: some ActionExecutor) {
        self.init(executor: executor, isUsable: { remote.isConnected }, close: { remote.close() })
    }

    /// A worker carrying out actions with `executor`.
    ///
    /// Actions are told to the executor's event handler as they start and finish. Once a stop was requested
    /// (SIGINT/SIGTERM) no further action starts: it is reported as not started. Once a run cap
    /// was reached (`job.caps`) no further action starts but the offload's (a pull's `delete_remote`):
    /// it is deferred to the next run, and a transfer the cap cut after its grace is deferred too. A conflict the plan leaves
    /// as it is (resolution `report`) fails with the planner's reason without reaching the
    /// executor.
    /// - Parameters:
    ///   - isUsable: false once the worker's connection is gone.
    ///   - close: ends the worker's session.
    init(executor: some ActionExecutor, isUsable: @escaping () -> Bool, close: @escaping () -> Void) {
        let device = executor.job.name
        let events = executor.events
        let cancellation = executor.job.cancellation
        let caps = executor.job.caps
        // A pull deletes on the device only to offload (`PullExecutor.offload`).
        let offloads = executor.job.policy.direction == .pull
        self.body = { action, id, turn in
            let stop = cancellation.interruption
            // A transfer whose commands went out ahead has started: carried out, it ends at its
            // first chunk and says so, rather than "not started" with its RETR sent.
            if let stop, stop.cap == nil, turn?.hasStarted != true {
                var outcome = ActionOutcome.failed(action, "not started: the run was interrupted")
                outcome.notStarted = true
                return outcome
            }
            // Nothing starts after a cap, not even a mkdir or a delete: a delete may rest on a
            // transfer that did not happen; the next run plans them again. Offloads go on (until
            // the grace's cut): each checks its own copy here and moves only a few sampled bytes,
            // and a card that fills up must not wait for a backlog a capped run never clears. A
            // transfer handed out before one that started already starts too (until the cut).
            let cap = if let turn, stop == nil { turn.capStopping { caps?.reached } } else { caps?.reached }
            if let cap, !(offloads && action.kind == .deleteRemote) {
                var outcome = ActionOutcome.deferred(
                    action, "not started: \(cap.option) was reached; the next run does it")
                outcome.notStarted = true
                return outcome
            }
            events?(.actionStarted(device: device, id: id, action: action))
            var outcome: ActionOutcome
            let movedBefore = executor.moved.value
            do {
                if action.kind == .conflict, action.resolution == .report {
                    throw EngineError.conflictReported(reason: action.reason)
                }
                var done = ActionOutcome.done(action, transferred: try executor.carryOut(action, id: id))
                if let from = executor.startedFrom {
                    // Bytes moved are the size less where it began (planned: less the planned offset).
                    done.report.bytes = Saturating.subtract(Saturating.add(action.bytes, action.offset), from)
                    done.report.offset = from
                }
                outcome = done
            } catch let stop as RunInterrupted where stop.cap != nil {
                outcome = .deferred(action, stop.description, cut: true)
            } catch let held as OffloadHeld {
                // After a cap, an offload held (its download was left, most often) is left for
                // the next run like the rest: counted in what the cap left.
                if let cap = caps?.reached {
                    outcome = .deferred(action, "\(held); \(cap.option) was reached, the next run tries again")
                } else {
                    // Not carried out, on purpose: the device's note says why; no action ended.
                    return .leftAlone(action, "\(held)")
                }
            } catch let error as EngineError where error.isStillBeingWritten {
                outcome = .held(action, "\(error)")
            } catch {
                outcome = .failed(action, "\(error)")
            }
            outcome.notes = executor.takeNotes()
            if outcome.report.status != .done {
                // A transfer cut or failed moved bytes over its data connection too.
                outcome.transferred = Saturating.subtract(executor.moved.value, movedBefore)
            }
            events?(.actionFinished(device: device, id: id, report: outcome.report))
            return outcome
        }
        self.isUsable = isUsable
        self.finish = executor.finish
        self.flush = executor.flush
        self.expect = { turn in
            let mayStart: (@Sendable () -> Bool)? = turn.map { turn in
                { @Sendable in turn.capStopping { caps?.reached } == nil }
            }
            executor.expect(next: turn?.action, mayStart: mayStart)
        }
        self.close = close
    }
}
