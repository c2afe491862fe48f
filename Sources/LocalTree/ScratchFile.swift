// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A scratch file of one run, for data kept out of memory (a plan's spool, the action reports
/// past a log's memory bound): a file with no name, so no other process sees it and nothing of
/// it stays once it is closed or the process ends. Made in a folder reached by descriptor,
/// never through a symlink (`openat` with `O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600), its name
/// removed right away (`init(in:name:)`), or in a folder by path with `O_TMPFILE` where the
/// system has it (`anonymous(in:)`). Written at its end, read at any offset (`pread`); appends
/// from one thread at a time.
public final class ScratchFile: @unchecked Sendable {
    /// Where it was made, for messages only.
    public let path: String
    /// Bytes written so far.
    public private(set) var size: UInt64 = 0
    private var fd: Int32

    /// Makes the file `name` in `folder` and removes its name at once (the file lives on while
    /// open).
    /// - Throws: `LocalFileError` when it cannot be made (a name there already, a full disk,
    ///   a read-only folder) or its name cannot be removed.
    public init(in folder: TreeFolder, name: String) throws(LocalFileError) {
        path = folder.shown(name)
        fd = openat(folder.descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 { throw LocalFileError.current("open", path) }
        do {
            try folder.removeFile(name)
        } catch {
            close()
            throw error
        }
    }

    private init(descriptor: Int32, path: String) {
        fd = descriptor
        self.path = path
    }

    /// A scratch file in the folder `folder` (an absolute path): opened with `O_TMPFILE` where
    /// the system has it, else made under a fresh name with `O_CREAT | O_EXCL | O_NOFOLLOW` (no
    /// symlink followed, no file taken over) and unlinked at once.
    /// - Returns: nil when `folder` refuses a new file (missing, read-only, full).
    public static func anonymous(in folder: String) -> ScratchFile? {
        var fd: Int32 = -1
        if let flags = FilePlatform.anonymousFileFlags {
            fd = open(folder, (flags & ~O_ACCMODE) | O_RDWR, 0o600)
        }
        if fd < 0 {
            // No O_TMPFILE here: a name no other process guesses, gone as soon as it is open.
            let name = folder + "/.ftpsync-scratch-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 { unlink(name) }
        }
        guard fd >= 0 else { return nil }
        return ScratchFile(descriptor: fd, path: folder + "/(scratch)")
    }

    deinit { close() }

    /// Writes all of `bytes` at the end of the file.
    /// - Throws: `LocalFileError` (e.g. "No space left on device") or when the file is closed.
    public func append(_ bytes: [UInt8]) throws(LocalFileError) {
        guard fd >= 0 else { throw LocalFileError(operation: "write", path: path, code: EBADF) }
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                pwrite(
                    fd, raw.baseAddress?.advanced(by: done), raw.count - done,
                    off_t(clamping: Saturating.add(size, UInt64(done))))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw LocalFileError.current("write", path)
            }
            done += written
        }
        size = Saturating.add(size, UInt64(bytes.count))
    }

    /// Up to `count` bytes from `offset` (fewer only at the end of the file).
    /// - Throws: `LocalFileError` when reading fails or the file is closed.
    public func read(at offset: UInt64, count: Int) throws(LocalFileError) -> [UInt8] {
        guard fd >= 0 else { throw LocalFileError(operation: "read", path: path, code: EBADF) }
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var got = 0
        while got < bytes.count {
            let part = bytes.withUnsafeMutableBytes { raw in
                pread(
                    fd, raw.baseAddress?.advanced(by: got), raw.count - got,
                    off_t(clamping: Saturating.add(offset, UInt64(got))))
            }
            if part < 0 {
                if errno == EINTR { continue }
                throw LocalFileError.current("read", path)
            }
            if part == 0 { break }
            got += part
        }
        bytes.removeLast(bytes.count - got)
        return bytes
    }

    /// Closes the file, which frees its space. Closing twice does nothing.
    public func close() {
        guard fd >= 0 else { return }
        _ = FilePlatform.close(fd)
        fd = -1
    }
}
