import FTPClient
import Foundation
import SyncCore

extension PushExecutor {
    /// Sends the local file to `temporary` from `offset`, retrying transient failures (see
    /// `ResilientRemote.retrying`): each retry asks the server how much of the temporary file
    /// it holds (SIZE) and continues from there with APPE (or REST + STOR); when SIZE fails the
    /// file starts over with STOR. An attempt that moved bytes does not count against `retries`.
    /// - Returns: the bytes sent over all attempts.
    /// - Throws: the permanent error, or the last transient one after the retries.
    func sendRetrying(_ localPath: String, to temporary: String, offset: UInt64, id: Int, size: UInt64) throws
        -> UInt64
    {
        guard let resilient = remote as? ResilientRemote else {
            return try send(localPath, to: temporary, offset: offset, id: id, size: size)
        }
        var moved: UInt64 = 0
        var isFirst = true
        return try resilient.retrying(
            "upload \(temporary)", progress: { moved },
            operation: {
                let start = isFirst ? offset : ((try? resilient.size(temporary)) ?? 0)
                isFirst = false
                do {
                    return Saturating.add(try send(localPath, to: temporary, offset: start, id: id, size: size), moved)
                } catch FTPError.dataConnectionClosed(let bytes, let reason) {
                    moved = Saturating.add(moved, bytes)
                    throw FTPError.dataConnectionClosed(bytesTransferred: bytes, reason: reason)
                }
            })
    }
}
