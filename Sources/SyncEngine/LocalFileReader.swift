import Foundation
import LocalTree

/// Reads a local file from a byte offset, for uploads; closes itself when done.
final class LocalFileReader {
    private let descriptor: Int32
    let path: String

    /// Opens `path` for reading at byte `offset`.
    /// - Throws: `LocalFileError` when the file cannot be opened or positioned.
    init(path: String, offset: UInt64) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LocalFileError(operation: "open", path: path, code: errno) }
        if offset > 0, lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
            let code = errno
            close(descriptor)
            throw LocalFileError(operation: "lseek", path: path, code: code)
        }
    }

    deinit { close(descriptor) }

    /// Fills `buffer` with the next bytes; 0 at the end of the file.
    /// - Throws: `LocalFileError` when reading fails.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw LocalFileError(operation: "read", path: path, code: errno)
        }
    }
}
