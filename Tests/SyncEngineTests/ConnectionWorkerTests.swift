import Foundation
import SyncCore
import Testing

@testable import SyncEngine

/// An executor that carries out nothing but notes what it was given.
final class RecordingExecutor: ActionExecutor, @unchecked Sendable {
    let job: DeviceJob
    let events: SyncEventHandler?
    /// Paths whose actions throw.
    let failing: Set<String>
    private let lock = NSLock()
    private var carriedOut: [(path: String, id: Int)] = []
    private var flushCount = 0
    private var finishCount = 0

    init(events: SyncEventHandler? = nil, failing: Set<String> = []) {
        job = DeviceJob(
            name: "cam", remoteRoot: "/DCIM",
            paths: LocalPaths(treeRoot: "/nonexistent", deviceRoot: "/nonexistent/cam", device: "cam"),
            excludes: [], timeZone: TimeZone(identifier: "UTC")!, policy: SyncPolicy(direction: .pull), dryRun: false)
        self.events = events
        self.failing = failing
    }

    var carried: [(path: String, id: Int)] { lock.withLock { carriedOut } }
    var flushes: Int { lock.withLock { flushCount } }
    var finishes: Int { lock.withLock { finishCount } }

    func carryOut(_ action: Action, id: Int) throws -> UInt64 {
        lock.withLock { carriedOut.append((action.path.string, id)) }
        if failing.contains(action.path.string) { throw EngineError.incompleteAction("refused \(action.path)") }
        return action.bytes
    }

    func adopt(_ adoption: Adoption) {}
    func flush() { lock.withLock { flushCount += 1 } }
    func finish() { lock.withLock { finishCount += 1 } }
}

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
    private func worker(_ executor: RecordingExecutor, _ actions: [Action], usable: @escaping () -> Bool = { true })
        -> ConnectionWorker
    {
        ConnectionWorker(executor: executor, actions: actions, isUsable: usable, close: {})
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
        let outcome = worker(executor, [conflict]).perform(conflict)
        #expect(executor.carried.map(\.path) == (reaches ? ["a.jpg"] : []))
        #expect(outcome.report.status == status)
        #expect((outcome.report.error ?? "") == error)
    }

    @Test func actionsAreNumberedByTheirPlaceInThePlanAndTold() {
        let log = EventLog()
        let executor = RecordingExecutor(events: log.handler)
        let plan = [action(.mkdirLocal, "d"), action(.download, "d/a", bytes: 5), action(.download, "d/b", bytes: 7)]
        let worker = worker(executor, plan)
        let outcomes = [worker.perform(plan[2]), worker.perform(plan[0])]
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
        let worker = worker(executor, plan)
        let bad = worker.perform(plan[0])
        let good = worker.perform(plan[1])
        #expect(bad.report.status == .failed)
        #expect(bad.report.error == "internal: refused bad")
        #expect(bad.transferred == 0)
        #expect(good.report.status == .done)
        #expect(good.transferred == 4)
    }
}

@Suite struct TransferSchedulerTests {
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
