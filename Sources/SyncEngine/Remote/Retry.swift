import FTPClient
import Foundation

/// How often and how patiently a failed remote operation is tried again within one run.
///
/// Only transient failures are retried (`FTPError.isTransient`: 4xx replies such as 421, 425,
/// 426, 450, 451, a lost or timed-out connection, a data connection cut short); 5xx replies and
/// local errors fail at once. The wait before retry `n` (1-based) is
/// `min(maximumDelay, baseDelay × 2^(n−1))`, scaled by a random factor in 0.5...1.0 (jitter, so
/// that several devices behind one flaky router do not retry in lockstep).
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (the config's `retries`); 0 = try once.
    public var retries: Int
    /// Wait before the first retry, in seconds.
    public var baseDelay: Double
    /// Longest wait between two attempts, in seconds.
    public var maximumDelay: Double

    /// - Parameters:
    ///   - retries: retries after the first attempt (negative counts as 0).
    ///   - baseDelay: seconds before the first retry.
    ///   - maximumDelay: cap of any wait, in seconds.
    public init(retries: Int = 3, baseDelay: Double = 0.5, maximumDelay: Double = 30) {
        self.retries = max(0, retries)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(0, maximumDelay)
    }

    /// The wait in seconds before retry number `retry` (1-based), for a random `unit` in 0...1.
    public func delay(beforeRetry retry: Int, unit: Double) -> Double {
        let exponent = Double(min(max(retry - 1, 0), 30))
        let plain = min(maximumDelay, baseDelay * pow(2, exponent))
        return plain * (0.5 + 0.5 * min(max(unit, 0), 1))
    }

    /// True when `error` is worth another attempt.
    public static func isRetryable(_ error: Error) -> Bool {
        if let error = error as? FTPError { return error.isTransient }
        return false
    }
}

/// The run was asked to stop (SIGINT or SIGTERM): no new action starts, a transfer in progress
/// stops at its next chunk and keeps its bytes for the next run.
public struct RunInterrupted: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "interrupted; the next run resumes from here" }
}

/// A process-wide stop request, set from the signal handler thread and read by the engines
/// between actions and between the chunks of a transfer.
public enum RunCancellation {
    private static let state = CancellationState()

    /// Asks every engine to stop at the next safe point. Safe to call from any thread.
    public static func request() { state.set() }

    /// True once `request()` was called.
    public static var isRequested: Bool { state.get() }

    /// Throws `RunInterrupted` once a stop was requested.
    public static func check() throws {
        if isRequested { throw RunInterrupted() }
    }

    /// Sleeps `seconds`, waking early (within 0.1 s) when a stop is requested.
    /// - Throws: `RunInterrupted` when a stop was requested before or during the wait.
    public static func sleep(_ seconds: Double) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            try check()
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return }
            Thread.sleep(forTimeInterval: min(left, 0.1))
        }
    }
}

/// A flag shared by threads.
private final class CancellationState: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    func get() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
