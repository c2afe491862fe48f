// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation

/// What the engine needs from a device, whatever the transport. The FTP adapter (`FTPRemote`)
/// is the one used today; another transport (Network.framework on Apple systems) would
/// implement the same calls.
///
/// Calls block; they are made from threads the engine owns, never from async tasks.
public protocol RemoteFileSystem: AnyObject {
    /// Lists one folder (an absolute remote path).
    /// - Throws: when the folder cannot be listed (the device run fails).
    func list(_ path: String) throws -> ParsedListing

    /// Downloads `path` from byte `offset`, passing each chunk of data to `sink`.
    /// - Returns: the number of bytes received.
    /// - Throws: transfer errors, or whatever `sink` throws.
    func retrieve(_ path: String, from offset: UInt64, to sink: (UnsafeRawBufferPointer) throws -> Void) throws
        -> UInt64

    /// Uploads `length` bytes of `source` from its byte `sourceOffset` (fewer when the source
    /// ends first) to `path`: STOR, or APPE when `append`, preceded by `REST offset` when
    /// `offset` > 0 (RFC 959 §4.1.3, RFC 3659 §5). `progress` gets the bytes sent after each
    /// step and may throw to abandon the transfer.
    /// - Returns: the number of bytes sent.
    /// - Throws: transfer errors (a 5xx reply when the server refuses APPE or REST), what
    ///   `source` throws (a local read error), or what `progress` throws.
    func store(
        _ path: String, from offset: UInt64, append: Bool, source: UploadSource, sourceOffset: UInt64,
        length: UInt64, progress: (Int) throws -> Void
    ) throws -> UInt64

    /// Size of a file in bytes (SIZE). - Throws: when the file is missing or SIZE is refused.
    func size(_ path: String) throws -> UInt64

    /// Deletes a file (DELE). - Throws: when refused.
    func delete(_ path: String) throws

    /// Renames a file or folder (RNFR/RNTO). - Throws: when either step is refused.
    func rename(from: String, to: String) throws

    /// Creates a folder (MKD). - Throws: when refused.
    func makeDirectory(_ path: String) throws

    /// Removes an empty folder (RMD). - Throws: when refused.
    func removeDirectory(_ path: String) throws

    /// Sets a file's modification time (UTC, whole seconds): MFMT, else the two-argument MDTM.
    /// - Throws: when the server refuses both.
    func setModificationTime(_ path: String, _ date: Date) throws

    /// Ends the session politely (QUIT); never throws.
    func close()

    /// Whether `path` is an existing folder, asked of the folder itself (an empty listing does
    /// not tell: some servers list a missing path as empty).
    /// - Returns: true or false, or nil when the server cannot tell.
    /// - Throws: connection errors.
    func folderExists(_ path: String) throws -> Bool?

    /// A file's modification time to the second (MDTM, RFC 3659 §3; UTC).
    /// - Returns: nil when the server offers no MDTM.
    /// - Throws: when the server refuses it for this file (550: missing).
    func preciseModificationTime(_ path: String) throws -> Date?

    /// `preciseModificationTime` of several files at once (a transport may pipeline them), in
    /// the order of `paths`: each a time, or the error of that file.
    /// - Returns: nil when the server offers no MDTM.
    /// - Throws: connection errors.
    func preciseModificationTimes(_ paths: [String]) throws -> [Result<Date, Error>]?

    /// `size` of several files at once (a transport may pipeline them), in the order of
    /// `paths`: each a size, or the error of that file.
    /// - Throws: connection errors.
    func sizes(_ paths: [String]) throws -> [Result<UInt64, Error>]

    /// False once the connection can carry no more commands (closed by the server, timed out;
    /// for a reconnecting remote: once reconnecting failed after every retry). A transfer
    /// worker stops taking actions then.
    var isConnected: Bool { get }

    /// What the server says of itself (banner, SYST, FEAT, certificate), for the identity check
    /// of a device run; nil when the transport cannot tell (the check is skipped).
    func identity() -> RemoteIdentity?

    /// What this connection learned of the server from its listings (its spelling of names, its
    /// clock offset); set to hand it to another connection of the same device run (a sibling).
    var learned: LearnedState { get set }

    /// The server's digest of the file at `path` (HASH, XSHA256, …; `FTPSession.serverHash`);
    /// `size` (bytes) is the expected size, for the commands that take a range.
    /// - Returns: nil when the server offers no file hash (nothing is sent).
    /// - Throws: when the server refuses or fails the hash of this file.
    func serverHash(_ path: String, size: UInt64?) throws -> ServerHash?

