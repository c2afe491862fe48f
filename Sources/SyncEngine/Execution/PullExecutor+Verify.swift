// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncCore

/// Downloads checked against the server's own hash of the file (issue 21, `verify`): the bytes
/// are hashed by the server's algorithm as they arrive, compared with its digest (`HASH`,
/// `XSHA256`, …) before the file is placed; a file that differs is fetched again, at most
/// `hashAttempts` times in all. A partial is resumed only once its bytes are proven the device
/// file's (`resumeMatches`).
extension PullExecutor {
    /// Times a download whose bytes differ from the server's digest is fetched in all (a link
    /// that flips a bit rarely does it twice in a row).
    static let hashAttempts = 3

    /// Bytes before a resume point read back from the device when it cannot hash a range.
    static let resumeCheckSpan = 64 * 1024

    /// `downloadOnce`, again from byte 0 while the bytes received differ from the server's
    /// digest, `hashAttempts` times in all.
    /// - Throws: the last mismatch (`downloadHashDiffers`, `segmentsDiffer`), or what the
    ///   download throws.
    func downloadChecked(_ action: Action, id: Int) throws -> UInt64 {
        var attempt = action
        var moved: UInt64 = 0
        for round in 1...Self.hashAttempts {
            do {
                let got = try downloadOnce(attempt, id: id)
                if round > 1 { startedFrom = 0 }
                return Saturating.add(moved, got)
            } catch let error as EngineError where error.isHashMismatch && round < Self.hashAttempts {
                notes.append("\(error.description.prefix { $0 != ";" }); fetched again")
                moved = Saturating.add(moved, attempt.source?.size.map { $0 - min($0, attempt.offset) } ?? 0)
                attempt.offset = 0
            }
        }
        throw EngineError.incompleteAction("unreachable")
    }

    /// A hasher of the algorithm the server's digest will come in, for the bytes of a download
    /// as they arrive; nil with `verify: off` or when the server offers no hash. Asked before
    /// the transfer: the session decides then how it asks for digests (a round trip, once).
    func streamingHasher() -> ContentHasher? {
        guard job.verify != .off else { return nil }
        return ((try? remote.fileHashAlgorithm()) ?? nil)?.makeHasher()
    }

    /// Checks the whole downloaded file against the server's digest of `action`'s device file
    /// (`size` bytes): `streamed` when it hashed the bytes by the server's algorithm, else the
    /// file read back (`file`).
    /// - Returns: the server's digest as recorded (`ALGORITHM:hex`); nil when not checked
    ///   (`verify: off`; with `auto`, a server that offers or gives no digest).
    /// - Throws: `EngineError.downloadHashDiffers` when the digests differ; with `verify:
    ///   required`, `EngineError.unverified` when there is no digest to compare.
    func verifyDownload(
        _ action: Action, size: UInt64, streamed: ContentHasher?, file: () throws -> LocalFileReader
    ) throws -> String? {
        guard job.verify != .off else { return nil }
        let path = remotePath(root: job.remoteRoot, relative: action.path.string)
        let hash: ServerHash
        do {
            guard let got = try remote.serverHash(path, size: size) else {
                try unverified(action.path, UnverifiedTransfer.noHash(offered: remote.expectedHashAlgorithm))
                return nil
            }
            hash = got
        } catch let error as EngineError {
            throw error
        } catch {
            try unverified(action.path, "the server's hash failed: \(error)")
            return nil
        }
        let here: [UInt8]?
        if let streamed, streamed.algorithm == hash.algorithm {
            here = streamed.finalize()
        } else {
            here = try file().digest(hash.algorithm)
        }
        guard let here else {
            try unverified(action.path, "\(hash.algorithm.rawValue) cannot be computed here")
            return nil
        }
        guard here == hash.digest else {
            throw EngineError.downloadHashDiffers(path: action.path.string, algorithm: hash.algorithm.rawValue)
        }
        return ServerDigestText.format(hash)
    }

    /// The finished partial's XXH3 digest and, compared with the server's digest of the file
    /// (`verifyDownload`), the server's digest as recorded (nil when not checked); one read of
    /// the file for both.
    /// - Throws: `EngineError.segmentsDiffer` on a mismatch (the partial and its row are
    ///   removed: it is fetched again); what `verifyDownload` throws otherwise.
    func segmentDigests(_ action: Action, size: UInt64, file: String, name: String, in partials: TreeFolder)
        throws -> (String, String?)
    {
        let reader = try LocalFileReader(path: file, followingSymlink: false)
        let local = try XXH3Hasher()
        let check = streamingHasher()
        try reader.forEachChunk {
            local.update($0)
            check?.update($0)
        }
        do {
            return (local.finalize(), try verifyDownload(action, size: size, streamed: check, file: { reader }))
        } catch EngineError.downloadHashDiffers(let path, let algorithm) {
            _ = try? partials.removeFile(name)
            try? store?.removePartial(path: action.path, device: job.name)
            throw EngineError.segmentsDiffer(path: path, algorithm: algorithm)
        }
    }

