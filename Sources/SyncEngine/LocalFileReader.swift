import Foundation
import LocalTree

/// The status-change time (`st_ctim`, nanoseconds since 1970 UTC) of the file at `path`, not
/// following a final symlink; nil when it cannot be read. Every write, truncation, `touch` or
/// rename of the file moves it, and nobody can set it back.
func statusChangeTime(_ path: String) -> Int64? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
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
