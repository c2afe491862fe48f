import Foundation
import LocalTree

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
