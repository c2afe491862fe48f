// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import LocalTree
import SyncCore

extension PushExecutor {
    /// Bytes compared on each side of a resume point, and at the end.
    static let verifiedSpan: UInt64 = 4096

    /// Checks the temporary before RNTO (issue 13 item 7, issue 21): its size (SIZE, else the
    /// folder's listing) must be the file's size; with `verify` not off, the server's digest of
    /// the temporary (HASH, XSHA256, ...) must equal the local file's (hashed here meanwhile).
    /// Where there is no digest and the upload was resumed or retried, the bytes at its head,
    /// middle and end and on both sides of each resume point must equal the local file's (REST
    /// + short RETR). A check the server cannot answer is skipped (with `verify: required`,
    /// the missing digest fails); one that fails throws.
    /// - Parameters:
    ///   - folder: the absolute remote folder holding the temporary, `name` its name.
    ///   - local: the open local file, at `localPath`.
    /// - Returns: the server's digest as recorded (`ALGORITHM:hex`), nil when not compared.
    /// - Throws: `EngineError.uploadWrongSize`, `.uploadHashDiffers`, `.uploadDiffers`,
    ///   `.unverified`.
    func verifyTemporary(
        _ temporary: String, folder: String, name: String, path: RelativePath, size: UInt64,
        local file: LocalFileReader, localPath: String, resumedAt: [UInt64]
    ) throws -> String? {
        let held = (try? remote.size(temporary)) ?? listedSize(of: name, in: folder)
        if let held, held != size {
            throw EngineError.uploadWrongSize(path: path.string, held: held, expected: size)
        }
        if job.verify != .off {
            let here = remote.expectedHashAlgorithm.map { BackgroundContentDigest(path: localPath, algorithm: $0) }
            let hash: ServerHash?
            var why: String?
            do {
                hash = try remote.serverHash(temporary, size: size)
                if hash == nil { why = UnverifiedTransfer.noHash(offered: remote.expectedHashAlgorithm) }
            } catch {
                hash = nil
                why = "the server's hash failed: \(error)"
            }
            if let hash {
                let local = here?.algorithm == hash.algorithm ? here?.wait() : try file.digest(hash.algorithm)
                guard let local else {
                    throw EngineError.unverified(
                        path: path.string, reason: "\(hash.algorithm.rawValue) cannot be computed here")
                }
                if local != hash.digest {
                    throw EngineError.uploadHashDiffers(path: path.string, algorithm: hash.algorithm.rawValue)
                }
                return ServerDigestText.format(hash)
            }
            if let why {
                if job.verify == .required { throw EngineError.unverified(path: path.string, reason: why) }
                UnverifiedTransfer.note(path, why, notes: &notes, notedSizeOnly: &notedSizeOnly)
            }
        }
        guard !resumedAt.isEmpty else { return nil }
        let points = resumedAt.filter { $0 > 0 && $0 < size }
        let span = Self.verifiedSpan
        let ranges =
            UploadIntent.sampleRanges(size: size, length: span)
            + points.map { point in
                (point > span ? point - span : 0)..<(size - point > span ? point + span : size)
            }
        if SampledBytes.compare(remote: remote, remotePath: temporary, local: file, ranges: ranges)
            == .mismatched
        {
            throw EngineError.uploadDiffers(path: path.string, offset: points.first ?? 0)
        }
        return nil
    }

    /// Whether the first `count` bytes of the temporary at `temporary` are the local file's at
    /// `localPath` (the server's digest of that range against the same bytes here), before an
    /// upload is resumed after them; nil when the server cannot hash a range (or `verify` is
    /// off): the resumed upload is then checked by sampled bytes after it.
    func temporaryMatches(_ temporary: String, count: UInt64, localPath: String) -> Bool? {
        guard job.verify != .off, count > 0,
            let hash = (try? remote.serverHash(temporary, range: 0..<count)) ?? nil
        else { return nil }
        let hasher = hash.algorithm.makeHasher()
        guard let file = try? LocalFileReader(path: localPath),
            (try? file.forEachChunk(upTo: count) { hasher.update($0) }) == count
        else { return false }
        return hasher.finalize() == hash.digest
    }

    /// `verifyTemporary` of the upload of `path` (the local file at `local`) to `temporary`.
    /// - Returns: the server's digest as recorded, nil when not compared.
    func verifyTemporary(_ temporary: String, path: RelativePath, size: UInt64, local: String, resumedAt: [UInt64])
        throws -> String?
    {
        let reader = try LocalFileReader(path: local)
        return try verifyTemporary(
            temporary, folder: remotePath(root: job.remoteRoot, relative: path.parent.string),
            name: UploadNaming.temporaryName(for: path.name), path: path, size: size, local: reader,
            localPath: local, resumedAt: resumedAt)
    }

    /// The exact size the folder's listing gives `name`, if it lists it.
    private func listedSize(of name: String, in folder: String) -> UInt64? {
        guard let listing = try? remote.list(folder) else { return nil }
        let entry = listing.entries.first { $0.name == name && $0.type == .file }
        guard let entry, entry.sizeIsExact else { return nil }
        return entry.size
    }
}
