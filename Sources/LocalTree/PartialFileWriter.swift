// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a download to its file under `.ftpsync/`, continuing at a given offset: the file is
/// cut to exactly `offset` bytes, then every `write` goes straight to the file descriptor (no
/// buffering in user space), and `close()` makes the bytes durable with `fsync` before the file
/// is renamed into place (`close(sync: false)` leaves that to a later `syncfs` of the whole
/// batch, see `PullRecordBatch`). Used from one thread at a time.
public final class PartialFileWriter {
    /// The file being written.
    public let path: String
    /// Bytes the file held before the first write of this writer (the resume offset).
    public let startOffset: UInt64
    /// Size of the file now, in bytes: `startOffset` plus everything written.
    public private(set) var size: UInt64
    private var fd: Int32

    /// Opens (creating it, mode 0666 less the umask) the file at `path` for writing at `offset`.
    /// - Throws: `LocalFileError` when the file cannot be opened or cut, or (detail) when it holds
    ///   fewer than `offset` bytes.
    public convenience init(path: String, offset: UInt64) throws(LocalFileError) {
        try self.init(at: AT_FDCWD, name: path, shown: path, offset: offset)
    }

    /// Opens (creating it, mode 0666 less the umask) the file `name` in `folder` for writing at
    /// `offset`, never through a symlink (`openat` with `O_NOFOLLOW`).
    /// - Throws: `LocalFileError` as `init(path:offset:)`.
    public convenience init(folder: TreeFolder, name: String, offset: UInt64) throws(LocalFileError) {
        try self.init(at: folder.descriptor, name: name, shown: folder.shown(name), offset: offset)
    }

