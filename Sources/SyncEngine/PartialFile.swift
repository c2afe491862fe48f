import Foundation
import LocalTree

#if canImport(Glibc)
    import Glibc
#endif

/// An unfinished download under `.ftpsync/partial/`: opened at the offset the plan resumes
/// from, written in order, hashed while written (the bytes already there are hashed first).
final class PartialFile {
    let path: String
    /// Bytes in the file so far.
    private(set) var length: UInt64
    private let hasher: XXH3Hasher
    private var descriptor: Int32

    /// Opens `path` to continue at `offset` (0: start over, truncating what is there).
    /// - Throws: `LocalFileError` when the file cannot be opened, read or truncated.
    init(path: String, resumeAt offset: UInt64) throws {
        self.path = path
        hasher = try XXH3Hasher()
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (offset == 0 ? O_TRUNC : 0)
        descriptor = open(path, flags, 0o644)
        if descriptor < 0 { throw LocalFileError(operation: "open", path: path, code: errno) }
        length = 0
        if offset > 0 {
            do {
                try hasher.update(fileAt: path, length: offset)
                if ftruncate(descriptor, off_t(offset)) != 0 {
                    throw LocalFileError(operation: "truncate", path: path, code: errno)
                }
                length = offset
            } catch {
                close(descriptor)
                descriptor = -1
                throw error
            }
        }
        if lseek(descriptor, off_t(length), SEEK_SET) < 0 {
            close(descriptor)
            descriptor = -1
            throw LocalFileError(operation: "seek", path: path, code: errno)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Appends `bytes` and feeds them to the hash.
    /// - Throws: `LocalFileError` on a failed write (disk full, I/O error).
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = Glibc.write(descriptor, base, left)
            if written < 0 {
                if errno == EINTR { continue }
                throw LocalFileError(operation: "write", path: path, code: errno)
            }
            left -= written
            base += written
        }
        hasher.update(bytes)
        length += UInt64(bytes.count)
    }

    /// Closes the file and returns the digest of its whole content.
    /// - Throws: `LocalFileError` when closing reports a delayed write error.
    func finish() throws -> String {
        let fd = descriptor
        descriptor = -1
        if close(fd) != 0 { throw LocalFileError(operation: "close", path: path, code: errno) }
        return hasher.finalize()
    }
}
