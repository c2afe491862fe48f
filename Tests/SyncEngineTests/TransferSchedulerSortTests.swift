// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncEngine

/// The transfer scheduler with an `order`: transfers start in it, every other action keeps its
/// place, the outcomes still come in the plan's order, and a run longer than the look-ahead is
/// ordered within what the scheduler holds.
@Suite struct TransferSchedulerSortTests {
    /// A download of `path` whose source file has `size` bytes.
    private static func download(_ path: String, size: UInt64) -> Action {
        var transfer = action(.download, path, bytes: size)
        transfer.source = SnapshotEntry(path: transfer.path, kind: .file, size: size)
        return transfer
    }

    private static let plan = [
        action(.mkdirLocal, "d"), download("d/1", size: 3), download("d/2", size: 1), download("d/3", size: 5),
        download("d/4", size: 2), download("d/5", size: 4), action(.deleteLocal, "old"), download("e/1", size: 9),
        download("e/2", size: 1),
    ]

    private static func scheduler(
        _ first: RecordingExecutor, connections: Int = 1, lookAhead: Int = 256, order: TransferOrder?
    ) -> TransferScheduler {
        TransferScheduler(
            connections: connections, first: ConnectionWorker(executor: first, isUsable: { true }, close: {}),
            lookAhead: lookAhead, order: order
        ) { ConnectionWorker(executor: RecordingExecutor(), isUsable: { true }, close: {}) }
    }

    /// Over one connection the start order is the carried order: transfers sorted within each run
    /// of consecutive transfers, the folder and the delete where the plan put them.
    @Test(arguments: [
        (TransferOrder?.none, ["d", "d/1", "d/2", "d/3", "d/4", "d/5", "old", "e/1", "e/2"]),
        (.some(.smallestFirst), ["d", "d/2", "d/4", "d/1", "d/5", "d/3", "old", "e/2", "e/1"]),
        (.some(.largestFirst), ["d", "d/3", "d/5", "d/1", "d/4", "d/2", "old", "e/1", "e/2"]),
        (.some(.name), ["d", "d/1", "d/2", "d/3", "d/4", "d/5", "old", "e/1", "e/2"]),
    ])
    func transfersStartInTheOrderOtherActionsKeepTheirPlace(order: TransferOrder?, started: [String]) throws {
        let first = RecordingExecutor()
        let scheduler = Self.scheduler(first, order: order)
        let outcomes = try scheduler.outcomes(of: Self.plan)
        scheduler.finish()
        #expect(first.carried.map(\.path) == started)
        #expect(outcomes.map(\.report.path) == Self.plan.map(\.path.string))
        #expect(outcomes.allSatisfy { $0.report.status == .done })
    }

    /// With several connections every action is carried out once, the outcomes in the plan's order.
    @Test func severalConnectionsCarryOutTheOrderedPlanOnce() throws {
        let first = RecordingExecutor()
        let scheduler = Self.scheduler(first, connections: 3, order: .newestFirst)
        let outcomes = try scheduler.outcomes(of: Self.plan)
        scheduler.finish()
        #expect(outcomes.map(\.report.path) == Self.plan.map(\.path.string))
        #expect(outcomes.allSatisfy { $0.report.status == .done })
        #expect(first.carried.filter { $0.path == "d" || $0.path == "old" }.map(\.id) == [0, 6])
    }

    /// A run longer than the look-ahead: the first window starts in order, and no transfer starts
    /// after one `lookAhead` or more places later in the plan.
    @Test func aLongRunIsOrderedWithinTheLookAhead() throws {
        let run = (0..<40).map { Self.download("f/\($0)", size: UInt64($0)) }
        let first = RecordingExecutor()
        let scheduler = Self.scheduler(first, lookAhead: 4, order: .largestFirst)
        let outcomes = try scheduler.outcomes(of: run)
        let ids = first.carried.map(\.id)
        #expect(ids.prefix(4) == [3, 2, 1, 0])
        #expect(Set(ids) == Set(0..<40) && ids.count == 40)
        for (index, id) in ids.enumerated() {
            #expect(ids[(index + 1)...].allSatisfy { $0 > id - 4 })
        }
        #expect(outcomes.map(\.report.path) == run.map(\.path.string))
    }

    /// The heap gives its transfers back sorted, whatever order they came in, and gives up one
    /// taken out by position.
    @Test(arguments: [TransferOrder?.none, .smallestFirst, .newestFirst])
    func theHeapGivesTransfersBackInOrder(order: TransferOrder?) {
        let sizes: [UInt64] = [7, 3, 9, 3, 0, 12, 5, 8, 1, 1, 6, 2, 11, 4, 10]
        let run = sizes.enumerated().map { Self.download("g/\($0.offset)", size: $0.element) }
        var heap = TransferHeap(order: order)
        for (id, transfer) in run.enumerated() { heap.insert(transfer, id: id) }
        #expect(heap.remove(id: 4)?.action.path.string == "g/4")
        #expect(heap.remove(id: 4) == nil)
        var out: [Int] = []
        while let entry = heap.popFirst() { out.append(entry.id) }
        let kept = run.enumerated().filter { $0.offset != 4 }
        let expected =
            if let order { kept.sorted { order.precedes($0.element, $1.element) }.map(\.offset) } else {
                kept.map(\.offset)
            }
        #expect(out == expected)
        #expect(heap.isEmpty)
    }
}
