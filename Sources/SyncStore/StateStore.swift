// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import CSQLite
import Foundation
import SyncCore

/// The state of one local tree, in SQLite at `<localRoot>/.ftpsync/state.sqlite`: per device
/// the records of the last successful sync, interrupted transfers, the last sync time; and the
/// digest cache of the tree's files.
///
/// WAL journal, `synchronous=NORMAL`: a committed transaction survives a crash of the process
/// (SIGKILL); a power loss may lose the last transactions but never corrupts the file.
///
/// Thread-safe: every call runs behind one recursive lock, so several threads of one run may
/// share a store; a `transaction` holds the lock for its whole body, so other threads wait
/// until it ends.
public final class StateStore: @unchecked Sendable {
    /// The schema this code writes; `migrations[i]` moves a database from version i to i + 1.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE records (
                device TEXT NOT NULL, path TEXT NOT NULL,
                remote_size INTEGER, remote_mtime REAL, remote_precision INTEGER,
                local_size INTEGER NOT NULL, local_mtime REAL NOT NULL, local_precision INTEGER NOT NULL,
                digest TEXT,
                PRIMARY KEY (device, path)) WITHOUT ROWID
            """,
            """
            CREATE TABLE partials (
                device TEXT NOT NULL, direction TEXT NOT NULL, path TEXT NOT NULL,
                remote_size INTEGER, remote_mtime REAL, remote_precision INTEGER,
                bytes_done INTEGER NOT NULL, temp_name TEXT NOT NULL,
                local_size INTEGER, local_mtime REAL, local_precision INTEGER,
                PRIMARY KEY (device, direction, path)) WITHOUT ROWID
            """,
            """
            CREATE TABLE hash_cache (
                path TEXT NOT NULL PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
                inode INTEGER NOT NULL, digest TEXT NOT NULL) WITHOUT ROWID
            """,
            "CREATE TABLE devices (name TEXT NOT NULL PRIMARY KEY, last_sync REAL, identity TEXT) WITHOUT ROWID",
        ],
        // Uploads about to be renamed into place (see `UploadIntent`).
        [
            """
            CREATE TABLE upload_intents (
                device TEXT NOT NULL, path TEXT NOT NULL, temp_name TEXT NOT NULL,
                local_size INTEGER NOT NULL, local_mtime REAL NOT NULL, local_precision INTEGER NOT NULL,
                digest TEXT, sent_size INTEGER NOT NULL, time_to_set REAL NOT NULL, stored_at REAL NOT NULL,
                PRIMARY KEY (device, path)) WITHOUT ROWID
            """
        ],
        // The last attempt of each device, successful or not (`status`; issue 14 item 14).
        [
            "ALTER TABLE devices ADD COLUMN last_attempt REAL",
            "ALTER TABLE devices ADD COLUMN last_status TEXT",
            "ALTER TABLE devices ADD COLUMN last_error TEXT",
            "ALTER TABLE devices ADD COLUMN last_transferred INTEGER",
        ],
        // Why resumed uploads are not trusted on a device (issue 14 item 9), nil when they are.
        ["ALTER TABLE devices ADD COLUMN resume_quirk TEXT"],
        // Why a device's listings go over the control connection (STAT, issue 16), nil when not.
        ["ALTER TABLE devices ADD COLUMN listing_quirk TEXT"],
        // The folder of each record, so a pull reads the records of one folder at a time
        // (issue 17), and the remote size and time, to ask whether a new file could be a move.
        // `parent` is the path up to its last `/` ("" in the root): `rtrim` strips every
        // character but `/` from the end, and the `/` left is cut off.
        [
            "ALTER TABLE records ADD COLUMN parent TEXT NOT NULL DEFAULT ''",
            """
            UPDATE records SET parent = substr(rtrim(path, replace(path, '/', '')), 1,
                length(rtrim(path, replace(path, '/', ''))) - 1) WHERE instr(path, '/') > 0
            """,
            "CREATE INDEX records_by_folder ON records (device, parent, path)",
            "CREATE INDEX records_by_remote_size ON records (device, remote_size, remote_mtime)",
        ],
        // The folder of each cached digest, so a push reads and prunes the digests of one local
        // folder at a time (issue 17), and the records by local size, to ask whether a new local
        // file could be a move. `parent` is filled as in the migration before.
        [
            "ALTER TABLE hash_cache ADD COLUMN parent TEXT NOT NULL DEFAULT ''",
            """
            UPDATE hash_cache SET parent = substr(rtrim(path, replace(path, '/', '')), 1,
                length(rtrim(path, replace(path, '/', ''))) - 1) WHERE instr(path, '/') > 0
            """,
            "CREATE INDEX hash_cache_by_folder ON hash_cache (parent, path)",
            "CREATE INDEX records_by_local_size ON records (device, local_size)",
        ],
        // Only the records with a digest can be a local file's move (issue 17): SQLite answered
        // "one of this size with a digest?" from the index above by reading every record of
        // the device; a partial index holds exactly those records.
        [
            "DROP INDEX IF EXISTS records_by_local_size",
            "CREATE INDEX records_with_digest_by_local_size ON records (device, local_size) WHERE digest IS NOT NULL",
        ],
        // A fleet's health (issue 18): the last run's bytes, failed actions and duration (the
        // metrics file gives them for devices not in a run), the run of failures since the last
        // `ok` and when it began, and each device's recent transitions (`DeviceEvent`).
        [
            "ALTER TABLE devices ADD COLUMN last_bytes INTEGER",
            "ALTER TABLE devices ADD COLUMN last_failures INTEGER",
            "ALTER TABLE devices ADD COLUMN last_seconds REAL",
            "ALTER TABLE devices ADD COLUMN failing_streak INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE devices ADD COLUMN failing_since REAL",
            """
            CREATE TABLE device_events (
                id INTEGER PRIMARY KEY, device TEXT NOT NULL, at REAL NOT NULL, kind TEXT NOT NULL, detail TEXT)
            """,
            "CREATE INDEX device_events_by_device ON device_events (device, id)",
        ],
        // The device clock's offset from ours as a run last measured it (issue 18): the next
        // run that measures it again records a `clock_jump` event when it moved far.
        ["ALTER TABLE devices ADD COLUMN clock_offset REAL"],
        // Why a device's server gets plain LIST, not `LIST -a` (issue 19), nil when it takes `-a`.
        ["ALTER TABLE devices ADD COLUMN hidden_listing_quirk TEXT"],
        // Why a device's server gets no NOOP during transfers (issue 19), nil while it takes them.
        ["ALTER TABLE devices ADD COLUMN keepalive_quirk TEXT"],
        // Records whose device file `--remove-source` deleted (issue 19, offload): their local
        // copy is never deleted for being gone from the device.
        ["ALTER TABLE records ADD COLUMN offloaded INTEGER NOT NULL DEFAULT 0"],
        // Why a device's server gets its transfer commands one at a time (issue 20), nil while
        // they are pipelined.
        ["ALTER TABLE devices ADD COLUMN pipeline_quirk TEXT"],
        // The ranges of a download fetched in segments (issue 20), nil for one fetched whole.
        ["ALTER TABLE partials ADD COLUMN segments TEXT"],
        // How many connections a device's server took before it refused one (issue 20): later
        // runs open no more than that.
        ["ALTER TABLE devices ADD COLUMN connection_limit INTEGER"],
        // The server's digest of each recorded file (issue 21, `FileRecord.serverDigest`), and
        // what a device's server offers to hash files with when FEAT did not say (probed once).
        [
            "ALTER TABLE records ADD COLUMN server_digest TEXT",
            "ALTER TABLE devices ADD COLUMN hash_probe TEXT",
        ],
        // The shard (`--shard K/N`, issue 24) whose run last wrote this tree: one row at most.
        [StateStore.treeShardTable],
    ]

    /// The schema version this code writes.
    public static var schemaVersion: Int { migrations.count }

    /// The database file's path.
    public let path: String

    let lock = NSRecursiveLock()
    let connection: SQLiteConnection
    private var transactionDepth = 0

    /// Opens (creating it and `<localRoot>/.ftpsync` when missing) the state database of the
    /// local tree at `localRoot`, and brings its schema up to date.
    /// - Throws: `StoreError.fileSystem` when the folder cannot be made, `.sqlite` when SQLite
    ///   refuses (not a database, read-only, disk full), `.newerSchema` for a database written by
    ///   a newer ftpsync.
    public static func open(localRoot: String) throws(StoreError) -> StateStore {
        let folder = try StateFolder.make(localRoot: localRoot)
        return try StateStore(file: folder + "/state.sqlite")
    }

    /// Opens the state of `localRoot` when there is one, creating nothing (a dry run, `status`).
    /// - Returns: nil when `<localRoot>/.ftpsync/state.sqlite` does not exist.
    /// - Throws: `StoreError` when it exists but cannot be opened.
    public static func openExisting(localRoot: String) throws(StoreError) -> StateStore? {
        let file = StateFolder.path(localRoot: localRoot) + "/state.sqlite"
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        return try StateStore(file: file)
    }

    /// Opens (creating it when missing) the database at `file`; see `open(localRoot:)`.
    /// - Throws: as `open(localRoot:)`.
    public init(file: String) throws(StoreError) {
        path = file
        connection = try SQLiteConnection(path: file)
        try connection.execute("PRAGMA busy_timeout = 5000")
        try connection.query("PRAGMA journal_mode = WAL") { _ in }
        try connection.execute("PRAGMA synchronous = NORMAL")
        try migrate()
        try ensureIndexes()
    }

    /// The indexes every walk's statements are forced onto (`FolderQuery`), made again when
    /// missing (a state whose index was dropped by hand or by another tool): a statement
    /// `INDEXED BY` a missing index fails every run.
    static let indexes = [
        "records_by_folder": "CREATE INDEX records_by_folder ON records (device, parent, path)",
        "records_by_remote_size": "CREATE INDEX records_by_remote_size ON records (device, remote_size, remote_mtime)",
        "hash_cache_by_folder": "CREATE INDEX hash_cache_by_folder ON hash_cache (parent, path)",
        "records_with_digest_by_local_size":
            "CREATE INDEX records_with_digest_by_local_size ON records (device, local_size) WHERE digest IS NOT NULL",
    ]

    /// The table of the shard that last wrote the tree; made again when missing (dropped by
    /// hand or by another tool: every sharded run failed on it), as `indexes` are.
    static let treeShardTable =
        "CREATE TABLE tree_shard (shard_index INTEGER NOT NULL, shard_count INTEGER NOT NULL, written REAL NOT NULL)"

    /// Makes the missing ones of `indexes` and the tree_shard table (nothing is written when
    /// none is missing).
    /// - Throws: `StoreError` when SQLite cannot (a read-only or full disk).
    private func ensureIndexes() throws(StoreError) {
        var present = Set<String>()
        try connection.query("SELECT name FROM sqlite_master WHERE type IN ('index', 'table')") { row in
            present.insert(row.text(0))
        }
        for (name, sql) in StateStore.indexes.sorted(by: { $0.key < $1.key }) where !present.contains(name) {
            try connection.execute(sql)
        }
        if !present.contains("tree_shard") { try connection.execute(StateStore.treeShardTable) }
    }

    /// Reads the schema version and applies the missing migrations, each in its own transaction.
    private func migrate() throws(StoreError) {
        try connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        var found: Int?
        try connection.query("SELECT version FROM schema_version") { row in found = Int(row.integer(0)) }
        let current = found ?? 0
        if current > StateStore.migrations.count {
            throw .newerSchema(found: current, supported: StateStore.migrations.count)
        }
        for version in current..<StateStore.migrations.count {
            try connection.execute("BEGIN IMMEDIATE")
            do throws(StoreError) {
                for sql in StateStore.migrations[version] { try connection.execute(sql) }
                try connection.execute("DELETE FROM schema_version")
                try connection.query("INSERT INTO schema_version (version) VALUES (?1)", [.integer(Int64(version + 1))])
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Closes the database; later calls throw `StoreError.closed`. Closing twice does nothing.
    public func close() {
        locked { connection.close() }
    }

    /// Runs `body` with the lock held.
    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` as one transaction: everything it writes is committed together when it
    /// returns, or rolled back when it throws (the error is then rethrown unchanged). Nested
    /// calls become savepoints of the outer transaction. Other threads wait until it ends.
    /// - Throws: what `body` throws, or `StoreError` when SQLite cannot begin or commit.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let depth = transactionDepth
        let savepoint = "s\(depth)"
        try connection.execute(depth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let result: T
        do {
            result = try body()
        } catch {
            if depth == 0 {
                try? connection.execute("ROLLBACK")
            } else {
                try? connection.execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
            }
            throw error
        }
        do {
            try connection.execute(depth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
        } catch {
            if depth == 0 { try? connection.execute("ROLLBACK") }
            throw error
        }
        return result
    }

    /// The database's schema version (see `schemaVersion`).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func storedSchemaVersion() throws(StoreError) -> Int {
        try locked { () throws(StoreError) -> Int in
            var version = 0
            try connection.query("SELECT version FROM schema_version") { row in version = Int(row.integer(0)) }
            return version
        }
    }

    /// The journal mode SQLite reports (`wal` once opened).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func journalMode() throws(StoreError) -> String {
        try locked { () throws(StoreError) -> String in
            var mode = ""
            try connection.query("PRAGMA journal_mode") { row in mode = row.text(0) }
            return mode
        }
    }
}

extension FileTime {
    /// The time as bound values: seconds (REAL) and granularity (INTEGER), or two NULLs.
    static func columns(_ time: FileTime?) -> [SQLValue] {
        guard let time else { return [.null, .null] }
        return [.real(time.seconds), .integer(Int64(time.granularity.rawValue))]
    }

    /// Reads a time from a seconds column and the granularity column after it.
    /// - Throws: `StoreError.corrupt` for an unknown granularity.
    static func read(_ row: Row, _ column: Int32) throws(StoreError) -> FileTime? {
        if row.isNull(column) { return nil }
        let raw = row.integer(column + 1)
        guard let granularity = TimeGranularity(rawValue: Int(raw)) else {
            throw .corrupt("time granularity \(raw)")
        }
        return FileTime(seconds: row.real(column), granularity: granularity)
    }
}

extension RelativePath {
    /// Reads a stored path.
    /// - Throws: `StoreError.corrupt` when the text is not a valid relative path.
    static func stored(_ text: String) throws(StoreError) -> RelativePath {
        do {
            return try RelativePath(validating: text)
        } catch {
            throw .corrupt("path '\(text)': \(error)")
        }
    }
}
