// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import CSQLite
import Foundation

/// One SQLite connection with a cache of prepared statements. Not thread-safe by itself:
/// `StateStore` serializes every use behind its lock.
final class SQLiteConnection {
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// `SQLITE_TRANSIENT`: SQLite copies bound text before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws(StoreError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        if rc != SQLITE_OK {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw .sqlite(code: rc, message: message, context: "open \(path)")
        }
        db = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { close() }

    var isOpen: Bool { db != nil }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    private func failure(_ rc: Int32, _ context: String) -> StoreError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
        return .sqlite(code: rc, message: message, context: context)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        guard let db else { throw .closed }
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        if rc != SQLITE_OK { throw failure(rc, sql) }
    }

    /// Runs `sql` (cached) with `values` bound to `?1…`, calling `row` for every result row.
    func query(_ sql: String, _ values: [SQLValue] = [], row: (Row) throws(StoreError) -> Void = { _ in })
        throws(StoreError)
    {
        try queryUntil(
            sql, values,
            found: { (current: Row) throws(StoreError) -> Bool in
                try row(current)
                return false
            })
    }

    /// Runs `sql` (cached) with `values` bound to `?1…`, calling `row` for each result row until
    /// it answers true (found: the rows after it are not read).
    func queryUntil(_ sql: String, _ values: [SQLValue] = [], found row: (Row) throws(StoreError) -> Bool)
        throws(StoreError)
    {
        guard let db else { throw .closed }
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard rc == SQLITE_OK, let prepared else { throw failure(rc, sql) }
            statements[sql] = prepared
            statement = prepared
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let number): rc = sqlite3_bind_int64(statement, index, number)
            case .real(let number): rc = sqlite3_bind_double(statement, index, number)
            case .text(let text):
                rc = text.withCString { sqlite3_bind_text(statement, index, $0, -1, SQLiteConnection.transient) }
            }
            if rc != SQLITE_OK { throw failure(rc, sql) }
        }
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return }
            if rc != SQLITE_ROW { throw failure(rc, sql) }
            if try row(Row(statement: statement)) { return }
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { db.map { Int(sqlite3_changes($0)) } ?? 0 }
}

/// A value bound to a statement parameter.
enum SQLValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    static func unsigned(_ value: UInt64?) -> SQLValue {
        value.map { .integer(Int64(bitPattern: $0)) } ?? .null
    }
}

/// The current result row of a statement; valid only inside the `row` callback.
struct Row {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func unsigned(_ column: Int32) -> UInt64 { UInt64(bitPattern: sqlite3_column_int64(statement, column)) }
    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    func optionalUnsigned(_ column: Int32) -> UInt64? { isNull(column) ? nil : unsigned(column) }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}
