// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import SyncCore
import SyncEngine

/// What `ftpsync verify` found for one recorded file (issue 21): whether the local copy still
/// matches the device file (or, checked locally, the digest recorded at the last sync) and,
/// when it does not, which side changed as far as the recorded digests tell.
public struct FileVerdict: Sendable, Equatable {
    /// The outcome for one file.
    public enum Status: String, Sendable, Equatable, CaseIterable {
        /// The digests match.
        case ok
        /// The digests differ.
        case differs
        /// The local file is gone.
        case missingLocal = "missing_local"
        /// The device file is gone (the server answered 550 and SIZE does not find it either).
        case missingRemote = "missing_remote"
        /// Nothing to compare with: the server cannot or will not hash the file, no digest was
        /// recorded (checked locally), or the local file cannot be read.
        case unverifiable
    }

    /// The side that changed since the last sync.
    public enum Side: String, Sendable, Equatable {
        /// The local file.
        case local
        /// The device file.
        case device
        /// Both: the local file differs from its recorded digest, the device's from its.
        case both
        /// The digests differ, and the state cannot tell which side moved.
        case unknown
    }

    /// The file, relative to the device's roots.
    public var path: RelativePath
    /// What was found.
    public var status: Status
    /// The side that changed, for `differs`, `missing_local` and `missing_remote`; nil otherwise.
    public var changed: Side?
    /// One line saying what was compared and what differs or failed; nil for `ok`.
    public var detail: String?

    /// A verdict from its parts.
    public init(path: RelativePath, status: Status, changed: Side? = nil, detail: String? = nil) {
        self.path = path
        self.status = status
        self.changed = changed
        self.detail = detail
    }
}

/// A local file as read now, for `VerifyJudge`.
public struct LocalFileDigests: Sendable, Equatable {
    /// Size in bytes.
    public var size: UInt64
    /// Modification time (`lstat`).
    public var modified: FileTime
    /// XXH3-128 of the content, 32 lowercase hex digits (`FileRecord.digest`'s form).
    public var xxh3: String
    /// The content's digest by the server's algorithm; nil when not computed (checked locally,
    /// or the algorithm cannot be computed here).
    public var server: ServerHash?

    /// The facts of one read of the file.
    public init(size: UInt64, modified: FileTime, xxh3: String, server: ServerHash? = nil) {
        self.size = size
        self.modified = modified
        self.xxh3 = xxh3
        self.server = server
    }
}

/// The comparisons of `ftpsync verify`, pure: a record, the local file as read now and the
/// server's digest as given now, to a `FileVerdict`.
///
/// Which side changed is told by the digests recorded at the last sync: the local file's XXH3
/// (`FileRecord.digest`) against the one computed now, and the server's digest
/// (`FileRecord.serverDigest`, when of the same algorithm) against the one it gives now. A side
/// whose digest is unchanged points at the other.
public enum VerifyJudge {
    /// `record`'s local file (`local`) against the device file's digest `server`.
    /// - Returns: `ok` when `local.server` equals `server`; `differs` with the side that changed;
    ///   `unverifiable` when the local digest by `server`'s algorithm could not be computed.
    public static func judge(_ record: FileRecord, local: LocalFileDigests, server: ServerHash) -> FileVerdict {
        let name = server.algorithm.rawValue
        guard let here = local.server, here.algorithm == server.algorithm else {
            return FileVerdict(
                path: record.path, status: .unverifiable, detail: "\(name) cannot be computed here")
        }
        if here.digest == server.digest { return FileVerdict(path: record.path, status: .ok) }
        let localChanged = record.digest.map { $0.lowercased() != local.xxh3.lowercased() }
        let recorded = record.serverDigest.flatMap(ServerDigestText.parse)
        let deviceChanged = recorded.flatMap { $0.algorithm == server.algorithm ? $0.digest != server.digest : nil }
        let localHow = localChange(record, local)
        let differs = "\(name) differs; "
        switch (localChanged, deviceChanged) {
        case (true, true):
            return FileVerdict(
                path: record.path, status: .differs, changed: .both,
                detail: differs + "both changed since the last sync: " + localHow + ", and the device file changed")
        case (true, _), (nil, false):
            return FileVerdict(path: record.path, status: .differs, changed: .local, detail: differs + localHow)
        case (_, true):
            return FileVerdict(
                path: record.path, status: .differs, changed: .device, detail: differs + "the device file changed")
        case (false, nil):
            // No server digest recorded: the transfer was not checked with one, and the copy
            // may never have matched (a link that flipped a bit with `verify: off`).
            return FileVerdict(
                path: record.path, status: .differs, changed: .unknown,
                detail: differs
                    + "the local file is as recorded; the device file changed since, or the copy never matched"
                    + " (no server digest was recorded when it was transferred)")
        case (false, false):
            return FileVerdict(
                path: record.path, status: .differs, changed: .unknown,
                detail: differs
                    + "neither side changed since the last sync by the recorded digests: the copy never matched "
                    + "(transferred without verification?)")
        case (nil, nil):
            return FileVerdict(
                path: record.path, status: .differs, changed: .unknown,
                detail: differs + "which side changed cannot be told (no digests recorded at the last sync)")
        }
    }

    /// `record`'s local file (`local`) against the XXH3 digest recorded at the last sync, with
    /// no network (`verify --local`).
    /// - Returns: `ok` when they match; `differs` (the local side changed: bit rot when its size
    ///   and time are as recorded); `unverifiable` when no digest was recorded.
    public static func judgeLocally(_ record: FileRecord, local: LocalFileDigests) -> FileVerdict {
        guard let recorded = record.digest else {
            return FileVerdict(
                path: record.path, status: .unverifiable, detail: "no XXH3 digest was recorded at the last sync")
        }
        if recorded.lowercased() == local.xxh3.lowercased() { return FileVerdict(path: record.path, status: .ok) }
        let how =
            keepsShape(record, local)
            ? "the local file changed with its size and time kept (bit rot)"
            : localChange(record, local)
        return FileVerdict(
            path: record.path, status: .differs, changed: .local,
            detail: "XXH3 differs from the recorded digest; " + how)
    }

    /// True when the local file's size and time are those recorded at the last sync: a change
    /// of content then is damage, not an edit.
    public static func keepsShape(_ record: FileRecord, _ local: LocalFileDigests) -> Bool {
        local.size == record.localSize && local.modified.matches(record.localModified)
    }

    /// How the local file changed, for a detail: with its size and time kept (damage), or not.
    private static func localChange(_ record: FileRecord, _ local: LocalFileDigests) -> String {
        keepsShape(record, local)
            ? "the local file changed with its size and time kept (damage)"
            : "the local file changed since the last sync, its size or time too (edited here?)"
    }
}
