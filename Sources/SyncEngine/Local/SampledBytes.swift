// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

/// Compares byte ranges of a file on the device with the same ranges of a local file: REST and
/// a short RETR per range, the transfer abandoned once the range has arrived.
enum SampledBytes {
    /// Reads `ranges` of `remotePath` and of the open local file `local` and compares them.
    /// - Returns: `.matched` when every range is equal, `.mismatched` when one differs or the
    ///   device's file ends early, `.unavailable` when the device or the local file could not
    ///   be read.
    static func compare(
        remote: RemoteFileSystem, remotePath: String, local: LocalFileReader, ranges: [Range<UInt64>]
    ) -> UploadIntent.Sample {
        for range in ranges {
            let wanted = Int(clamping: range.upperBound - range.lowerBound)
            guard let here = try? local.read(from: range.lowerBound, count: wanted), here.count == wanted else {
                return .unavailable
            }
            guard let device = try? remote.readRange(remotePath, from: range.lowerBound, count: wanted) else {
                return .unavailable
            }
            if device != here { return .mismatched }
        }
        return .matched
    }
}

extension RemoteFileSystem {
    /// `count` bytes of the device file at `path` from byte `offset` (fewer when it ends first):
    /// REST + RETR, the data connection closed once they came (the transfer's final reply, 426
    /// or 226, is read).
    /// - Throws: the transfer's errors (`FTPError`).
    func readRange(_ path: String, from offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        do {
            _ = try retrieve(path, from: offset) { chunk in
                bytes += chunk.prefix(count - bytes.count)
                if bytes.count >= count { throw RangeComplete() }
            }
        } catch is RangeComplete {
            // The rest was not wanted.
        }
        return bytes
    }
}

/// Thrown by a sink once the range it wanted has arrived; ends the RETR early.
private struct RangeComplete: Error {}
