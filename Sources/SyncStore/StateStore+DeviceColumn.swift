// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

extension StateStore {
    /// Stores `value` in the column `column` of `device`'s row in `devices`, making the row
    /// when there is none. `column` is one of the store's own column names, never input.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    func setDeviceColumn(_ column: String, _ value: SQLValue, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT INTO devices (name, \(column)) VALUES (?1, ?2)
                ON CONFLICT (name) DO UPDATE SET \(column) = excluded.\(column)
                """, [.text(device), value])
        }
    }

    /// The column `column` of `device`'s row in `devices`, read by `read`; nil when the device
    /// has no row (or `read` gives nil, for NULL).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    func deviceColumn<Value>(_ column: String, device: String, read: (Row) -> Value?) throws(StoreError) -> Value? {
        try locked { () throws(StoreError) -> Value? in
            var found: Value?
            try connection.query("SELECT \(column) FROM devices WHERE name = ?1", [.text(device)]) { row in
                found = read(row)
            }
            return found
        }
    }
}
