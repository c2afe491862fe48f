// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore
import SyncStore

/// The records of finished small downloads of one device run, made durable and committed
/// together: one `syncfs(2)` and one SQLite transaction for up to `limit` files or `interval`
/// seconds of them, instead of an `fsync` and a transaction per file.
///
/// Only downloads of files that had no record are batched (`PullExecutor` decides): a file
/// written under its final name whose record is not committed yet is then simply a file the
/// state does not know, and the next run's planner adopts it when its size and modification
/// time match the listing (`PullPlanner`, "no record" + `Comparison.sameContent`), without
/// moving a byte. A file that replaced an older recorded version is recorded at once instead:
/// with its old record still there the planner would see both sides changed and keep a
/// needless conflict copy.
///
/// What a crash leaves, at each point of a batched file's way:
/// - before the rename (while downloading, before its `fsync`-less close): the bytes are only
///   under `.ftpsync/partial/`; the final name does not exist or holds the previous file. The
///   next run downloads it again (small files are not resumed). Nothing lost.
/// - after the rename, before the batch's `syncfs`: a process kill (SIGKILL) leaves the whole
///   file under its final name (the kernel has it); the record is missing, so the next run
///   adopts it. A power loss may lose the file's name or bytes (never the name with a
///   half-written file: ext4's ordered mode writes the data before the inode's size; at worst
///   an empty or missing file), and no record claims it: the next run downloads it again
///   (missing) or keeps the empty file as a conflict copy and downloads it (no data lost).
/// - after `syncfs`, before the commit: the files, their times and names are durable; no
///   record yet, so the next run adopts them.
/// - after the commit: the records are in the WAL (`synchronous=NORMAL`): a kill keeps them; a
///   power loss may drop the last transactions, which again leaves files without records, to
///   be adopted. Since `syncfs` ran before, a committed record never claims a file that is not
///   on disk.
final class PullRecordBatch: @unchecked Sendable {
    private let store: StateStore
    private let device: String
    /// Folders whose file systems hold the batched files (the device's folder) and their
    /// partials (the state folder): each is made durable before a commit.
    private let folders: [String]
    private let limit: Int
    private let interval: UInt64
    private let now: () -> UInt64
    private let lock = NSLock()
    /// Held by the one thread committing a batch; others keep adding meanwhile.
    private let flushing = NSLock()
    private var pending: [FileRecord] = []
    private var firstPending: UInt64 = 0
    private var failures: [String] = []
    /// `fileSystemRoots()`, once known (used with `flushing` held).
    private var roots: [String]?

    /// - Parameters:
    ///   - store: where the records go.
    ///   - device: the device they belong to.
    ///   - folders: a folder on each file system the batched files and their partials live on.
    ///   - limit: records after which a batch is committed.
    ///   - interval: seconds after the first record of a batch at which it is committed.
    ///   - now: a monotonic clock in nanoseconds.
    init(
        store: StateStore, device: String, folders: [String], limit: Int = 512, interval: Double = 0.5,
        now: @escaping () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
    ) {
        self.store = store
        self.device = device
        self.folders = folders
        self.limit = max(1, limit)
        self.interval = UInt64(max(0, interval) * 1e9)
        self.now = now
    }

    /// Adds the record of a file just renamed into place; commits the batch when it is due
    /// (unless another thread is committing one right now: it is then taken by the next).
    func add(_ record: FileRecord) {
        lock.lock()
        if pending.isEmpty { firstPending = now() }
        pending.append(record)
        let due = pending.count >= limit || now() &- firstPending >= interval
        lock.unlock()
        if due, flushing.try() {
            defer { flushing.unlock() }
            commitPending()
        }
    }

    /// Commits every record added so far (waits for a commit under way). Call when a worker
    /// stops taking actions, and before anything that must see the records.
    func flush() {
        flushing.lock()
        defer { flushing.unlock() }
        commitPending()
    }

    /// What went wrong committing batches (the records then stay uncommitted, for the next run
    /// to adopt); empty when all went well.
    var notes: [String] {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }

    /// One of `folders` per file system (the first found of each); the device's folder exists
    /// once a file was renamed into it.
    private func fileSystemRoots() -> [String] {
        if let roots { return roots }
        var seen = Set<UInt64>()
        var found: [String] = []
        for folder in folders {
            guard let status = try? LocalFileSystem().status(at: folder) else { continue }
            if seen.insert(status.identity.device).inserted { found.append(folder) }
        }
        roots = found
        return found
    }

    /// Makes the files durable, then commits their records and drops their partials' rows.
    /// Runs with `flushing` held.
    private func commitPending() {
        lock.lock()
        let records = pending
        pending = []
        lock.unlock()
        guard !records.isEmpty else { return }
        do {
            let files = LocalFileSystem()
            for folder in fileSystemRoots() { try files.syncFileSystem(holding: folder) }
            try store.transaction {
                for record in records {
                    try store.upsertRecord(record, device: device)
                    try store.removePartial(path: record.path, device: device)
                }
            }
        } catch {
            lock.lock()
            failures.append(
                "\(records.count) downloaded files not recorded (\(error)); the next run adopts them")
            lock.unlock()
        }
    }
}
