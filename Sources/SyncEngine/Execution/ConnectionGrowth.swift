// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// When a run of transfers gets one more connection (issue 20): a device starts with its
/// `connections` and opens more, half as many again at a time up to `ceiling`, while each step
/// made the run faster. On a link where every transfer waits for round trips, more connections move more
/// files per second, until the link or the device is the limit; on loopback or a saturated link
/// the first one that adds little ends the growth. Pure: the caller gives the clock and the counts.
struct ConnectionGrowth {
    /// The most connections the run may have (`max_connections`, a learned limit, 16).
    let ceiling: Int
    /// Seconds one measurement lasts at least.
    static let window = 0.5
    /// How much faster (1.15: 15 %) the run must get with the connections added to try more.
    static let gain = 1.15
    /// Bytes a transfer counts for beside its own: a small file costs its round trips, not its bytes.
    static let perTransfer: UInt64 = 16 * 1024

    private var start: (time: Double, bytes: UInt64, transfers: Int)?
    private var last: (rate: Double, workers: Int)?
    /// True once a connection added did not make the run faster enough: no more are opened.
    private(set) var stopped = false

    init(ceiling: Int) { self.ceiling = ceiling }

    /// How many connections to open now: 0, or half as many as work (at least one) within
    /// `ceiling`.
    /// - Parameters:
    ///   - now: a monotonic clock, seconds.
    ///   - bytes: bytes of the transfers finished so far; `transfers`: how many finished.
    ///   - workers: connections working on the run now; `waiting`: transfers no connection took yet.
    mutating func widens(now: Double, bytes: UInt64, transfers: Int, workers: Int, waiting: Int) -> Int {
        guard !stopped, workers < ceiling else { return 0 }
        guard let start else {
            self.start = (now, bytes, transfers)
            return 0
        }
        let elapsed = now - start.time
        guard elapsed >= Self.window, transfers - start.transfers >= 2 * workers else { return 0 }
        let moved = Saturating.add(
            bytes >= start.bytes ? bytes - start.bytes : 0,
            UInt64(max(0, transfers - start.transfers)) * Self.perTransfer)
        let rate = Double(moved) / elapsed
        self.start = (now, bytes, transfers)
        if let last, workers > last.workers, rate < last.rate * Self.gain {
            stopped = true
            return 0
        }
        last = (rate, workers)
        guard waiting > workers else { return 0 }
        return min(max(1, workers / 2), ceiling - workers)
    }
}
