// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A local file open for reading at explicit offsets (`pread`: the descriptor's position never
/// moves, so several readers may share it); closes itself when released.
public final class LocalFileReader {
    /// The open descriptor (read only), for a transfer that reads it directly (an upload).
    public let descriptor: Int32
    /// The path it was opened at, for messages.
    public let path: String

    /// Opens `path` for reading.
    /// - Parameter followingSymlink: false: a symlink as the last component fails with `ELOOP`.
    /// - Throws: `LocalFileError` when the file cannot be opened.
    public init(path: String, followingSymlink: Bool = true) throws(LocalFileError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC | (followingSymlink ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else { throw LocalFileError.current("open", path) }
    }

    deinit { close(descriptor) }

    /// The size in bytes of the open file.
    /// - Throws: `LocalFileError` when it cannot be told or the file is not a regular file (`EINVAL`).
    public func regularFileSize() throws(LocalFileError) -> UInt64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw LocalFileError.current("fstat", path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw LocalFileError(operation: "fstat", path: path, code: EINVAL)
        }
        return UInt64(max(0, info.st_size))
    }

    /// Up to `count` bytes from byte `offset`; fewer when the file ends first.
    /// - Throws: `LocalFileError` when the file cannot be read.
    public func read(from offset: UInt64, count: Int) throws(LocalFileError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var done = 0
        while done < bytes.count {
            let position = off_t(clamping: offset.addingReportingOverflow(UInt64(done)).partialValue)
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, buffer.count - done, position)
            }
            if got < 0, errno == EINTR { continue }
            if got < 0 { throw LocalFileError.current("read", path) }
            if got == 0 { break }
            done += got
        }
        return done == bytes.count ? bytes : Array(bytes.prefix(done))
    }

    /// Reads up to `buffer.count` bytes from byte `offset` into `buffer` (pread(2), retried when
    /// interrupted).
    /// - Returns: the bytes read; 0 at the end of the file.
    /// - Throws: `LocalFileError` when the file cannot be read.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws -> Int {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(clamping: offset))
            if count >= 0 { return count }
            if errno != EINTR { throw LocalFileError.current("read", path) }
        }
    }

    /// Hands the file to `body` from its first byte, in chunks of at most 256 KiB: the whole
    /// file, or its first `length` bytes (fewer when it is shorter).
    /// - Returns: the bytes handed over.
    /// - Throws: `LocalFileError` when the file cannot be read.
    @discardableResult
    public func forEachChunk(upTo length: UInt64? = nil, _ body: (UnsafeRawBufferPointer) -> Void)
        throws(LocalFileError) -> UInt64
    {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var offset: UInt64 = 0
        while length.map({ offset < $0 }) ?? true {
            let want = Int(min(UInt64(buffer.count), length.map { $0 - offset } ?? UInt64(buffer.count)))
            let got = buffer.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress!, want, off_t(clamping: offset))
            }
            if got < 0, errno == EINTR { continue }
            if got < 0 { throw LocalFileError.current("read", path) }
            if got == 0 { break }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            offset += UInt64(got)
        }
        return offset
    }
}
