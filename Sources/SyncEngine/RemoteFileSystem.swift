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

    /// Ends the session politely (QUIT); never throws.
    func close()
}

/// Joins a remote root (`/DCIM`, `/`) and a relative path into an absolute remote path.
func remotePath(root: String, relative: String) -> String {
    var base = root.isEmpty ? "/" : root
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    if relative.isEmpty { return base }
    return base == "/" ? "/" + relative : base + "/" + relative
}
