// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncEngine

/// The transfer scheduler over stub executors: the order of outcomes, which actions spread, refused
/// and lost connections.
@Suite struct TransferSchedulerOrderTests {
    private static let plan = [
        action(.mkdirLocal, "d"), action(.download, "d/1", bytes: 1), action(.download, "d/2", bytes: 2),
        action(.download, "d/3", bytes: 3), action(.download, "d/4", bytes: 4), action(.deleteLocal, "old"),
    ]

    /// Whatever connection finished them, the outcomes come back in the plan's order; every
    /// action but a transfer runs on the first connection; the extra one ends with its `finish`.
    @Test(arguments: [1, 2, 3])
    func outcomesComeInPlanOrderAndOnlyTransfersSpread(connections: Int) throws {
        let first = RecordingExecutor()
        let extras = LockedExtras()
        let scheduler = TransferScheduler(
            connections: connections,
            first: ConnectionWorker(executor: first, isUsable: { true }, close: {})
        ) {
            let extra = RecordingExecutor()
            extras.add(extra)
            return ConnectionWorker(executor: extra, isUsable: { true }, close: {})
        }
        let outcomes = try scheduler.outcomes(of: Self.plan)
        scheduler.finish()
        #expect(outcomes.map(\.report.path) == Self.plan.map(\.path.string))
        #expect(outcomes.allSatisfy { $0.report.status == .done })
        #expect(outcomes.map(\.transferred) == [0, 1, 2, 3, 4, 0])
        let others = first.carried.filter { $0.path == "d" || $0.path == "old" }
        #expect(others.map(\.path) == ["d", "old"])
        let carried = first.carried.count + extras.all.reduce(0) { $0 + $1.carried.count }
        #expect(carried == Self.plan.count)
        #expect(extras.all.count == connections - 1)
        #expect(extras.all.allSatisfy { $0.finishes == 1 })
        // The first connection is the caller's: the scheduler leaves its `finish` alone.
        #expect(first.finishes == 0)
        #expect(first.flushes == 1)
    }

    @Test func aRefusedExtraConnectionLeavesTheFirstToDoItAll() throws {
        let first = RecordingExecutor()
        let scheduler = TransferScheduler(
            connections: 3, first: ConnectionWorker(executor: first, isUsable: { true }, close: {})
        ) { throw EngineError.incompleteAction("421 too many") }
        let outcomes = try scheduler.outcomes(of: Self.plan)
        #expect(outcomes.allSatisfy { $0.report.status == .done })
        #expect(first.carried.count == Self.plan.count)
        #expect(scheduler.notes.count == 1)
        #expect(scheduler.notes.first?.hasPrefix("the server refused an extra connection") == true)
    }

    /// A connection that is gone takes no more transfers; those no connection took fail.
    @Test(arguments: [0, 1, 4])
    func aConnectionThatIsGoneTakesNoMoreTransfers(usableFor: Int) throws {
        let first = RecordingExecutor()
        let transfers = Array(Self.plan[1...4])
        let taken = LockedExtras()
        let worker = ConnectionWorker(executor: first, isUsable: { taken.tick() <= usableFor }, close: {})
        let outcomes = try TransferScheduler(connections: 1, first: worker) { throw EngineError.incompleteAction("no") }
            .outcomes(of: transfers)
        #expect(outcomes.filter { $0.report.status == .done }.count == usableFor)
        let left = outcomes.dropFirst(usableFor)
        #expect(left.allSatisfy { $0.report.error == "no connection was left to carry it out" })
    }
}

/// The scheduler takes the plan as a stream: a bounded look-ahead, numbered by plan position.
@Suite struct TransferSchedulerStreamTests {
    /// A plan of a folder, `count` downloads and a delete.
    static func plan(_ count: Int) -> [Action] {
        [action(.mkdirLocal, "d")] + (0..<count).map { action(.download, "d/\($0)", bytes: 1) } + [
            action(.deleteLocal, "old")
        ]
    }

    /// However long the run of transfers, at most `lookAhead` actions are taken from the plan
    /// ahead of the oldest outcome not handed over; each is numbered by its place in the plan;
    /// the delete after the run starts only once every transfer ended.
    @Test(arguments: [1, 3])
    func theLookAheadIsBoundedAndActionsKeepTheirPlace(connections: Int) throws {
        let plan = Self.plan(500)
        let first = RecordingExecutor()
        let extras = LockedExtras()
        let scheduler = TransferScheduler(
            connections: connections, first: ConnectionWorker(executor: first, isUsable: { true }, close: {}),
            lookAhead: 16
        ) {
            let extra = RecordingExecutor()
            extras.add(extra)
            return ConnectionWorker(executor: extra, isUsable: { true }, close: {})
        }
        var taken = 0
        var handed: [ActionOutcome] = []
        var most = 0
        try scheduler.run(
            {
                guard taken < plan.count else { return nil }
                taken += 1
                most = max(most, taken - handed.count)
                return plan[taken - 1]
            },
            outcome: { handed.append($0) })
        scheduler.finish()
        #expect(most <= 16)
        #expect(handed.map(\.report.path) == plan.map(\.path.string))
        let carried = first.carried + extras.all.flatMap(\.carried)
        #expect(carried.count == plan.count)
        #expect(carried.allSatisfy { plan[$0.id].path.string == $0.path })
        #expect(first.carried.last?.path == "old")
    }

    /// A plan that cannot be read on (a damaged spool) stops the run once the actions taken
    /// before were carried out and handed over.
    @Test func aPlanThatFailsStopsAfterWhatWasTaken() {
        let plan = Self.plan(10)
        let first = RecordingExecutor()
        let scheduler = TransferScheduler(
            connections: 2, first: ConnectionWorker(executor: first, isUsable: { true }, close: {})
        ) { ConnectionWorker(executor: RecordingExecutor(), isUsable: { true }, close: {}) }
        var taken = 0
        var handed: [ActionOutcome] = []
        #expect(throws: SpoolError.damaged(reason: "test")) {
            try scheduler.run(
                {
                    guard taken < 6 else { throw SpoolError.damaged(reason: "test") }
                    taken += 1
                    return plan[taken - 1]
                },
                outcome: { handed.append($0) })
        }
        scheduler.finish()
        #expect(handed.map(\.report.path) == plan.prefix(6).map(\.path.string))
        #expect(handed.allSatisfy { $0.report.status == .done })
    }
}

extension TransferScheduler {
    /// Carries out `actions` and collects the outcomes handed over, in order.
    func outcomes(of actions: [Action]) throws -> [ActionOutcome] {
        var rest = actions[...]
        var outcomes: [ActionOutcome] = []
        try run({ rest.popFirst() }, outcome: { outcomes.append($0) })
        return outcomes
    }
}

/// Executors of the extra connections, and a counter, shared with the scheduler's threads.
final class LockedExtras: @unchecked Sendable {
    private let lock = NSLock()
    private var extras: [RecordingExecutor] = []
    private var ticks = 0
    func add(_ extra: RecordingExecutor) { lock.withLock { extras.append(extra) } }
    var all: [RecordingExecutor] { lock.withLock { extras } }
    /// Counts one call; returns how many calls there were.
    func tick() -> Int {
        lock.withLock {
            ticks += 1
            return ticks
        }
    }
}
