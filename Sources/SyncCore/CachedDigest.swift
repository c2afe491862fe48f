// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// One remembered digest: the XXH3-128 of a file as it was when its size, modification time and
/// inode were the ones given here.
public struct CachedDigest: Sendable, Hashable {
    /// The cache key path: relative to the state root (`<local>`), `/`-separated, e.g.
    /// `front-camera/DCIM/a.jpg` (the key of LocalTree's `HashCache` and of the state's digest table).
    public var path: String
    /// Size in bytes.
    public var size: UInt64
    /// Modification time in nanoseconds since 1970-01-01T00:00:00Z.
    public var mtimeNanoseconds: Int64
    /// Inode number.
    public var inode: UInt64
    /// XXH3-128 digest, 32 lowercase hex digits.
    public var digest: String

    /// Makes an entry from its fields.
    public init(path: String, size: UInt64, mtimeNanoseconds: Int64, inode: UInt64, digest: String) {
        self.path = path
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.digest = digest
    }
}
