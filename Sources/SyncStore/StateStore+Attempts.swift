import Foundation

/// The end of a device's last run, whatever its outcome (`ftpsync status`: `last_attempt`,
/// `last_error`).
public struct DeviceAttempt: Sendable, Hashable {
    /// When the run of the device ended (UTC).
    public var at: Date
    /// The device's status in that run: `ok`, `partial`, `failed`, `refused`.
    public var status: String
    /// Why it was not `ok`, one line; nil when it was.
    public var error: String?
    /// Files transferred in that run (what an interrupted run did get).
    public var filesTransferred: Int

    /// Makes an attempt from its parts.
    public init(at: Date, status: String, error: String?, filesTransferred: Int) {
        self.at = at
        self.status = status
        self.error = error
        self.filesTransferred = filesTransferred
    }
}

extension StateStore {
    /// Records the end of a run of `device`: its time, status, error (nil when fine) and the
    /// files it transferred. `markSynced` stays the record of the last successful run.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func markAttempt(device: String, _ attempt: DeviceAttempt) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT INTO devices (name, last_attempt, last_status, last_error, last_transferred)
                VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (name) DO UPDATE SET last_attempt = excluded.last_attempt,
                    last_status = excluded.last_status, last_error = excluded.last_error,
                    last_transferred = excluded.last_transferred
                """,
                [
                    .text(device), .real(attempt.at.timeIntervalSince1970), .text(attempt.status),
                    attempt.error.map { .text($0) } ?? .null, .integer(Int64(attempt.filesTransferred)),
                ])
        }
    }

    /// The last recorded run of `device`, nil when none was recorded (never run, or run only
    /// by a version before the last-attempt migration).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func lastAttempt(device: String) throws(StoreError) -> DeviceAttempt? {
        try locked { () throws(StoreError) -> DeviceAttempt? in
            var found: DeviceAttempt?
            try connection.query(
                "SELECT last_attempt, last_status, last_error, last_transferred FROM devices WHERE name = ?1",
                [.text(device)]
            ) { row in
                guard !row.isNull(0) else { return }
                found = DeviceAttempt(
                    at: Date(timeIntervalSince1970: row.real(0)), status: row.optionalText(1) ?? "unknown",
                    error: row.optionalText(2), filesTransferred: Int(clamping: row.integer(3)))
            }
            return found
        }
    }
}
