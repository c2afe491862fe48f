import Foundation
import LocalTree
import SyncCore

/// What one `lstat` of a local file says about its content: size and modification time, and
/// the status-change time (`st_ctim`), which every write, truncation, `touch` or rename moves
/// and nobody can set back.
struct LocalFileStamp: Equatable {
    var size: UInt64
    var modified: FileTime
    /// `st_ctim` in nanoseconds since 1970 UTC.
    var changed: Int64

    /// The stamp of the file at `path` (a final symlink not followed); nil when it cannot be read.
    init?(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let mtime = Saturating.nanoseconds(
            seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
        size = UInt64(max(0, info.st_size))
        modified = FileIdentity(size: size, mtimeNanoseconds: mtime, inode: 0, device: 0).modified
        changed = Saturating.nanoseconds(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec))
    }
}

/// A local file open for reading, for uploads; closes itself when released.
final class LocalFileReader {
    /// The open descriptor (read only); uploads read it at explicit offsets, never moving it.
    let descriptor: Int32
    let path: String

    /// Opens `path` for reading.
    /// - Throws: `LocalFileError` when the file cannot be opened.
    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LocalFileError(operation: "open", path: path, code: errno) }
    }

    deinit { close(descriptor) }
}
