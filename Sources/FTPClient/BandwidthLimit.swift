// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Synchronization

/// A cap on the bytes per second of the transfers that share it: a token bucket, thread-safe.
///
/// Give one to several sessions (`FTPSessionConfiguration.bandwidthLimits`) and their
/// downloads and uploads together move at most `bytesPerSecond` on average: each data
/// connection moves at most `stepBytes` at a time, then is charged for what it moved and its
/// thread sleeps until the bucket is out of debt. The bucket holds at most `stepBytes`
/// (about 100 ms of the rate), so a burst after an idle spell is bounded too. The rate may
/// follow a schedule (`init(schedule:)`). Sessions block
/// their threads; never use a limited session from inside an async task.
public final class BandwidthLimit: Sendable, Equatable {
    private struct Bucket {
        /// Bytes per second now; nil: no limit now (a schedule's `off`).
        var rate: Int?
        /// Bytes that may move now; negative: a debt the next charges sleep off.
        var tokens: Double
        /// When `tokens` was last brought up to date (monotonic seconds).
        var updated: Double
        /// When the schedule was last read (monotonic seconds).
        var scheduleRead: Double
    }

    private let bucket: Mutex<Bucket>
    /// The rate at a wall-clock time (nil: none then), read at most once a second; nil: fixed.
    private let schedule: (@Sendable (Date) -> Int?)?

    /// A limit of `bytesPerSecond` (values below 1 are taken as 1), its bucket full.
    public convenience init(bytesPerSecond: Int) {
        self.init(rate: bytesPerSecond, schedule: nil)
    }

    /// A limit whose rate follows `schedule`: the bytes per second it gives for the current
    /// time (nil: no limit then; values below 1 are taken as 1), asked again at most once a
    /// second, so a daily schedule (`08:00,512k 18:00,off`) changes the rate of transfers
    /// under way.
    public convenience init(schedule: @escaping @Sendable (Date) -> Int?) {
        self.init(rate: schedule(Date()), schedule: schedule)
    }

    private init(rate: Int?, schedule: (@Sendable (Date) -> Int?)?) {
        let now = SocketTransport.monotonicSeconds()
        let rate = rate.map { max($0, 1) }
        self.schedule = schedule
        self.bucket = Mutex(
            Bucket(rate: rate, tokens: Double(rate.map(Self.step) ?? 0), updated: now, scheduleRead: now))
    }

    /// Bytes per second now; nil when the schedule says no limit now.
    public var bytesPerSecond: Int? { bucket.withLock { $0.rate } }

    /// The most bytes one read or write of a data connection moves under this limit now, and
    /// the bucket's depth: a tenth of a second of the rate, within 4 KiB...256 KiB (`Int.max`
    /// without a limit now).
    public var stepBytes: Int { bucket.withLock { $0.rate.map(Self.step) ?? .max } }

    private static func step(_ rate: Int) -> Int { min(max(rate / 10, 4 * 1024), 256 * 1024) }

    /// Takes `count` bytes out of the bucket at monotonic time `now` (seconds).
    /// - Returns: the seconds the caller must wait before moving more (0 when not in debt).
    public func charge(_ count: Int, now: Double) -> Double {
        let scheduled = bucket.withLock { bucket in
            guard schedule != nil, now - bucket.scheduleRead >= 1 else { return false }
            bucket.scheduleRead = now
            return true
        }
        let fresh = scheduled ? schedule.map { $0(Date()).map { max($0, 1) } } : nil
        return bucket.withLock { bucket in
            if let fresh, fresh != bucket.rate {
                bucket.rate = fresh
                bucket.tokens = min(bucket.tokens, Double(fresh.map(Self.step) ?? 0))
            }
            guard let rate = bucket.rate.map(Double.init) else {
                bucket.updated = now
                return 0
            }
            let depth = Double(Self.step(Int(rate)))
            let elapsed = max(now - bucket.updated, 0)
            bucket.tokens = min(bucket.tokens + elapsed * rate, depth)
            bucket.updated = max(now, bucket.updated)
            bucket.tokens -= Double(max(count, 0))
            return bucket.tokens < 0 ? -bucket.tokens / rate : 0
        }
    }

    /// Identity: two limits are equal when they are the same bucket.
    public static func == (left: BandwidthLimit, right: BandwidthLimit) -> Bool { left === right }
}

/// A stop request a transfer's bandwidth wait, and a session's waits while it logs in, listen
/// to (`FTPSessionConfiguration.pacingStop`). Equal only to itself.
public final class PacingStop: Sendable, Equatable {
    private let reason: @Sendable () -> (any Error)?

    /// A stop request that holds once `reason` returns an error (asked from the transfer's
    /// thread): a transfer that would wait for bandwidth then throws it instead.
    public init(_ reason: @escaping @Sendable () -> (any Error)?) { self.reason = reason }

    /// Why the transfer stops; nil while it goes on.
    var error: (any Error)? { reason() }

    public static func == (left: PacingStop, right: PacingStop) -> Bool { left === right }
}

extension [BandwidthLimit] {
    /// The most bytes one step may move under all these limits, at most `wanted`.
    func step(_ wanted: Int) -> Int { reduce(wanted) { Swift.min($0, $1.stepBytes) } }

    /// The longest one sleep of `pace`, in seconds: between sleeps the limits are read again,
    /// so a schedule that turns the limit off or up frees a waiting transfer within it.
    static var paceSlice: Double { 0.25 }

    /// Charges `count` moved bytes to every limit and sleeps the calling thread until the
    /// slowest of them is out of debt, at the rates of the moment (`paceSlice`).
    /// - Throws: `stop`'s error once it gives one while the debt is not paid off (checked
    ///   between slices): a stopped run's transfers end instead of moving on unpaced.
    func pace(_ count: Int, stop: PacingStop? = nil) throws {
        guard !isEmpty, count > 0 else { return }
        var now = SocketTransport.monotonicSeconds()
        var wait = reduce(0.0) { Swift.max($0, $1.charge(count, now: now)) }
        while wait > 0 {
            if let error = stop?.error { throw error }
            Thread.sleep(forTimeInterval: Swift.min(wait, Self.paceSlice))
            now = SocketTransport.monotonicSeconds()
            wait = reduce(0.0) { Swift.max($0, $1.charge(0, now: now)) }
        }
    }
}