    /// A download of `path` that could not be checked (`why`): with `verify: required` it fails
    /// (`EngineError.unverified`); with `auto` it is accepted on its size, noted (once per
    /// connection when the server has no hash command at all).
    func unverified(_ path: RelativePath, _ why: String) throws {
        if job.verify == .required { throw EngineError.unverified(path: path.string, reason: why) }
        UnverifiedTransfer.note(path, why, notes: &notes, notedSizeOnly: &notedSizeOnly)
    }

    /// Whether the bytes the partial at `partialPath` holds before `action.offset` are the
    /// device file's own: compared with the server's digest of that range when it can hash a
    /// range (`verify` not off), else their last 64 KiB read back (REST + a short RETR); false
    /// when they differ or either side cannot be read (the download then starts over).
    func resumeMatches(_ action: Action, partialPath: String) -> Bool {
        guard let partial = try? LocalFileReader(path: partialPath, followingSymlink: false) else { return false }
        let path = remotePath(root: job.remoteRoot, relative: action.path.string)
        if job.verify != .off, let matches = keptRangeMatches(partial, count: action.offset, remote: path) {
            return matches
        }
        return keptBytesMatch(partial, before: action.offset, within: action.offset, remote: path)
    }

    /// Whether the first `count` bytes of `partial` give the server's digest of the same range
    /// of the device file at `path`; nil when the server cannot hash a range (or failed to).
    func keptRangeMatches(_ partial: LocalFileReader, count: UInt64, remote path: String) -> Bool? {
        guard let hash = (try? remote.serverHash(path, range: 0..<count)) ?? nil else { return nil }
        let hasher = hash.algorithm.makeHasher()
        guard (try? partial.forEachChunk(upTo: count) { hasher.update($0) }) == count,
            let here = hasher.finalize()
        else { return false }
        return here == hash.digest
    }
}

/// Why a transfer could not be checked with the server's hash, as the notes and errors say it.
enum UnverifiedTransfer {
    /// The server offers no command that hashes a file (FEAT, and `OPTS HASH` asked).
    static let noHashCommand = "the server offers no hash command"
    /// The device's note when its transfers were checked by size only, once per connection.
    static let sizeOnlyNote =
        "transfers checked by size only: the server offers no hash command (verify: auto;"
        + " `ftpsync check` shows what it offers)"

    /// Why the server gave no digest: it has no hash command, or (`offered`: it hashes with
    /// that algorithm) its commands cannot take this file's name (the older ones take none with
    /// a space).
    static func noHash(offered: ServerHashAlgorithm?) -> String {
        guard let offered else { return noHashCommand }
        return "the server's \(offered.legacyCommand) cannot take this name (it has no HASH command)"
    }

    /// Adds the note of an unverified transfer of `path` (`why`) to `notes`: the note that the
    /// server has no hash command once (`notedSizeOnly`), any other reason per file.
    static func note(_ path: RelativePath, _ why: String, notes: inout [String], notedSizeOnly: inout Bool) {
        if why == noHashCommand {
            if !notedSizeOnly { notes.append(sizeOnlyNote) }
            notedSizeOnly = true
        } else {
            notes.append("\(path): not verified, accepted on its size: \(why)")
        }
    }
}

/// A server's digest as the state keeps it (`FileRecord.serverDigest`): `ALGORITHM:hex`.
public enum ServerDigestText {
    /// `SHA-256:9f86…` for `hash`.
    public static func format(_ hash: ServerHash) -> String {
        hash.algorithm.rawValue + ":" + hash.digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The digest `text` holds; nil when it is not one (`format`'s form).
    public static func parse(_ text: String) -> ServerHash? {
        guard let colon = text.lastIndex(of: ":"),
            let algorithm = ServerHashAlgorithm(rawValue: String(text[..<colon])),
            let digest = algorithm.digest(fromHex: text[text.index(after: colon)...])
        else { return nil }
        return ServerHash(algorithm: algorithm, digest: digest)
    }
}
