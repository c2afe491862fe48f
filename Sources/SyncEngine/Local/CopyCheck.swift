// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncCore

/// Whether a device file and a local file hold the same bytes, asked of the device: by the
/// server's hash (`HASH`, `XSHA256`, …) when it offers one, else by the sampled ranges of
/// `SampledRanges` (head, middle, tail; a small file whole), each read with REST and a short
/// RETR. Only reads, on both sides. Used to prove a move (`MoveEvidenceCheck`) and before an
/// offload's DELE (`PullExecutor.offload`).
enum CopyCheck {
    /// The server's hash of the device file at `path` (absolute; `size` bytes) against the
    /// same hash of the open local `file`.
    /// - Returns: nil when the server offers no hash; else whether the two digests are equal
    ///   (false too when the local digest cannot be computed).
    /// - Throws: when the server refuses or fails the hash, or the local file cannot be read.
    static func serverHashMatches(remote: RemoteFileSystem, path: String, size: UInt64, file: LocalFileReader)
        throws -> (matches: Bool, algorithm: String)?
    {
        guard let hash = try remote.serverHash(path, size: size) else { return nil }
        guard let here = try file.digest(hash.algorithm) else { return (false, hash.algorithm.rawValue) }
        return (here == hash.digest, hash.algorithm.rawValue)
    }

    /// Whether the sampled ranges of the device file at `path` (absolute; `size` bytes) equal
    /// the same bytes of the open local `file`.
    /// - Throws: transfer errors (REST refused, the file gone) and local read errors.
    static func sampledBytesMatch(remote: RemoteFileSystem, path: String, size: UInt64, file: LocalFileReader)
        throws -> Bool
    {
        for range in SampledRanges.ranges(size: size) {
            let there = try remote.readRange(path, from: range.offset, count: Int(clamping: range.count))
            guard there.count == range.count,
                there == (try file.read(from: range.offset, count: Int(clamping: range.count)))
            else { return false }
        }
        return true
    }
}
