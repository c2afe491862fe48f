// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncEngine

/// The exit codes of CONTRACT.md ("Exit codes").
public enum ExitCode: Int32, Sendable {
    /// Everything planned was done (or, with `--dry-run`, planned).
    case success = 0
    /// Some actions or some devices failed, or some entries were skipped; the rest was done.
    case partialFailure = 1
    /// Usage or configuration error; nothing was done.
    case usage = 2
    /// Another run holds the lock on this local tree; nothing was done.
    case locked = 3
    /// Safety stop: a device's plan exceeded `--max-delete`, or failed its identity check.
    case safetyStop = 4
    /// Stopped early by `--max-transfer` or `--max-duration`; the next run continues.
    case stoppedByCap = 5
}

/// A usage error: a bad option, a missing argument, an unknown device. Exit 2.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The exit code a set of device reports calls for: a safety stop (4) over a failure (1) over
/// a run cap (5): a cap that also met a failure must not hide it from a script that treats 5 as
/// "continue next time".
func exitCode(for reports: [DeviceReport]) -> ExitCode {
    if reports.contains(where: { $0.status == .refused }) { return .safetyStop }
    if reports.contains(where: { $0.status != .ok && $0.status != .stopped }) { return .partialFailure }
    if reports.contains(where: { $0.status == .stopped }) { return .stoppedByCap }
    return .success
}
