// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// What the state knows about one device.
public struct DeviceState: Sendable, Hashable {
    /// The device's name from the configuration.
    public var name: String
    /// End of its last successful sync (UTC), nil when it never completed one.
    public var lastSync: Date?
    /// Free text naming what the records were taken from (e.g. `ftp://host:port/remote`), so a
    /// device pointed elsewhere can be noticed; nil when never set.
    public var identity: String?

    /// Makes a device state from its parts.
    public init(name: String, lastSync: Date?, identity: String?) {
        self.name = name
        self.lastSync = lastSync
        self.identity = identity
    }
}

/// Counts of what the state holds for one device.
public struct DeviceStats: Sendable, Hashable {
    /// Number of recorded files.
    public var files: Int
    /// Sum of the recorded local sizes, in bytes.
    public var bytes: UInt64
    /// Number of interrupted transfers waiting (both directions).
    public var partials: Int

    /// Makes stats from their parts.
    public init(files: Int, bytes: UInt64, partials: Int) {
        self.files = files
        self.bytes = bytes
        self.partials = partials
    }
}

extension StateStore {
    /// Records that `device` finished a successful sync at `date` (UTC, kept to the microsecond).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func markSynced(device: String, at date: Date) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT INTO devices (name, last_sync) VALUES (?1, ?2)
                ON CONFLICT (name) DO UPDATE SET last_sync = excluded.last_sync
                """, [.text(device), .real(date.timeIntervalSince1970)])
        }
    }

    /// End of the last successful sync of `device`, nil when none.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func lastSync(device: String) throws(StoreError) -> Date? {
        try deviceState(device)?.lastSync
    }

    /// Stores the identity text of `device` (see `DeviceState.identity`).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setIdentity(_ identity: String, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT INTO devices (name, identity) VALUES (?1, ?2)
                ON CONFLICT (name) DO UPDATE SET identity = excluded.identity
                """, [.text(device), .text(identity)])
        }
    }

    /// The stored identity text of `device`, nil when never set.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func identity(device: String) throws(StoreError) -> String? {
        try deviceState(device)?.identity
    }

    /// The state of `device`, nil when the store has never heard of it.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func deviceState(_ device: String) throws(StoreError) -> DeviceState? {
        try locked { () throws(StoreError) -> DeviceState? in
            var found: DeviceState?
            try connection.query("SELECT name, last_sync, identity FROM devices WHERE name = ?1", [.text(device)]) {
                row in found = DeviceState(row)
            }
            return found
        }
    }

    /// Every device the store knows, sorted by name.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func devices() throws(StoreError) -> [DeviceState] {
        try locked { () throws(StoreError) -> [DeviceState] in
            var devices: [DeviceState] = []
            try connection.query("SELECT name, last_sync, identity FROM devices ORDER BY name") { row in
                devices.append(DeviceState(row))
            }
            return devices
        }
    }

    /// Counts of what the store holds for `device` (zeros for an unknown device).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func stats(device: String) throws(StoreError) -> DeviceStats {
        try locked { () throws(StoreError) -> DeviceStats in
            var stats = DeviceStats(files: 0, bytes: 0, partials: 0)
            try connection.query(
                "SELECT count(*), coalesce(sum(local_size), 0) FROM records WHERE device = ?1", [.text(device)]
            ) { row in
                stats.files = Int(row.integer(0))
                stats.bytes = row.unsigned(1)
            }
            try connection.query("SELECT count(*) FROM partials WHERE device = ?1", [.text(device)]) { row in
                stats.partials = Int(row.integer(0))
            }
            return stats
        }
    }

    /// Removes everything stored for `device`: records, partials and its device row (e.g. when
    /// its identity changed), in one transaction.
    /// - Throws: `StoreError` when SQLite fails; nothing is removed then.
    public func forgetDevice(_ device: String) throws(StoreError) {
        try storeTransaction { () throws(StoreError) in
            for table in ["records WHERE device", "partials WHERE device", "devices WHERE name"] {
                try connection.query("DELETE FROM \(table) = ?1", [.text(device)])
            }
        }
    }

    /// The temporary names of every stored partial of every device and direction, so files under
    /// `.ftpsync/` that no partial names can be cleaned.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func allPartialTempNames() throws(StoreError) -> Set<String> {
        try locked { () throws(StoreError) -> Set<String> in
            var names = Set<String>()
            try connection.query("SELECT temp_name FROM partials") { row in names.insert(row.text(0)) }
            return names
        }
    }
}

extension DeviceState {
    /// The state in a row of `SELECT name, last_sync, identity FROM devices`.
    fileprivate init(_ row: Row) {
        self.init(
            name: row.text(0), lastSync: row.isNull(1) ? nil : Date(timeIntervalSince1970: row.real(1)),
            identity: row.optionalText(2))
    }
}