    /// The server's digest of the bytes `range` of the file at `path` (`FTPSession.serverHash(_:range:)`).
    /// - Returns: nil when the server cannot hash part of a file.
    /// - Throws: when the server refuses or fails the hash.
    func serverHash(_ path: String, range: Range<UInt64>) throws -> ServerHash?

    /// The algorithm `serverHash` gives its digests in, as far as is known before asking (for
    /// hashing bytes here as they stream); nil when unknown or none.
    var expectedHashAlgorithm: ServerHashAlgorithm? { get }

    /// The algorithm the server hashes files with, asking it first when that is not known
    /// (`FTPSession.fileHashAlgorithm`); nil when it offers none.
    /// - Throws: connection errors.
    func fileHashAlgorithm() throws -> ServerHashAlgorithm?

    /// Ends the open session, if the transport can, so that the next call opens a fresh one:
    /// for a server that may answer a question from what the session was told before (ProFTPD's
    /// mod_digest keeps a session's digests by path and time: an upload sent again under the
    /// same name and time got the first upload's digest).
    func startAfresh()

    /// One line per retry made so far (`what: error; retry n of m after s`), for the device's notes.
    var retryLog: [String] { get }

    /// Runs `operation` until it succeeds or fails for good; a reconnecting remote tries a
    /// transient failure again after a backoff (over a fresh connection when the old one is
    /// gone). `progress` tells how far the work got (bytes): an attempt after which it grew
    /// does not count against the retries.
    /// - Throws: the first permanent error, the last transient one, or `RunInterrupted`.
    func retrying<T>(_ what: String, progress: () -> UInt64, operation: () throws -> T) throws -> T

    /// Tells what follows the next transfer of a file (`retrieve`, `store`): a SIZE of the same
    /// file, after a download the next file to download (absolute remote paths). A transport
    /// that pipelines sends them ahead (`FTPSession.announce`); the calls for them stay the
    /// same. For the next transfer only.
    func announce(_ followUp: TransferFollowUp)
}

extension RemoteFileSystem {
    /// A transport that cannot ask does not know: nil.
    public func folderExists(_ path: String) throws -> Bool? { nil }

    /// A transport without MDTM: nil.
    public func preciseModificationTime(_ path: String) throws -> Date? { nil }

    /// One `size` after the other.
    public func sizes(_ paths: [String]) throws -> [Result<UInt64, Error>] {
        paths.map { path in Result { try size(path) } }
    }

    /// One `preciseModificationTime` after the other: nil at the first nil (no MDTM).
    public func preciseModificationTimes(_ paths: [String]) throws -> [Result<Date, Error>]? {
        var results: [Result<Date, Error>] = []
        for path in paths {
            do {
                guard let date = try preciseModificationTime(path) else { return nil }
                results.append(.success(date))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// A transport that cannot tell is taken as connected.
    public var isConnected: Bool { true }

    /// A transport that cannot tell: nil (no identity check).
    public func identity() -> RemoteIdentity? { nil }

    /// A transport that learns nothing: empty, and what it is given is dropped.
    public var learned: LearnedState {
        get { LearnedState() }
        set {}
    }

    /// A transport without file hashes: nil.
    public func serverHash(_ path: String, size: UInt64?) throws -> ServerHash? { nil }

    /// A transport without file hashes: nil.
    public func serverHash(_ path: String, range: Range<UInt64>) throws -> ServerHash? { nil }

    /// A transport without file hashes: nil.
    public var expectedHashAlgorithm: ServerHashAlgorithm? { nil }

    /// A transport without file hashes: nil.
    public func fileHashAlgorithm() throws -> ServerHashAlgorithm? { nil }

    /// A transport of one session: nothing to do.
    public func startAfresh() {}

    /// A transport that sends nothing ahead: nothing to do.
    public func announce(_ followUp: TransferFollowUp) {}

    /// A transport that does not retry: no lines.
    public var retryLog: [String] { [] }

    /// A transport that does not retry: `operation`, once.
    public func retrying<T>(_ what: String, progress: () -> UInt64, operation: () throws -> T) throws -> T {
        try operation()
    }
}

/// Joins a remote root (`/DCIM`, `/`) and a relative path into an absolute remote path: the
/// one place remote paths are joined (the engine, the FTP adapter, the CLI's `ls`).
/// - Parameters:
///   - root: an absolute remote folder; empty means `/`; trailing slashes are ignored.
///   - relative: a path below it (`a/b.jpg`); empty for `root` itself.
public func remotePath(root: String, relative: String) -> String {
    var base = root.isEmpty ? "/" : root
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    if relative.isEmpty { return base }
    return base == "/" ? "/" + relative : base + "/" + relative
}
