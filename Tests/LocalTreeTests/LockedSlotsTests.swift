// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import Testing

@Suite struct LockedSlotsTests {
    /// (slots, threads): every index is handed out exactly once, whatever the threads, and each
    /// result lands in its own slot.
    @Test(arguments: [(0, 3), (1, 1), (7, 3), (1_000, 4)])
    func everyIndexIsTakenOnceAndItsResultKept(count: Int, threads: Int) {
        let slots = LockedSlots<Int>(count: count)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let index = slots.take() { slots.set(index, index * 2) }
        }
        #expect(slots.take() == nil)
        #expect(slots.values == (0..<count).map { Optional($0 * 2) })
    }

    @Test func slotsNeverSetStayEmpty() {
        let slots = LockedSlots<String>(count: 3)
        #expect(slots.take() == 0)
        slots.set(2, "c")
        #expect(slots.values == [nil, nil, "c"])
        #expect(slots.take() == 1)
    }
}
