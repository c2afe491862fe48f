import Foundation

extension StateStore {
    /// Stores why resumed uploads (APPE, REST + STOR) are not trusted on `device` (e.g.
    /// `REST + STOR kept only the tail`); nil trusts them again. Kept until cleared: later
    /// pushes to the device send whole files (issue 14 item 9).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setResumeQuirk(_ quirk: String?, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT INTO devices (name, resume_quirk) VALUES (?1, ?2)
                ON CONFLICT (name) DO UPDATE SET resume_quirk = excluded.resume_quirk
                """, [.text(device), quirk.map { .text($0) } ?? .null])
        }
    }

    /// Why resumed uploads are not trusted on `device`, nil when they are.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func resumeQuirk(device: String) throws(StoreError) -> String? {
        try locked { () throws(StoreError) -> String? in
            var found: String?
            try connection.query("SELECT resume_quirk FROM devices WHERE name = ?1", [.text(device)]) { row in
                found = row.optionalText(0)
            }
            return found
        }
    }

    /// Stores why `device` lists over the control connection (`STAT`: its listing data
    /// connections failed); nil forgets it. Later runs list with STAT at once (issue 16).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setListingQuirk(_ quirk: String?, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT INTO devices (name, listing_quirk) VALUES (?1, ?2)
                ON CONFLICT (name) DO UPDATE SET listing_quirk = excluded.listing_quirk
                """, [.text(device), quirk.map { .text($0) } ?? .null])
        }
    }

    /// Why `device` lists over the control connection, nil when it lists over data connections.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func listingQuirk(device: String) throws(StoreError) -> String? {
        try locked { () throws(StoreError) -> String? in
            var found: String?
            try connection.query("SELECT listing_quirk FROM devices WHERE name = ?1", [.text(device)]) { row in
                found = row.optionalText(0)
            }
            return found
        }
    }
}
