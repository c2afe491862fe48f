// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What identifies the content of a local file for the digest cache: if none of these changed,
/// the content is taken as unchanged.
public struct FileIdentity: Sendable, Hashable {
    /// Size in bytes.
    public var size: UInt64
    /// Modification time in nanoseconds since 1970-01-01T00:00:00Z.
    public var mtimeNanoseconds: Int64
    /// Inode number.
    public var inode: UInt64
    /// Device number of the file system holding the file.
    public var device: UInt64

    /// Makes an identity from its fields.
    public init(size: UInt64, mtimeNanoseconds: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.device = device
    }

    /// The modification time as a `FileTime` of granularity `.exact`.
    public var modified: FileTime {
        FileTime(seconds: FileIdentity.seconds(nanoseconds: mtimeNanoseconds), granularity: .exact)
    }

    /// Seconds since the epoch for a count of nanoseconds since the epoch.
    public static func seconds(nanoseconds: Int64) -> Double {
        let (whole, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return Double(whole) + Double(rest) / 1e9
    }
}