    /// Opens `name` relative to the folder descriptor `base`; `shown` names it in errors.
    private init(at base: Int32, name: String, shown path: String, offset: UInt64) throws(LocalFileError) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (offset == 0 ? O_TRUNC : 0)
        let fd = openat(base, name, flags, 0o666)
        if fd < 0 { throw LocalFileError.current("open", path) }
        self.path = path
        self.startOffset = offset
        self.size = offset
        if offset == 0 {
            // Cut to nothing by O_TRUNC, the position at 0: no fstat, ftruncate or lseek needed.
            self.fd = fd
            return
        }
        var info = stat()
        if fstat(fd, &info) != 0 {
            let error = LocalFileError.current("fstat", path)
            FilePlatform.close(fd)
            throw error
        }
        let existing = UInt64(max(0, info.st_size))
        if existing < offset {
            FilePlatform.close(fd)
            throw LocalFileError(
                operation: "resume", path: path, code: 0,
                detail: "the file holds \(existing) bytes, fewer than the offset \(offset)")
        }
        if existing > offset && ftruncate(fd, off_t(offset)) != 0 {
            let error = LocalFileError.current("ftruncate", path)
            FilePlatform.close(fd)
            throw error
        }
        if lseek(fd, off_t(offset), SEEK_SET) < 0 {
            let error = LocalFileError.current("lseek", path)
            FilePlatform.close(fd)
            throw error
        }
        self.fd = fd
    }

    /// Wraps an open descriptor (anonymous files, see `anonymous(in:finalPath:)`).
    init(descriptor: Int32, path: String) {
        self.fd = descriptor
        self.path = path
        self.startOffset = 0
        self.size = 0
    }

    /// Opens a file with no name in `folder` (`O_TMPFILE`, mode 0666 less the umask) that will
    /// become `finalPath` (in that folder) with `publish()`: until then no other process sees
    /// it, and a crash or an error leaves nothing behind, not even a partial file. The inode is
    /// allocated beside its siblings, not in one shared folder.
    /// - Returns: nil when the file system or kernel has no `O_TMPFILE`, when `/proc/self/fd`
    ///   (used to name the file) is missing, or when the folder refuses a new file: the caller
    ///   then writes a named partial as before and gets the error from there.
    public static func anonymous(in folder: String, finalPath: String) -> PartialFileWriter? {
        guard procFileDescriptors, let flags = FilePlatform.anonymousFileFlags else { return nil }
        let fd = open(folder, flags, 0o666)
        if fd < 0 { return nil }
        return PartialFileWriter(descriptor: fd, path: finalPath)
    }

    /// Opens a file with no name in `folder` (`O_TMPFILE`), as `anonymous(in:finalPath:)` but
    /// reached by descriptor: no path lookup, no symlink followed. `name` is only for messages;
    /// the file gets its name with `TreeFolder.link(descriptor:as:)` of `descriptor`.
    /// - Returns: nil when the file system or kernel has no `O_TMPFILE` or `/proc/self/fd`.
    public static func anonymous(in folder: TreeFolder, name: String) -> PartialFileWriter? {
        guard procFileDescriptors, let flags = FilePlatform.anonymousFileFlags else { return nil }
        let fd = openat(folder.descriptor, ".", flags, 0o666)
        if fd < 0 { return nil }
        return PartialFileWriter(descriptor: fd, path: folder.shown(name))
    }

    /// The open descriptor (for `TreeFolder.link(descriptor:as:)`); -1 once closed.
    public var descriptor: Int32 { fd }

    /// Whether `/proc/self/fd` can name open files (for `linkat` of anonymous files).
    private static let procFileDescriptors = access("/proc/self/fd", X_OK) == 0

    /// Gives an anonymous file (`anonymous(in:finalPath:)`) its final name: `linkat` when the
    /// name is free; when a file has it, a link under a temporary name in the same folder,
    /// then `rename(2)` over it, so the name always shows a whole file. The writer stays open.
    /// - Throws: `LocalFileError` when the link or the rename fails (e.g. name too long, the
    ///   folder is gone or read-only); the anonymous file then simply disappears at `close`.
    public func publish() throws(LocalFileError) {
        guard fd >= 0 else { throw LocalFileError(operation: "link", path: path, code: EBADF) }
        let source = "/proc/self/fd/\(fd)"
        if linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 { return }
        guard errno == EEXIST else { throw LocalFileError.current("link", path) }
        let folder = LocalFileSystem.parent(of: path)
        // Shaped like an upload's temporary (`UploadNaming`), so a pull never treats a leftover
        // (a kill between the link and the rename) as a file of the device.
        let temporary =
            (folder.isEmpty ? "" : folder == "/" ? "/" : folder + "/") + ".ftpsync-link-\(getpid())-\(fd)"
            + UploadNaming.suffix
        _ = unlink(temporary)
        if linkat(AT_FDCWD, source, AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) != 0 {
            throw LocalFileError.current("link", temporary)
        }
        if rename(temporary, path) != 0 {
            let error = LocalFileError.current("rename", "\(temporary) -> \(path)")
            _ = unlink(temporary)
            throw error
        }
    }

    deinit {
        if fd >= 0 { FilePlatform.close(fd) }
    }

    /// Writes all of `bytes` at the end of the file.
    /// - Throws: `LocalFileError` (e.g. "No space left on device") or when the writer is closed.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(LocalFileError) {
        try writeAll(bytes, at: nil)
        size += UInt64(bytes.count)
    }

    /// Writes all of `bytes`, at the end of the file (`offset` nil) or at byte `offset`
    /// (`pwrite`), retrying on EINTR.
    /// - Throws: `LocalFileError` (e.g. "No space left on device") or when the writer is closed.
    func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: UInt64?) throws(LocalFileError) {
        let fd = fd
        guard fd >= 0 else { throw LocalFileError(operation: "write", path: path, code: EBADF) }
        guard var next = bytes.baseAddress else { return }
        var left = bytes.count
        var position = off_t(clamping: offset ?? 0)
        while left > 0 {
            let done = offset == nil ? FilePlatform.write(fd, next, left) : pwrite(fd, next, left, position)
            if done < 0 {
                if errno == EINTR { continue }
                throw LocalFileError.current("write", path)
            }
            next += done
            left -= done
            position += off_t(done)
        }
    }

    /// Writes all of `bytes` at the end of the file.
    /// - Throws: `LocalFileError` as `write(_:)` with a buffer.
    public func write(_ bytes: [UInt8]) throws(LocalFileError) {
        let failure = bytes.withUnsafeBytes { raw -> LocalFileError? in
            do throws(LocalFileError) {
                try write(raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Makes everything written so far durable (`fsync`), so a resume after a crash finds it.
    /// - Throws: `LocalFileError` when `fsync` fails (e.g. an I/O error) or the writer is closed.
    public func sync() throws(LocalFileError) {
        guard fd >= 0 else { throw LocalFileError(operation: "fsync", path: path, code: EBADF) }
        if fsync(fd) != 0 { throw LocalFileError.current("fsync", path) }
    }

    /// Sets the file's modification time to `time` (UTC, to the nanosecond) through the open
    /// descriptor (`futimens`: no path lookup); the access time is left alone.
    /// - Throws: `LocalFileError` when `futimens` fails or the writer is closed.
    public func setModificationTime(_ time: FileTime) throws(LocalFileError) {
        guard fd >= 0 else { throw LocalFileError(operation: "futimens", path: path, code: EBADF) }
        let parts = timespecParts(time.seconds)
        var times = [
            timespec(tv_sec: 0, tv_nsec: PartialFileWriter.utimeOmit),
            timespec(tv_sec: time_t(parts.seconds), tv_nsec: parts.nanoseconds),
        ]
        if futimens(fd, &times) != 0 { throw LocalFileError.current("futimens", path) }
    }

    /// Size, modification time, inode and device of the open file (`fstat`): what `lstat` of
    /// its final name says after a `rename(2)`, without looking the name up.
    /// - Throws: `LocalFileError` when `fstat` fails or the writer is closed.
    public func identity() throws(LocalFileError) -> FileIdentity {
        guard fd >= 0 else { throw LocalFileError(operation: "fstat", path: path, code: EBADF) }
        var info = stat()
        if fstat(fd, &info) != 0 { throw LocalFileError.current("fstat", path) }
        return FileIdentity(
            size: UInt64(max(0, info.st_size)), mtimeNanoseconds: nanoseconds(FilePlatform.modified(info)),
            inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }

    /// Makes the bytes durable (`fsync`) and closes the file. Closing twice does nothing.
    /// - Throws: `LocalFileError` when `fsync` or `close` fails; the file is closed either way.
    public func close() throws(LocalFileError) {
        try close(sync: true)
    }

    /// Closes the file, first making its bytes durable with `fsync` when `sync` is true. With
    /// `sync` false the caller must make the file durable before anything claims it is on disk
    /// (`PullRecordBatch` runs `syncfs` before committing the records of its files). Closing
    /// twice does nothing.
    /// - Throws: `LocalFileError` when `fsync` or `close` fails; the file is closed either way.
    public func close(sync: Bool) throws(LocalFileError) {
        guard fd >= 0 else { return }
        let descriptor = fd
        fd = -1
        if sync && fsync(descriptor) != 0 {
            let error = LocalFileError.current("fsync", path)
            FilePlatform.close(descriptor)
            throw error
        }
        if FilePlatform.close(descriptor) != 0 { throw LocalFileError.current("close", path) }
    }

    /// `UTIME_OMIT` of `<sys/stat.h>` (a macro Swift does not import): leave this time alone.
    private static let utimeOmit = (1 << 30) - 2
}
