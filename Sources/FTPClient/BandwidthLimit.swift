import Foundation
import Synchronization

/// A cap on the bytes per second of the transfers that share it: a token bucket, thread-safe.
///
/// Give one to several sessions (`FTPSessionConfiguration.bandwidthLimits`) and their
/// downloads and uploads together move at most `bytesPerSecond` on average: each data
/// connection moves at most `stepBytes` at a time, then is charged for what it moved and its
/// thread sleeps until the bucket is out of debt. The bucket holds at most `stepBytes`
/// (about 100 ms of the rate), so a burst after an idle spell is bounded too. Sessions block
/// their threads; never use a limited session from inside an async task.
public final class BandwidthLimit: Sendable, Equatable {
    /// Bytes per second; at least 1.
    public let bytesPerSecond: Int
    /// The most bytes one read or write of a data connection moves under this limit, and the
    /// bucket's depth: a tenth of a second of the rate, within 4 KiB...256 KiB.
    public let stepBytes: Int

    private struct Bucket {
        /// Bytes that may move now; negative: a debt the next charges sleep off.
        var tokens: Double
        /// When `tokens` was last brought up to date (monotonic seconds).
        var updated: Double
    }

    private let bucket: Mutex<Bucket>

    /// A limit of `bytesPerSecond` (values below 1 are taken as 1), its bucket full.
    public init(bytesPerSecond: Int) {
        let rate = max(bytesPerSecond, 1)
        self.bytesPerSecond = rate
        self.stepBytes = min(max(rate / 10, 4 * 1024), 256 * 1024)
        self.bucket = Mutex(Bucket(tokens: Double(stepBytes), updated: SocketTransport.monotonicSeconds()))
    }

    /// Takes `count` bytes out of the bucket at monotonic time `now` (seconds).
    /// - Returns: the seconds the caller must wait before moving more (0 when not in debt).
    public func charge(_ count: Int, now: Double) -> Double {
        let rate = Double(bytesPerSecond)
        return bucket.withLock { bucket in
            let elapsed = max(now - bucket.updated, 0)
            bucket.tokens = min(bucket.tokens + elapsed * rate, Double(stepBytes))
            bucket.updated = max(now, bucket.updated)
            bucket.tokens -= Double(max(count, 0))
            return bucket.tokens < 0 ? -bucket.tokens / rate : 0
        }
    }

    /// Identity: two limits are equal when they are the same bucket.
    public static func == (left: BandwidthLimit, right: BandwidthLimit) -> Bool { left === right }
}

extension [BandwidthLimit] {
    /// The most bytes one step may move under all these limits, at most `wanted`.
    func step(_ wanted: Int) -> Int { reduce(wanted) { Swift.min($0, $1.stepBytes) } }

    /// Charges `count` moved bytes to every limit and sleeps the calling thread until the
    /// slowest of them is out of debt.
    func pace(_ count: Int) {
        guard !isEmpty, count > 0 else { return }
        let now = SocketTransport.monotonicSeconds()
        let wait = reduce(0.0) { Swift.max($0, $1.charge(count, now: now)) }
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }
}
