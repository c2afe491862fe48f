// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import SyncCore

extension PushExecutor {
    /// Renames the checked temporary onto `target`. A server that refuses to rename over an
    /// existing file (550 "exists": IIS, some NAS) gets a DELE of the old file and a second
    /// RNTO; the temporary is kept until a rename succeeds, so the file is never lost. A
    /// rename answered with success is checked (the temporary gone, SIZE of the target equal
    /// to `size`) before the upload counts as done.
    /// - Throws: the server's refusal (nothing changed), `EngineError.notRenamed`, `.oldDeleted`.
    func place(_ temporary: String, at target: String, path: RelativePath, size: UInt64) throws {
        let replaces = quirks.renameReplaces
        if !replaces { try? remote.delete(target) }
        do {
            try remote.rename(from: temporary, to: target)
        } catch let error as FTPError where error.isRefusal && replaces && Self.saysExists(error, target, remote) {
            quirks.learnRenameDoesNotReplace()
            try replaceByDeleting(temporary, at: target, path: path, size: size)
            return
        }
        if isPlaced(temporary, at: target, size: size) { return }
        guard replaces else { throw EngineError.notRenamed(path: path.string, temporary: temporary) }
        quirks.learnRenameDoesNotReplace()
        try replaceByDeleting(temporary, at: target, path: path, size: size)
    }

    /// A sync's upload replaces only what its plan saw on the device (`Action.destination`):
    /// SIZE of the target is asked again right before RNTO, and MDTM when the plan knew its time
    /// to the second. Another size, a file gone, one there where the plan saw none, or another
    /// second is a change made during the run. The second is compared within its minute, as
    /// `ListingPrecision` reads it: a device whose zone is off by whole minutes or hours is no
    /// change (an edit exactly whole minutes later goes unseen).
    /// - Throws: `EngineError.changedOnDevice`; nothing when the server cannot tell (SIZE
    ///   refused other than with 550/450).
    func confirmTarget(_ target: String, path: RelativePath, expected: SnapshotEntry?) throws {
        let now: UInt64?
        do {
            now = try remote.size(target)
        } catch FTPError.reply(let code, _, _) where code == 550 || code == 450 {
            now = nil
        } catch {
            return
        }
        switch (expected, now) {
        case (nil, nil): return
        case (let planned?, let size?) where planned.size == nil || planned.size == size:
            guard let time = planned.modified, time.granularity >= .second,
                case .success(let date)? = (try? remote.preciseModificationTimes([target]))??.first
            else { return }
            let apart = abs((date.timeIntervalSince1970 - time.seconds).truncatingRemainder(dividingBy: 60))
            if apart > 1 && apart < 59 { throw EngineError.changedOnDevice(path: path.string) }
        default: throw EngineError.changedOnDevice(path: path.string)
        }
    }

    /// DELE of the old file, then RNTO again, checked.
    private func replaceByDeleting(_ temporary: String, at target: String, path: RelativePath, size: UInt64) throws {
        try remote.delete(target)
        do {
            try remote.rename(from: temporary, to: target)
        } catch {
            throw EngineError.oldDeleted(path: path.string, temporary: temporary, cause: "\(error)")
        }
        guard isPlaced(temporary, at: target, size: size) else {
            throw EngineError.oldDeleted(path: path.string, temporary: temporary, cause: "answered but not renamed")
        }
    }

    /// False when the device shows the rename did not happen: the temporary still answers
    /// SIZE, or the target's SIZE is not `size`. True when it cannot tell (SIZE refused).
    private func isPlaced(_ temporary: String, at target: String, size: UInt64) -> Bool {
        // Both asked at once (pipelined where the session can).
        guard let answers = try? remote.sizes([temporary, target]), answers.count == 2 else { return true }
        if case .success = answers[0] { return false }
        if case .success(let held) = answers[1] { return held == size }
        return true
    }

    /// Whether a refused RNTO is about the name being taken: the reply says so, or `target`
    /// answers SIZE.
    private static func saysExists(_ error: FTPError, _ target: String, _ remote: RemoteFileSystem) -> Bool {
        if case .reply(_, let text, _) = error, text.lowercased().contains("exist") { return true }
        return (try? remote.size(target)) != nil
    }
}
