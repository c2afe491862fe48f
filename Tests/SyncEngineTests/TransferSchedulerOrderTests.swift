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
    func outcomesComeInPlanOrderAndOnlyTransfersSpread(connections: Int) {
        let first = RecordingExecutor()
        let extras = LockedExtras()
        let scheduler = TransferScheduler(
            connections: connections,
            first: ConnectionWorker(executor: first, actions: Self.plan, isUsable: { true }, close: {})
        ) {
            let extra = RecordingExecutor()
            extras.add(extra)
            return ConnectionWorker(executor: extra, actions: Self.plan, isUsable: { true }, close: {})
        }
        let outcomes = scheduler.run(Self.plan)
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

    @Test func aRefusedExtraConnectionLeavesTheFirstToDoItAll() {
        let first = RecordingExecutor()
        let scheduler = TransferScheduler(
            connections: 3, first: ConnectionWorker(executor: first, actions: Self.plan, isUsable: { true }, close: {})
        ) { throw EngineError.incompleteAction("421 too many") }
        let outcomes = scheduler.run(Self.plan)
        #expect(outcomes.allSatisfy { $0.report.status == .done })
        #expect(first.carried.count == Self.plan.count)
        #expect(scheduler.notes.count == 1)
        #expect(scheduler.notes.first?.hasPrefix("the server refused an extra connection") == true)
    }

    /// A connection that is gone takes no more transfers; those no connection took fail.
    @Test(arguments: [0, 1, 4])
    func aConnectionThatIsGoneTakesNoMoreTransfers(usableFor: Int) {
        let first = RecordingExecutor()
        let transfers = Array(Self.plan[1...4])
        let taken = LockedExtras()
        let worker = ConnectionWorker(
            executor: first, actions: transfers, isUsable: { taken.tick() <= usableFor }, close: {})
        let outcomes = TransferScheduler(connections: 1, first: worker) { throw EngineError.incompleteAction("no") }
            .run(transfers)
        #expect(outcomes.filter { $0.report.status == .done }.count == usableFor)
        let left = outcomes.dropFirst(usableFor)
        #expect(left.allSatisfy { $0.report.error == "no connection was left to carry it out" })
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
