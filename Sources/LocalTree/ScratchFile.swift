#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary file with no name, read and written at explicit offsets (`pread`/`pwrite`), for
/// data spilled out of memory: opened with `O_TMPFILE` (mode 0600) where the system has it, else
/// created under a fresh name with `O_CREAT | O_EXCL | O_NOFOLLOW` (no symlink followed, no file
/// taken over) and unlinked at once. Either way nothing is left behind, not even after a kill:
/// the space is freed when the last descriptor closes (at `deinit`). Thread-safe: reads and
/// writes at explicit offsets share no position.
public final class ScratchFile: @unchecked Sendable {
    private let fd: Int32

    /// Opens a scratch file in `folder` (an absolute path; a relative one counts from the
    /// working directory).
    /// - Returns: nil when `folder` refuses a new file (missing, read-only, full).
    public init?(in folder: String) {
        var fd: Int32 = -1
        if let anonymous = FilePlatform.anonymousFileFlags {
            fd = open(folder, (anonymous & ~O_ACCMODE) | O_RDWR, 0o600)
        }
        if fd < 0 {
            // No O_TMPFILE here: a name no other process guesses, gone as soon as it is open.
            let name = folder + "/.ftpsync-scratch-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 { unlink(name) }
        }
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { FilePlatform.close(fd) }

    /// Writes all of `bytes` at byte `offset` (retried when interrupted).
    /// - Returns: false when the system refused (a full disk, an I/O error); the bytes at and
    ///   after `offset` are then undefined.
    public func write(_ bytes: [UInt8], at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// Reads up to `count` bytes at byte `offset` (retried when interrupted).
    /// - Returns: the bytes read; fewer than `count` at the end of the file or on an error.
    public func read(_ count: Int, at offset: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        bytes.removeLast(bytes.count - done)
        return bytes
    }
}
