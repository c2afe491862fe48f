// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Work shared by several threads: indexes `0..<count` handed out one at a time, and one
/// result slot per index filled in by whichever thread took it. Every member is safe to call
/// from any thread.
public final class LockedSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var slots: [Value?]

    /// Slots for `count` results, none handed out or filled yet.
    public init(count: Int) {
        slots = Array(repeating: nil, count: max(0, count))
    }

    /// The next index not handed out yet (0, 1, …); nil once all were.
    public func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
    }

    /// Fills slot `index` (in `0..<count`) with `value`.
    public func set(_ index: Int, _ value: Value) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    /// The results so far, by index (nil where none was set).
    public var values: [Value?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
