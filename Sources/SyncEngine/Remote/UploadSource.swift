// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import LocalTree

/// The bytes an upload sends (`RemoteFileSystem.store`), read at explicit offsets so that a
/// retry can start again anywhere. A plain local file (`LocalFileReader`) lets the FTP
/// adapter read it by its descriptor (`FTPSession.store(_:file:...)`).
public protocol UploadSource: AnyObject {
    /// Reads up to `buffer.count` bytes from byte `offset` into `buffer`.
    /// - Returns: the bytes read; 0 at the end of the source.
    /// - Throws: a read error (`LocalFileError` for a local file).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws -> Int
}

/// A plain local file is a source as it is (`LocalFileReader.read(into:at:)`).
extension LocalFileReader: UploadSource {}
