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

    /// Uploads `length` bytes of the open local file `file` from its byte `fileOffset` (fewer when
    /// the file ends first) to `path`:
    /// STOR, or APPE when `append`, preceded by `REST offset` when `offset` > 0. Plain data
    /// connections send with sendfile(2). `progress` gets the bytes sent after each step and
    /// may throw to abandon the transfer.
    /// - Returns: the number of bytes sent.
    /// - Throws: transfer errors (a 5xx reply when the server refuses APPE or REST), a local
    ///   read error, or what `progress` throws.
    func store(
        _ path: String, from offset: UInt64, append: Bool, file: Int32, fileOffset: UInt64, length: UInt64,
        progress: (Int) throws -> Void
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
}

extension RemoteFileSystem {
    /// A transport that cannot ask does not know: nil.
    public func folderExists(_ path: String) throws -> Bool? { nil }

    /// A transport without MDTM: nil.
    public func preciseModificationTime(_ path: String) throws -> Date? { nil }
}

/// Joins a remote root (`/DCIM`, `/`) and a relative path into an absolute remote path.
func remotePath(root: String, relative: String) -> String {
    var base = root.isEmpty ? "/" : root
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    if relative.isEmpty { return base }
    return base == "/" ? "/" + relative : base + "/" + relative
}
