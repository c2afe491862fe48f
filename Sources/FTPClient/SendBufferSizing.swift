// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Sizes an upload's send buffer to the rate the device takes bytes (issue 13 item 7).
///
/// A buffer far larger than a second's worth at the device's rate holds bytes that need many
/// seconds to drain after the last write, while the final reply waits behind them, and that
/// an abandoned upload keeps delivering to the server behind a retry. The buffer starts small
/// and grows (in powers of two) to about one second of the measured delivery rate: bytes the
/// peer acknowledged, not bytes handed to the kernel. A window ends after `window` seconds, or
/// as soon as `windowBytes` were delivered in it: a fast path (loopback, a LAN) has its buffer
/// grown within milliseconds, not after a second it may not even last. The first window is not
/// measured: it holds the burst that fills the peer's empty receive buffer (Linux gives a
/// socket at most 6 MiB), not the device's rate.
struct SendBufferSizing {
    /// Bytes asked for at the start (the kernel doubles it).
    static let initial = 256 * 1024
    /// The largest buffer asked for.
    static let maximum = 4 * 1024 * 1024
    /// Seconds of delivery the buffer holds at the measured rate.
    static let seconds = 1.0
    /// Seconds over which each rate is measured, at most.
    static let window = 0.5
    /// Delivered bytes that end a window early (more than a peer's receive buffer holds).
    static let windowBytes: UInt64 = 8 * 1024 * 1024

    /// The buffer size asked for now, in bytes.
    private(set) var size = initial
    private var windowStart: Double
    private var windowDelivered: UInt64 = 0
    private var warmedUp = false

    /// - Parameter now: the monotonic clock, in seconds, when sending starts.
    init(now: Double) {
        windowStart = now
    }

    /// Takes the bytes delivered so far (acknowledged by the peer) at `now` (monotonic seconds).
    /// - Returns: the new size when the buffer should grow, else nil.
    mutating func observe(delivered: UInt64, at now: Double) -> Int? {
        let elapsed = now - windowStart
        let moved = delivered >= windowDelivered ? delivered - windowDelivered : 0
        guard elapsed >= Self.window || (moved >= Self.windowBytes && elapsed > 0) else { return nil }
        windowStart = now
        windowDelivered = delivered
        guard warmedUp else {
            warmedUp = true
            return nil
        }
        let wanted = Double(moved) / elapsed * Self.seconds
        guard wanted > Double(size), size < Self.maximum else { return nil }
        var next = size
        while Double(next) < wanted && next < Self.maximum { next *= 2 }
        size = min(next, Self.maximum)
        return size
    }
}
