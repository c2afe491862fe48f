// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// An interrupted transfer as stored: the transfer, the direction, the temporary file's name,
/// and for uploads the local file as it was when the upload began.
public struct StoredPartial: Sendable, Hashable {
    /// Path, remote size and time when the transfer began, and bytes done.
    public var transfer: PartialTransfer
    /// `.pull` for a download, `.push` for an upload.
    public var direction: SyncDirection
    /// Name of the temporary file: for a download, under `<local>/.ftpsync/`; for an upload,
    /// beside the target on the server (e.g. `.NAME.ftpsync-part`).
    public var tempName: String
    /// Size in bytes of the local file when the upload began (nil for downloads).
    public var localSize: UInt64?
    /// Modification time of the local file when the upload began (nil for downloads).
    public var localModified: FileTime?
    /// For a download fetched in segments: its ranges (`ByteSegment.encode`), nil otherwise.
    /// Such a partial's bytes are not one run from the start: only the ranges say what is there.
    public var segments: String?

    /// Makes a stored partial from its parts.
    public init(
        transfer: PartialTransfer, direction: SyncDirection = .pull, tempName: String, localSize: UInt64? = nil,
        localModified: FileTime? = nil
    ) {
        self.transfer = transfer
        self.direction = direction
        self.tempName = tempName
        self.localSize = localSize
        self.localModified = localModified
    }
}

extension StateStore {
    /// The interrupted transfers of `device` in `direction`, by path.
    /// - Throws: `StoreError` when SQLite fails or a row is not valid.
    public func partials(device: String, direction: SyncDirection = .pull) throws(StoreError)
        -> [RelativePath: StoredPartial]
    {
        try locked { () throws(StoreError) -> [RelativePath: StoredPartial] in
            var partials: [RelativePath: StoredPartial] = [:]
            try connection.query(
                """
                SELECT path, remote_size, remote_mtime, remote_precision, bytes_done, temp_name,
                    local_size, local_mtime, local_precision, segments FROM partials WHERE device = ?1 AND direction = ?2
                """, [.text(device), .text(direction.rawValue)]
            ) { row throws(StoreError) in
                let path = try RelativePath.stored(row.text(0))
                partials[path] = StoredPartial(
                    transfer: PartialTransfer(
                        path: path, remoteSize: row.optionalUnsigned(1), remoteModified: try FileTime.read(row, 2),
                        bytesDone: row.unsigned(4)),
                    direction: direction, tempName: row.text(5), localSize: row.optionalUnsigned(6),
                    localModified: try FileTime.read(row, 7))
                partials[path]?.segments = row.optionalText(9)
            }
            return partials
        }
    }

    /// The `PartialTransfer`s of `device` in `direction`, as the planner takes them.
    /// - Throws: as `partials(device:direction:)`.
    public func partialTransfers(device: String, direction: SyncDirection = .pull) throws(StoreError)
        -> [RelativePath: PartialTransfer]
    {
        try partials(device: device, direction: direction).mapValues(\.transfer)
    }

    /// Stores `partial` for `device`, replacing the one of its path and direction.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setPartial(_ partial: StoredPartial, device: String) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                INSERT OR REPLACE INTO partials (device, direction, path, remote_size, remote_mtime,
                    remote_precision, bytes_done, temp_name, local_size, local_mtime, local_precision, segments)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                """,
                [.text(device), .text(partial.direction.rawValue), .text(partial.transfer.path.string)]
                    + [.unsigned(partial.transfer.remoteSize)] + FileTime.columns(partial.transfer.remoteModified)
                    + [.unsigned(partial.transfer.bytesDone), .text(partial.tempName), .unsigned(partial.localSize)]
                    + FileTime.columns(partial.localModified) + [partial.segments.map { .text($0) } ?? .null])
        }
    }

    /// Updates only the bytes done of a stored partial (cheap progress checkpoints).
    /// - Returns: false when no such partial is stored.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    @discardableResult
    public func updatePartialProgress(
        path: RelativePath, device: String, direction: SyncDirection = .pull, bytesDone: UInt64
    ) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) -> Bool in
            try connection.query(
                "UPDATE partials SET bytes_done = ?4 WHERE device = ?1 AND direction = ?2 AND path = ?3",
                [.text(device), .text(direction.rawValue), .text(path.string), .unsigned(bytesDone)])
            return connection.changes > 0
        }
    }

    /// Updates the ranges of a download fetched in segments (`StoredPartial.segments`) and its
    /// bytes done (cheap progress checkpoints).
    /// - Returns: false when no such partial is stored.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    @discardableResult
    public func updatePartialSegments(path: RelativePath, device: String, segments: String, bytesDone: UInt64)
        throws(StoreError) -> Bool
    {
        try locked { () throws(StoreError) -> Bool in
            try connection.query(
                "UPDATE partials SET segments = ?4, bytes_done = ?5 WHERE device = ?1 AND direction = ?2 AND path = ?3",
                [
                    .text(device), .text(SyncDirection.pull.rawValue), .text(path.string), .text(segments),
                    .unsigned(bytesDone),
                ])
            return connection.changes > 0
        }
    }

    /// Removes the partial of `path` for `device` in `direction`; none is fine.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func removePartial(path: RelativePath, device: String, direction: SyncDirection = .pull)
        throws(StoreError)
    {
        try locked { () throws(StoreError) in
            try connection.query(
                "DELETE FROM partials WHERE device = ?1 AND direction = ?2 AND path = ?3",
                [.text(device), .text(direction.rawValue), .text(path.string)])
        }
    }
}
