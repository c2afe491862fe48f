// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The end of a device's last run, whatever its outcome (`ftpsync status`: `last_attempt`,
/// `last_error`; the metrics file's gauges of devices not in a run).
public struct DeviceAttempt: Sendable, Hashable {
    /// When the run of the device ended (UTC).
    public var at: Date
    /// The device's status in that run: `ok`, `partial`, `failed`, `refused`, `stopped`.
    public var status: String
    /// Why it was not `ok`, one line; nil when it was.
    public var error: String?
    /// Files transferred in that run (what an interrupted run did get).
    public var filesTransferred: Int
    /// Bytes transferred in that run; 0 when recorded by a version before schema 9.
    public var bytesTransferred: UInt64
    /// Actions that failed in that run; 0 when recorded by a version before schema 9.
    public var failures: Int
    /// The device's wall time in that run, in seconds; 0 when recorded by a version before schema 9.
    public var seconds: Double

    /// Makes an attempt from its parts.
    public init(
        at: Date, status: String, error: String?, filesTransferred: Int, bytesTransferred: UInt64 = 0,
        failures: Int = 0, seconds: Double = 0
    ) {
        self.at = at
        self.status = status
        self.error = error
        self.filesTransferred = filesTransferred
        self.bytesTransferred = bytesTransferred
        self.failures = failures
        self.seconds = seconds
    }

    /// True when the run completed the device (`ok`): the end of a run of failures.
    public var succeeded: Bool { status == "ok" }

    /// True when a run cap (`--max-transfer`, `--max-duration`) stopped the run of the device
    /// (`stopped`): nothing failed, and nothing was completed.
    public var stoppedByCap: Bool { status == "stopped" }

    /// True when the run counts as a failure of the device: neither `ok` nor `stopped`.
    public var failed: Bool { !succeeded && !stoppedByCap }
}

/// What the state knows of a device's health: its last attempt and the runs that have not
/// been `ok` since the last one that was.
public struct DeviceHealth: Sendable, Hashable {
    /// The last recorded run; nil when none was recorded.
    public var lastAttempt: DeviceAttempt?
    /// Runs in a row, up to the last one, whose status was not `ok`; 0 when the last was `ok`.
    public var consecutiveFailures: Int
    /// The end of the first of those runs (UTC); nil when `consecutiveFailures` is 0.
    public var failingSince: Date?

    /// Health from its parts.
    public init(lastAttempt: DeviceAttempt?, consecutiveFailures: Int, failingSince: Date?) {
        self.lastAttempt = lastAttempt
        self.consecutiveFailures = consecutiveFailures
        self.failingSince = failingSince
    }
}

extension StateStore {
    /// Records the end of a run of `device`: its time, status, error (nil when fine), what it
    /// transferred and how long it took; a run that failed (`DeviceAttempt.failed`) adds one to
    /// the device's consecutive failures (the first sets `failingSince`), an `ok` one clears
    /// them, one a run cap stopped leaves them as they were.
    /// `markSynced` stays the record of the last successful run.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func markAttempt(device: String, _ attempt: DeviceAttempt) throws(StoreError) {
        let bytes = Int64(clamping: attempt.bytesTransferred)
        let seconds = attempt.seconds.isFinite ? max(0, attempt.seconds) : 0
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT INTO devices (name, last_attempt, last_status, last_error, last_transferred, last_bytes,
                    last_failures, last_seconds, failing_streak, failing_since)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, CASE WHEN ?10 THEN 1 ELSE 0 END, CASE WHEN ?10 THEN ?2 END)
                ON CONFLICT (name) DO UPDATE SET last_attempt = excluded.last_attempt,
                    last_status = excluded.last_status, last_error = excluded.last_error,
                    last_transferred = excluded.last_transferred, last_bytes = excluded.last_bytes,
                    last_failures = excluded.last_failures, last_seconds = excluded.last_seconds,
                    failing_streak = CASE WHEN ?9 THEN 0 WHEN ?10 THEN min(failing_streak, 1000000000) + 1
                        ELSE failing_streak END,
                    failing_since = CASE WHEN ?9 THEN NULL WHEN ?10 THEN coalesce(failing_since, excluded.last_attempt)
                        ELSE failing_since END
                """,
                [
                    .text(device), .real(attempt.at.timeIntervalSince1970), .text(attempt.status),
                    attempt.error.map { .text($0) } ?? .null, .integer(Int64(attempt.filesTransferred)),
                    .integer(bytes), .integer(Int64(attempt.failures)), .real(seconds),
                    .integer(attempt.succeeded ? 1 : 0), .integer(attempt.failed ? 1 : 0),
                ])
        }
    }

    /// The last recorded run of `device`, nil when none was recorded (never run, or run only
    /// by a version before the last-attempt migration).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func lastAttempt(device: String) throws(StoreError) -> DeviceAttempt? {
        try health(device: device).lastAttempt
    }

    /// The last recorded run of `device` and its failures since the last `ok` run; no attempt
    /// and no failures when none was recorded.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func health(device: String) throws(StoreError) -> DeviceHealth {
        try locked { () throws(StoreError) -> DeviceHealth in
            var found = DeviceHealth(lastAttempt: nil, consecutiveFailures: 0, failingSince: nil)
            try connection.query(
                """
                SELECT last_attempt, last_status, last_error, last_transferred, last_bytes, last_failures,
                    last_seconds, failing_streak, failing_since
                FROM devices WHERE name = ?1
                """,
                [.text(device)]
            ) { row in
                guard !row.isNull(0) else { return }
                found.lastAttempt = DeviceAttempt(
                    at: Date(timeIntervalSince1970: row.real(0)), status: row.optionalText(1) ?? "unknown",
                    error: row.optionalText(2), filesTransferred: Int(clamping: row.integer(3)),
                    bytesTransferred: UInt64(clamping: max(0, row.integer(4))),
                    failures: Int(clamping: max(0, row.integer(5))), seconds: max(0, row.real(6)))
                found.consecutiveFailures = Int(clamping: max(0, row.integer(7)))
                if !row.isNull(8) { found.failingSince = Date(timeIntervalSince1970: row.real(8)) }
            }
            return found
        }
    }
}
