// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

/// Files still being written (issue 19): a download whose file's size changed between the
/// listing and the end of the transfer is held for a later run (`ActionStatus.held`), never
/// placed or recorded. More bytes than listed are caught while they arrive
/// (`EngineError.longerThanListed`); a size that changes after the server's last byte is
/// caught by asking SIZE once the download ended, for the files that may still be written.
extension PullExecutor {
    /// Seconds: a file the device modified less than this before the run started (or whose
    /// time it does not list) may still be written, and gets its size asked once downloaded.
    static let recentlyModified: Double = 3_600

    /// True when `source` may still be written: its time is recent or unknown, or its record
    /// has the same time with another size (a device that sets a file's time only when it closes it).
    func mayStillBeWritten(_ action: Action, source: SnapshotEntry) -> Bool {
        if let record = action.record, record.remoteSize != source.size, let was = record.remoteModified,
            let time = source.modified, was.matches(time)
        {
            return true
        }
        guard let time = source.modified else { return true }
        return runStarted.timeIntervalSince1970 - time.seconds < Self.recentlyModified
    }

    /// Asks the device the size of a downloaded file that may still be written (`mayStillBeWritten`).
    /// A server without SIZE, or a SIZE that fails, says nothing: the received length stands.
    /// - Throws: `EngineError.sizeChangedDuringDownload` when the device now reports another
    ///   size than its listing gave.
    func confirmStableSize(_ action: Action, source: SnapshotEntry) throws {
        guard let listed = source.size, mayStillBeWritten(action, source: source) else { return }
        let path = remotePath(root: job.remoteRoot, relative: action.path.string)
        guard let now = try? remote.size(path), now != listed else { return }
        throw EngineError.sizeChangedDuringDownload(path: action.path.string, listed: listed, now: now)
    }

    /// `confirmStableSize` for a download into a partial: the partial and its row are removed
    /// when the file is held (the next run fetches it whole).
    func confirmStableSize(_ action: Action, source: SnapshotEntry, partial: (TreeFolder, String)) throws {
        do {
            try confirmStableSize(action, source: source)
        } catch {
            _ = try? partial.0.removeFile(partial.1)
            try? store?.removePartial(path: action.path, device: job.name)
            throw error
        }
    }
}
