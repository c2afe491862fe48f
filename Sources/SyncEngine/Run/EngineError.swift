// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Why a device run could not carry out a planned action, beyond the errors of the layers below
/// (`FTPError`, `LocalFileError`, `StoreError`): the one error type of a device run.
public enum EngineError: Error, CustomStringConvertible {
    /// The data connection ended before the listed size arrived; the bytes so far are kept
    /// for the next run to resume.
    /// `resumes`: whether the next run continues from the bytes kept (large files) or fetches
    /// the file whole (small ones keep nothing).
    case shortTransfer(path: String, received: UInt64, expected: UInt64, resumes: Bool)
    /// The local file changed (size or time) while it was being uploaded: the device keeps the
    /// upload's temporary file; the next run sends the file again.
    case changedWhileSent(path: String)
    /// A sync's upload found the device's file changed since the plan (another size, gone, or
    /// there where there was none): not overwritten; the temporary stays for the next run,
    /// which sees both versions.
    case changedOnDevice(path: String)
    /// The server sent more bytes than it listed: the file changed while being read. The bytes
    /// are dropped; the next run lists it again and starts over.
    case longerThanListed(path: String, listed: UInt64)
    /// The device reports another size for the file once its download ended (SIZE) than its
    /// listing gave: still being written. Nothing is placed or recorded; the next run takes it.
    case sizeChangedDuringDownload(path: String, listed: UInt64, now: UInt64)
    /// The plan holds an action without the entry it needs (a planner bug, reported not crashed).
    case incompleteAction(String)
    /// The local version of a conflicting file could not be set aside: the download that would
    /// replace it is not done (the local file stays as it is).
    case conflictCopyFailed(path: String, cause: String)
    /// The local file changed while the device's version downloaded: it stays as it is, the
    /// download was kept beside it as `keptAs`; the next run reports the conflict again.
    case changedDuringDownload(path: String, keptAs: String)
    /// A conflict the plan leaves as it is (`--on-conflict report`, and a push's default): the
    /// action fails with the planner's `reason`, which names the option that resolves it.
    case conflictReported(reason: String)
    /// A `keep-both` upload not placed because the device's version could not be renamed aside
    /// as a conflict copy (`cause`); the device's file stays as it is.
    case remoteConflictCopyFailed(path: String, cause: String)
    /// The upload's temporary holds `held` bytes, the file has `expected`: not renamed into place.
    case uploadWrongSize(path: String, held: UInt64, expected: UInt64)
    /// Bytes read back from the upload's temporary differ from the local file near `offset`.
    case uploadDiffers(path: String, offset: UInt64)
    /// The server's digest of the upload's temporary (by `algorithm`) is not the local file's.
    case uploadHashDiffers(path: String, algorithm: String)
    /// The bytes of a download do not give the server's digest of the file (by `algorithm`):
    /// not placed; fetched again (`PullExecutor.hashAttempts`), then left to the next run.
    case downloadHashDiffers(path: String, algorithm: String)
    /// `verify: required`, and the transfer of `path` could not be checked (`reason`): a
    /// download is not placed, an upload not renamed into place.
    case unverified(path: String, reason: String)
    /// `verify: required`, and the device's server offers no command that hashes a file.
    case noServerHash
    /// A download fetched in segments whose bytes do not give the server's digest (by
    /// `algorithm`): not placed, the next run fetches it again.
    case segmentsDiffer(path: String, algorithm: String)
    /// A download fetched in segments had a range that began with the file's first bytes: the
    /// server may ignore REST. The partial is dropped and the file fetched whole.
    case rangeStartsLikeTheFile(path: String)
    /// After an attempt whose end the server did not confirm, the temporary kept growing.
    case stillWriting(temporary: String, size: UInt64)
    /// The server answered RNTO with success but the upload's temporary is still there.
    case notRenamed(path: String, temporary: String)
    /// The device's old file was deleted to make room, then RNTO failed: the upload waits
    /// under its temporary name, and the next run renames it into place.
    case oldDeleted(path: String, temporary: String, cause: String)
    /// A planned local rename of `path` to `to` not carried out (`reason`, e.g. `something is
    /// already there`): the local file is left where it is, nothing is replaced; the next run
    /// plans again.
    case renameRefused(path: String, to: String, reason: String)

    /// A push whose local folder does not exist: nothing is planned, nothing on the device
    /// changes (a typo in `local`, an unmounted disk must not empty the device with `--delete`).
    case localFolderMissing(path: String)

