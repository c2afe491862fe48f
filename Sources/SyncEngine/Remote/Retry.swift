// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

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
