// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// How many files of a walk's planned listing have each time (seconds), for `DefaultTimes`,
/// in bounded memory (issue 17): a tree of distinct times would otherwise keep one count per
/// file. When `limit` distinct times are kept, those seen once are dropped; should more than
/// half remain, times not seen yet are no longer counted. Either way a time may be counted
/// short, and `DefaultTimes` then sees fewer defaults: a move found by a time that is a default
/// after all is still checked through the move evidence (bytes compared) before it is planned.
struct TimeTally {
    /// The most distinct times kept: 100,000 (some 4 MB).
    static let defaultLimit = 100_000

    let limit: Int
    private(set) var counts: [Double: Int] = [:]
    /// True once times not seen yet are no longer counted.
    private(set) var isFull = false

    init(limit: Int = TimeTally.defaultLimit) {
        self.limit = max(2, limit)
    }

    /// Counts one file of time `seconds`.
    mutating func add(_ seconds: Double) {
        if let count = counts[seconds] {
            counts[seconds] = count + 1
            return
        }
        guard !isFull else { return }
        if counts.count >= limit {
            counts = counts.filter { $0.value > 1 }
            if counts.count > limit / 2 {
                isFull = true
                return
            }
        }
        counts[seconds] = 1
    }
}