    /// True for a download whose file was still being written (its size changed while it was
    /// fetched): the action is held for a later run (`ActionStatus.held`), not failed.
    var isStillBeingWritten: Bool {
        switch self {
        case .longerThanListed, .sizeChangedDuringDownload: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .shortTransfer(let path, let received, let expected, let resumes):
            let next = resumes ? "the next run resumes it" : "the next run fetches it again"
            let changed = received > expected ? " (the file changed while it was sent?)" : ""
            return "\(path): transfer ended at \(received) of \(expected) bytes\(changed); \(next)"
        case .changedWhileSent(let path):
            return "\(path): changed here while it was being sent; the next run sends it again"
        case .changedOnDevice(let path):
            return "\(path): changed on the device during the run; not overwritten (the next sync sees both versions)"
        case .longerThanListed(let path, let listed):
            return "\(path): still being written: the server sent more than the \(listed) bytes it listed; "
                + "left for a later run"
        case .sizeChangedDuringDownload(let path, let listed, let now):
            return "\(path): still being written: listed with \(listed) bytes, \(now) once downloaded; "
                + "left for a later run"
        case .incompleteAction(let what): return "internal: \(what)"
        case .localFolderMissing(let path):
            return "the local folder \(path) does not exist: nothing was changed on the device "
                + "(check `local` and the device's `local_path`; a disk not mounted?)"
        case .conflictCopyFailed(let path, let cause):
            return "\(path): not downloaded: the local version could not be kept as a conflict copy (\(cause)); "
                + "left as it is"
        case .changedDuringDownload(let path, let keptAs):
            return "\(path): changed here while the device's version downloaded; kept, the device's version "
                + "is beside it as \(keptAs)"
        case .conflictReported(let reason):
            return "conflict: \(reason)"
        case .remoteConflictCopyFailed(let path, let cause):
            return "\(path): not uploaded: the device's version could not be kept as a conflict copy (\(cause)); "
                + "left as it is"
        case .uploadWrongSize(let path, let held, let expected):
            return "\(path): the device holds \(held) of \(expected) bytes after the upload; "
                + "not renamed into place, the next run sends it again"
        case .uploadDiffers(let path, let offset):
            return "\(path): the bytes on the device differ from the local file near byte \(offset); "
                + "not renamed into place, the next run sends it again"
        case .uploadHashDiffers(let path, let algorithm):
            return "\(path): the device's \(algorithm) of the upload differs from the local file's; "
                + "not renamed into place, the next run sends it again"
        case .downloadHashDiffers(let path, let algorithm):
            return "\(path): the device's \(algorithm) of the file differs from the bytes received; "
                + "not placed, the next run fetches it again"
        case .unverified(let path, let reason):
            return "\(path): not verified (verify: required): \(reason); not placed — "
                + "set verify: auto to accept the files the server cannot hash"
        case .noServerHash:
            return "verify: required, but the server offers no hash command (HASH, XSHA256, XSHA1, XMD5, XCRC): "
                + "set verify: auto (transfers checked by size only) or use a server that hashes files"
                + " (ProFTPD with mod_digest)"
        case .segmentsDiffer(let path, let algorithm):
            return "\(path): the file fetched in segments does not give the device's \(algorithm); "
                + "not placed, the next run fetches it again"
        case .rangeStartsLikeTheFile(let path):
            return "\(path): a range fetched with REST began with the file's first bytes (the server may "
                + "ignore REST); fetched whole instead"
        case .stillWriting(let temporary, let size):
            return "\(temporary): the device is still writing an earlier attempt (\(size) bytes and growing); "
                + "the next run continues"
        case .notRenamed(let path, let temporary):
            return "\(path): the device answered the rename but \(temporary) is still there; "
                + "not counted as done, the next run tries again"
        case .oldDeleted(let path, let temporary, let cause):
            return "\(path): the device's old file was deleted to make room but the rename failed (\(cause)); "
                + "the upload waits as \(temporary), the next run puts it in place"
        case .renameRefused(let path, let to, let reason):
            return "\(path): not moved to \(to): \(reason); left in place, the next run plans again"
        }
    }
}

extension EngineError {
    /// True for the checks of an upload's temporary before its rename (size, bytes, hash, still
    /// being written): the temporary is not what was sent, or not yet.
    var isUploadCheck: Bool {
        switch self {
        case .uploadWrongSize, .uploadDiffers, .uploadHashDiffers, .stillWriting: return true
        default: return false
        }
    }

    /// True when a transfer's bytes differ from the server's digest of the file.
    var isHashMismatch: Bool {
        switch self {
        case .downloadHashDiffers, .segmentsDiffer, .uploadHashDiffers: return true
        default: return false
        }
    }

    /// True for `.stillWriting`: nothing was found wrong yet, the device is still busy.
    var isStillWriting: Bool {
        if case .stillWriting = self { return true }
        return false
    }

    /// True when a checked upload could not be renamed into place (`notRenamed`, `oldDeleted`).
    var isPlacement: Bool {
        switch self {
        case .notRenamed, .oldDeleted: return true
        default: return false
        }
    }
}
