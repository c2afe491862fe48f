// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A download fetched in segments (issue 20): several connections write their ranges into one
/// partial file, each at its own offset (`pwrite`, safe from several threads at once).
extension PartialFileWriter {
    /// Opens (creating it, mode 0666 less the umask) the partial `name` of `folder` for writes
    /// at any offset, never through a symlink: cut to nothing when `fresh`, kept as it is for a
    /// resume. `size` is not kept up to date by `write(_:at:)`; `identity()` tells.
    /// - Throws: `LocalFileError` when the file cannot be opened.
    public static func segmented(in folder: TreeFolder, name: String, fresh: Bool) throws(LocalFileError)
        -> PartialFileWriter
    {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (fresh ? O_TRUNC : 0)
        let fd = openat(folder.descriptor, name, flags, 0o666)
        if fd < 0 { throw LocalFileError.current("open", folder.shown(name)) }
        return PartialFileWriter(descriptor: fd, path: folder.shown(name))
    }

    /// Writes all of `bytes` at byte `offset` of the file (`pwrite`); safe to call from several
    /// threads at once for ranges that do not overlap.
    /// - Throws: `LocalFileError` (e.g. "No space left on device") or when the writer is closed.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(LocalFileError) {
        try writeAll(bytes, at: offset)
    }
}
