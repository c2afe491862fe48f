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
        #expect(sizing.observe(delivered: 10_000_000, at: 0.1) == nil)  // too soon to say
        #expect(sizing.observe(delivered: 10_000_000, at: 0.5) == nil)  // the first burst: not the rate
        #expect(sizing.observe(delivered: 20_000_000, at: 1.0) == SendBufferSizing.maximum)
        #expect(sizing.observe(delivered: 20_000_001, at: 1.5) == nil)  // slower now: kept
        #expect(sizing.observe(delivered: 5, at: 2.0) == nil)  // a counter that went back: no trap
        #expect(sizing.size == SendBufferSizing.maximum)
    }
}
