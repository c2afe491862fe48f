// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Synchronization
import Testing

@testable import FTPClient

/// The token bucket of `BandwidthLimit` (issue 19), on a given clock: no sleeping here.
struct BandwidthLimitTests {
    @Test func aFullBucketLetsOneStepThroughThenChargesTheRate() {
        let limit = BandwidthLimit(bytesPerSecond: 1 << 20)
        #expect(limit.stepBytes == (1 << 20) / 10)
        let now = SocketTransport.monotonicSeconds() + 1
        #expect(limit.charge(limit.stepBytes, now: now) == 0, "the bucket starts full")
        // A second step right away waits for its bytes at the rate: about 0.1 s.
        let step = Double(limit.stepBytes) / Double(1 << 20)
        #expect(abs(limit.charge(limit.stepBytes, now: now) - step) < 1e-9)
        // A third one, by another thread, waits behind it: the debt adds up.
        #expect(abs(limit.charge(limit.stepBytes, now: now) - 2 * step) < 1e-9)
        // After a long idle spell the bucket holds one step, not more.
        #expect(limit.charge(limit.stepBytes, now: now + 60) == 0)
        #expect(limit.charge(1, now: now + 60) > 0)
    }

    @Test func stepsAreBoundedAndLimitsCompose() {
        #expect(BandwidthLimit(bytesPerSecond: 1000).stepBytes == 4 * 1024)
        #expect(BandwidthLimit(bytesPerSecond: 1 << 40).stepBytes == 256 * 1024)
        #expect(BandwidthLimit(bytesPerSecond: 0).bytesPerSecond == 1)
        let limits = [BandwidthLimit(bytesPerSecond: 512 * 1024), BandwidthLimit(bytesPerSecond: 2 << 20)]
        #expect(limits.step(256 * 1024) == 512 * 1024 / 10)
        #expect([BandwidthLimit]().step(256 * 1024) == 256 * 1024)
        #expect(limits[0] == limits[0] && limits[0] != limits[1], "equal only to itself: one shared bucket")
    }
}

/// A limit that follows a schedule reads it again at most once a second, and `nil` lifts it.
@Test func aScheduledLimitFollowsItsSchedule() {
    let rate = Mutex<Int?>(1 << 20)
    let limit = BandwidthLimit { _ in rate.withLock { $0 } }
    #expect(limit.bytesPerSecond == 1 << 20)
    let now = SocketTransport.monotonicSeconds() + 2
    rate.withLock { $0 = nil }
    #expect(limit.charge(10 << 20, now: now) == 0, "off: no wait, however much moved")
    #expect(limit.stepBytes == .max)
    rate.withLock { $0 = 1 << 10 }
    #expect(limit.charge(4096, now: now + 0.5) == 0, "read at most once a second: still off")
    // 1 KiB/s again: the bucket holds one step (4 KiB) at most, 8 KiB waits 4 s or more.
    #expect(limit.charge(8192, now: now + 1.5) >= 4)
    #expect(limit.bytesPerSecond == 1 << 10)
}

/// Found by a breaker (issue 19): a transfer waiting off its debt slept the whole wait at the
/// old rate, so a schedule switching to `off` freed it up to a step's time later (30 s at a
/// slow rate). The wait is slept in slices and the schedule read between them. (A wait of 16 s
/// at the old rate; freed about a second after `off`: the bound is loose on purpose.)
@Test func aScheduleTurnedOffFreesAWaitingTransfer() {
    let rate = Mutex<Int?>(256)
    let limit = BandwidthLimit { _ in rate.withLock { $0 } }
    let start = SocketTransport.monotonicSeconds()
    let switcher = Thread {
        Thread.sleep(forTimeInterval: 0.3)
        rate.withLock { $0 = nil }
    }
    switcher.start()
    try? [limit].pace(8192)  // one step from the full bucket, 4 KiB of debt: 16 s at 256 B/s
    #expect(SocketTransport.monotonicSeconds() - start < 8)
}

/// Found by a breaker (issue 19): SIGTERM under a tiny `--bwlimit` took seconds to stop the
/// run, the transfer's thread sleeping off its bandwidth debt first. A stop request ends the
/// wait within a slice, with the stop's error; the debt stays.
@Test func aStopRequestEndsABandwidthWait() {
    let stopped = Atomic<Bool>(false)
    let limit = BandwidthLimit(bytesPerSecond: 256)
    let start = SocketTransport.monotonicSeconds()
    let stopper = Thread {
        Thread.sleep(forTimeInterval: 0.3)
        stopped.store(true, ordering: .releasing)
    }
    stopper.start()
    let stop = PacingStop { stopped.load(ordering: .acquiring) ? CancellationError() : nil }
    #expect(throws: CancellationError.self) { try [limit].pace(8192, stop: stop) }  // 16 s of debt
    #expect(SocketTransport.monotonicSeconds() - start < 8)
    #expect(limit.charge(0, now: SocketTransport.monotonicSeconds()) > 8, "the debt stays")
}

/// Found by a breaker: once stopped, every later wait returned at once, so what went on after a
/// run cap's cut or a signal (a listing) moved unpaced. A transfer that would wait after the
/// stop throws instead; one with no debt goes on, paced as before.
@Test func afterAStopNothingMovesUnpaced() {
    let limit = BandwidthLimit(bytesPerSecond: 1_024)
    let stop = PacingStop { CancellationError() }
    #expect(throws: Never.self) { try [limit].pace(1_024, stop: stop) }  // within the full bucket
    #expect(throws: CancellationError.self) { try [limit].pace(8_192, stop: stop) }
    #expect(throws: CancellationError.self) { try [limit].pace(1, stop: stop) }
}
