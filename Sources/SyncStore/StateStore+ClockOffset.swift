import Foundation

extension StateStore {
    /// Stores the offset of `device`'s clock from ours, in seconds (positive: the device runs
    /// ahead), as a run measured it; a value that is not finite is stored as unknown.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setClockOffset(_ seconds: Double, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT INTO devices (name, clock_offset) VALUES (?1, ?2)
                ON CONFLICT (name) DO UPDATE SET clock_offset = excluded.clock_offset
                """, [.text(device), seconds.isFinite ? .real(seconds) : .null])
        }
    }

    /// The offset of `device`'s clock from ours (seconds) the last run that measured it found;
    /// nil when none did.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func clockOffset(device: String) throws(StoreError) -> Double? {
        try locked { () throws(StoreError) -> Double? in
            var found: Double?
            try connection.query("SELECT clock_offset FROM devices WHERE name = ?1", [.text(device)]) { row in
                if !row.isNull(0) { found = row.real(0) }
            }
            return found
        }
    }
}
