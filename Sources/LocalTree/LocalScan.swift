// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// The result of scanning a local folder.
public struct LocalScan: Sendable {
    /// Files (size, mtime `.exact`, digest when hashing was asked for and succeeded), folders
    /// (mtime) and symlinks (not followed), sorted by path; the root itself and the top-level
    /// `.ftpsync` folder are not included.
    public var snapshot: Snapshot
    /// Size, mtime, inode and device of every file of the snapshot (regular files only).
    public var identities: PathTable<FileIdentity>
    /// Entries skipped or left without a digest, one line each with the reason
    /// (invalid UTF-8 names, unreadable folders, files that could not be hashed).
    public var notes: [String]
    /// Files read and hashed during this scan.
    public var hashedFiles: Int
    /// Bytes read and hashed during this scan.
    public var hashedBytes: UInt64
    /// Files whose digest came from the cache without reading them.
    public var cachedFiles: Int
    /// Files only a killed ftpsync leaves in the tree (`LocalScanner.isLeftover`), left out of
    /// the snapshot: never synced; pull moves them to the trash.
    public var leftovers: [RelativePath] = []
    /// Names that cannot be synced (not valid UTF-8, a Unicode normalization twin, not a valid
    /// path component), with the reason; also in `notes`. Each makes the device `partial`.
    public var skipped: [SkippedEntry] = []
    /// Folders (and names) below the root that could not be read (EACCES, EIO), with the cause;
    /// the same paths are the snapshot's `unknown` folders.
    public var unreadable: [RelativePath: String]

    /// Makes a scan result from its parts.
    public init(
        snapshot: Snapshot, identities: PathTable<FileIdentity>, notes: [String], hashedFiles: Int = 0,
        hashedBytes: UInt64 = 0, cachedFiles: Int = 0, unreadable: [RelativePath: String] = [:]
    ) {
        self.unreadable = unreadable
        self.snapshot = snapshot
        self.identities = identities
        self.notes = notes
        self.hashedFiles = hashedFiles
        self.hashedBytes = hashedBytes
        self.cachedFiles = cachedFiles
    }
}
