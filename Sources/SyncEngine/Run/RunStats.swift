// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Counts for one device or a whole run.
public struct RunStats: Sendable, Codable, Equatable {
    public var filesTransferred = 0
    /// Bytes moved over data connections, in bytes.
    public var bytesTransferred: UInt64 = 0
    /// Files and folders deleted, on either side (a pull's go to the trash).
    public var deleted = 0
    /// Of `deleted`, those deleted on the device (a push's deletes, a pull's offloads); not in
    /// the JSON document, which keeps `deleted` alone.
    public var deletedOnDevice = 0
    public var renamed = 0
    public var failed = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case filesTransferred = "files_transferred"
        case bytesTransferred = "bytes_transferred"
        case deleted, renamed, failed
    }

    /// Adds another set of counts to this one.
    public mutating func add(_ other: RunStats) {
        filesTransferred += other.filesTransferred
        bytesTransferred = Saturating.add(bytesTransferred, other.bytesTransferred)
        deleted += other.deleted
        deletedOnDevice += other.deletedOnDevice
        renamed += other.renamed
        failed += other.failed
    }

    /// Counts one finished action (planned actions of a dry run count nothing). `transferred`:
    /// the bytes it moved over data connections, counted whatever came of it (a transfer that
    /// failed or was cut moved bytes too); only a done transfer counts as a file.
    public mutating func count(_ report: ActionReport, transferred: UInt64) {
        bytesTransferred = Saturating.add(bytesTransferred, transferred)
        guard report.status != .failed else {
            failed += 1
            return
        }
        guard report.status == .done else { return }
        switch report.kind {
        case .download, .upload:
            filesTransferred += 1
        case .deleteLocal: deleted += 1
        case .deleteRemote:
            deleted += 1
            deletedOnDevice += 1
        case .renameLocal, .renameRemote: renamed += 1
        case .mkdirLocal, .mkdirRemote, .conflict: break
        }
    }
}
