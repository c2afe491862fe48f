// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import FTPClient

@Suite struct SendBufferSizingTests {
    /// (bytes delivered per half second, the size the buffer ends at after four windows, the
    /// first of which is not measured)
    static let rates: [(UInt64, Int)] = [
        (75_000, SendBufferSizing.initial),  // 150 KB/s: a second's worth fits the start
        (300_000, 1024 * 1024),  // 600 KB/s
        (50_000_000, SendBufferSizing.maximum),  // 100 MB/s: capped
    ]

    @Test(arguments: rates)
    func theBufferFollowsTheDeliveryRate(perWindow: UInt64, expected: Int) {
        var sizing = SendBufferSizing(now: 100)
        var delivered: UInt64 = 0
        for step in 1...4 {
            delivered += perWindow
            _ = sizing.observe(delivered: delivered, at: 100 + Double(step) * SendBufferSizing.window)
        }
        #expect(sizing.size == expected)
    }

    @Test func measuresOnlyWholeWindowsAndNeverShrinks() {
        var sizing = SendBufferSizing(now: 0)
        #expect(sizing.observe(delivered: 1_000_000, at: 0.1) == nil)  // too soon to say
        #expect(sizing.observe(delivered: 10_000_000, at: 0.5) == nil)  // the first burst: not the rate
        #expect(sizing.observe(delivered: 20_000_000, at: 1.0) == SendBufferSizing.maximum)
        #expect(sizing.observe(delivered: 20_000_001, at: 1.5) == nil)  // slower now: kept
        #expect(sizing.observe(delivered: 5, at: 2.0) == nil)  // a counter that went back: no trap
        #expect(sizing.size == SendBufferSizing.maximum)
    }

    /// A loopback or LAN path (here 1 GB/s) gets the largest buffer within milliseconds: a
    /// window ends once 8 MiB were delivered in it. (Before, the first measured window ended a
    /// second in: a 256 MiB upload on loopback was over by then, at the starting size.)
    @Test func aFastPathGrowsWithinMilliseconds() {
        var sizing = SendBufferSizing(now: 0)
        var grown: Int?
        var delivered: UInt64 = 0
        var now = 0.0
        while grown == nil, now < 0.1 {
            delivered += 262_144
            now += 0.000_25
            grown = sizing.observe(delivered: delivered, at: now)
        }
        #expect(grown == SendBufferSizing.maximum)
        #expect(now < 0.02, "grown after \(now) s")
    }

    /// A slow device (1 MB/s) whose receive buffer took a 6 MiB burst at once is measured at its
    /// rate, not the burst's: the burst falls within the first, unmeasured window.
    @Test func aBurstIntoTheReceiveBufferIsNotTheRate() {
        var sizing = SendBufferSizing(now: 0)
        #expect(sizing.observe(delivered: 6 << 20, at: 0.01) == nil)
        var delivered: UInt64 = 6 << 20
        for step in 1...20 {
            delivered += 100_000
            _ = sizing.observe(delivered: delivered, at: 0.01 + Double(step) * 0.1)
        }
        #expect(sizing.size == 1024 * 1024, "a second at 1 MB/s: \(sizing.size)")
    }
}
