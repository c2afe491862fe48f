// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import SyncCore

extension PushExecutor {
    /// Sends the local file to `temporary` from `offset`, retrying transient failures (see
    /// `RemoteFileSystem.retrying`; a remote that does not retry sends once): each retry asks the server how much of the temporary file
    /// it holds (SIZE) and continues from there with APPE (or REST + STOR); when SIZE fails the
    /// file starts over with STOR. An attempt that moved bytes does not count against `retries`.
    ///
    /// A retry never races the attempt before it (issue 13 item 7): when that attempt's end
    /// was not confirmed by the server's final reply (a timeout, a lost control connection),
    /// the temporary's size must stay the same over `settleSeconds` before it is trusted; a
    /// temporary larger than the file is started over, never appended to.
    /// - Returns: the bytes sent over all attempts, and the offsets retries resumed at (0 for
    /// a retry that started over).
    /// - Throws: the permanent error, the last transient one after the retries, or
    ///   `EngineError.stillWriting`.
    func sendRetrying(_ localPath: String, to temporary: String, offset: UInt64, id: Int, size: UInt64) throws
        -> (sent: UInt64, resumedAt: [UInt64])
    {
        var moved: UInt64 = 0
        var isFirst = true
        // True when the last attempt's end was confirmed by a final reply.
        var settled = true
        var resumedAt: [UInt64] = []
        let sent = try remote.retrying(
            "upload \(temporary)", progress: { moved },
            operation: {
                var start = offset
                if !isFirst {
                    start = settled ? ((try? remote.size(temporary)) ?? 0) : try settledSize(temporary)
                    if start > size || quirks.resumeIsWrong { start = 0 }
                    resumedAt.append(start)
                }
                isFirst = false
                do {
                    return Saturating.add(try send(localPath, to: temporary, offset: start, id: id, size: size), moved)
                } catch FTPError.dataConnectionClosed(let bytes, let reason) {
                    moved = Saturating.add(moved, bytes)
                    settled = true
                    throw FTPError.dataConnectionClosed(bytesTransferred: bytes, reason: reason)
                } catch {
                    settled = false
                    throw error
                }
            })
        return (sent, resumedAt)
    }

    /// Seconds between two readings of the temporary's size that must agree before a retry
    /// after an unconfirmed end trusts it.
    static let settleSeconds = 1.0
    /// Readings tried before giving up on a temporary that keeps growing.
    static let settleReadings = 10

    /// The temporary's size once it stopped changing (two equal SIZE readings `settleSeconds`
    /// apart): the server is done with the earlier attempt. 0 when SIZE is refused (after one
    /// pause, so a reset connection has ended on the server).
    /// - Throws: `EngineError.stillWriting` when it keeps changing; `RunInterrupted`.
    private func settledSize(_ temporary: String) throws -> UInt64 {
        guard var last = try? remote.size(temporary) else {
            try job.cancellation.sleep(Self.settleSeconds)
            return 0
        }
        for _ in 0..<Self.settleReadings {
            try job.cancellation.sleep(Self.settleSeconds)
            guard let now = try? remote.size(temporary) else { return 0 }
            if now == last { return now }
            last = now
        }
        throw EngineError.stillWriting(temporary: temporary, size: last)
    }
}
