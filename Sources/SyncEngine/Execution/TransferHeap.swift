// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore

/// The transfers of a `TransferWindow` waiting for a connection, as a binary heap: the first
/// to start (the lowest plan position, or the first in a `TransferOrder`) comes out in
/// O(log n) steps. Not thread-safe: the window guards it.
struct TransferHeap {
    /// A transfer and its plan position.
    typealias Entry = (id: Int, action: Action)

    private var entries: [Entry] = []
    /// The order transfers come out in; nil: the plan's.
    private let order: TransferOrder?

    /// - Parameter order: the order transfers come out in; nil: the plan's (by position).
    init(order: TransferOrder?) {
        self.order = order
    }

    /// True when no transfer waits.
    var isEmpty: Bool { entries.isEmpty }

    /// How many transfers wait.
    var count: Int { entries.count }

    /// Adds the transfer at plan position `id`.
    mutating func insert(_ action: Action, id: Int) {
        entries.append((id, action))
        siftUp(entries.count - 1)
    }

    /// Takes out the first transfer to start; nil when none waits.
    mutating func popFirst() -> Entry? {
        remove(at: 0)
    }

    /// Takes out the transfer at plan position `id`; nil when it does not wait.
    mutating func remove(id: Int) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        return remove(at: index)
    }

    private mutating func remove(at index: Int) -> Entry? {
        guard index < entries.count else { return nil }
        entries.swapAt(index, entries.count - 1)
        let removed = entries.removeLast()
        if index < entries.count {
            siftDown(index)
            siftUp(index)
        }
        return removed
    }

    /// True when `lhs` starts before `rhs`.
    private func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        guard let order else { return lhs.id < rhs.id }
        return order.precedes(lhs.action, rhs.action)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(entries[child], entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var first = parent
            for child in [2 * parent + 1, 2 * parent + 2]
            where child < entries.count && precedes(entries[child], entries[first]) {
                first = child
            }
            guard first != parent else { return }
            entries.swapAt(parent, first)
            parent = first
        }
    }
}
