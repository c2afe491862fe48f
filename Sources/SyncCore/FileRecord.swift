// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What both sides held at a path at the end of the last successful sync of one device.
///
/// The remote half is kept exactly as the listing gave it, so the next listing is compared with
/// the listing (never with the local clock); the local half is what the file system said after
/// the transfer.
public struct FileRecord: Sendable, Hashable {
    public var path: RelativePath
    /// Size in bytes, as listed by the server.
    public var remoteSize: UInt64?
    /// Modification time, as listed by the server.
    public var remoteModified: FileTime?
    /// Size in bytes of the local file.
    public var localSize: UInt64
    /// Modification time of the local file.
    public var localModified: FileTime
    /// XXH3-128 digest of the content, 32 lowercase hex digits.
    public var digest: String?
    /// True once `--remove-source` deleted the device's file (`Offload`): the local copy is the
    /// only one left, so it is never deleted for being gone from the device, and a device file
    /// that appears again at this path is a new file.
    public var offloaded = false
    /// The server's own digest of the device file when it was last transferred or verified, as
    /// `ALGORITHM:hex` (`SHA-256:9f86…`, the names of `HASH`); nil when the server gave none.
    /// `ftpsync verify` tells by it which side changed.
    public var serverDigest: String?

    public init(
        path: RelativePath, remoteSize: UInt64?, remoteModified: FileTime?, localSize: UInt64,
        localModified: FileTime, digest: String?
    ) {
        self.path = path
        self.remoteSize = remoteSize
        self.remoteModified = remoteModified
        self.localSize = localSize
        self.localModified = localModified
        self.digest = digest
    }
}

/// A download that was interrupted: its bytes so far wait under `.ftpsync/`, tied to the remote
/// file as it was listed when the download started.
public struct PartialTransfer: Sendable, Hashable {
    public var path: RelativePath
    /// Remote size and time when the transfer started; a resume requires both to be unchanged.
    public var remoteSize: UInt64?
    public var remoteModified: FileTime?
    /// Bytes already written to the partial file.
    public var bytesDone: UInt64

    public init(path: RelativePath, remoteSize: UInt64?, remoteModified: FileTime?, bytesDone: UInt64) {
        self.path = path
        self.remoteSize = remoteSize
        self.remoteModified = remoteModified
        self.bytesDone = bytesDone
    }
}
