// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncEngine

/// The events a handler was told, in order.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SyncEvent] = []
    var handler: SyncEventHandler { { event in self.lock.withLock { self.events.append(event) } } }
    var told: [SyncEvent] { lock.withLock { events } }
}

func action(_ kind: ActionKind, _ path: String, bytes: UInt64 = 0, resolution: ConflictResolution? = nil) -> Action {
    var action = Action(
        kind: kind, path: (try? RelativePath(validating: path)) ?? .root, bytes: bytes, reason: "because")
    action.resolution = resolution
    return action
}

@Suite struct ConnectionWorkerTests {
    private func worker(_ executor: RecordingExecutor, usable: @escaping () -> Bool = { true }) -> ConnectionWorker {
        ConnectionWorker(executor: executor, isUsable: usable, close: {})
    }

    /// (resolution of a conflict, reaches the executor, status, error).
    @Test(arguments: [
        (ConflictResolution.report, false, ActionStatus.failed, "conflict: because"),
        (.keepBoth, true, .done, ""),
        (.localWins, true, .done, ""),
        (.remoteWins, true, .done, ""),
    ])
    func aConflictLeftAsItIsFailsWithItsReasonWithoutReachingTheExecutor(
        resolution: ConflictResolution, reaches: Bool, status: ActionStatus, error: String
    ) {
        let executor = RecordingExecutor()
        let conflict = action(.conflict, "a.jpg", resolution: resolution)
        let outcome = worker(executor).perform(conflict, 0)
        #expect(executor.carried.map(\.path) == (reaches ? ["a.jpg"] : []))
        #expect(outcome.report.status == status)
        #expect((outcome.report.error ?? "") == error)
    }

    @Test func actionsAreToldWithTheirPlaceInThePlan() {
        let log = EventLog()
        let executor = RecordingExecutor(events: log.handler)
        let plan = [action(.mkdirLocal, "d"), action(.download, "d/a", bytes: 5), action(.download, "d/b", bytes: 7)]
        let worker = worker(executor)
        let outcomes = [worker.perform(plan[2], 2), worker.perform(plan[0], 0)]
        #expect(executor.carried.map(\.id) == [2, 0])
        #expect(outcomes.map(\.transferred) == [7, 0])
        let told = log.told.map { event -> String in
            switch event {
            case .actionStarted(let device, let id, _): return "\(device) started \(id)"
            case .actionFinished(let device, let id, let report): return "\(device) finished \(id) \(report.status)"
            default: return "other"
            }
        }
        #expect(told == ["cam started 2", "cam finished 2 done", "cam started 0", "cam finished 0 done"])
    }

    @Test func aFailureFailsThatActionOnlyAndMovesNoBytes() {
        let executor = RecordingExecutor(failing: ["bad"])
        let plan = [action(.download, "bad", bytes: 9), action(.download, "good", bytes: 4)]
        let worker = worker(executor)
        let bad = worker.perform(plan[0], 0)
        let good = worker.perform(plan[1], 1)
        #expect(bad.report.status == .failed)
        #expect(bad.report.error == "internal: refused bad")
        #expect(bad.transferred == 0)
        #expect(good.report.status == .done)
        #expect(good.transferred == 4)
    }

    /// After a stop (SIGINT), a transfer whose commands went out ahead is carried out (it ends at
    /// its first chunk and says why) instead of being reported "not started" with its RETR sent;
    /// one not started yet is not started (a breaker's case).
    @Test func aTransferSentAheadIsCarriedOutAfterAStop() throws {
        let token = CancellationToken()
        let executor = RecordingExecutor(cancellation: token)
        let window = TransferWindow()
        window.add(action(.download, "a", bytes: 3), id: 0)
        window.add(action(.download, "b", bytes: 4), id: 1)
        window.close()
        let current = try #require(window.take())
        let ahead = try #require(window.take())
        // The ahead transfer's commands went out (its start was asked and granted).
        #expect(ahead.capStopping { nil } == nil)
        token.cancel()
        let worker = worker(executor)
        let sent = worker.perform(ahead.action, ahead.id, turn: ahead)
        let unsent = worker.perform(current.action, current.id, turn: current)
        #expect(executor.carried.map(\.path) == ["b"])
        #expect(sent.report.status == .done && !sent.notStarted)
        #expect(unsent.report.error == "not started: the run was interrupted" && unsent.notStarted)
    }
}
