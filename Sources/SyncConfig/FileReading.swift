// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call while reading a file: the `errno` it left.
struct FileReadError: Error {
    let code: Int32

    /// The system's text for the error, e.g. "No such file or directory".
    var reason: String { String(cString: strerror(code)) }
}

/// The whole content of the file at `path`.
/// - Parameters:
///   - limit: the most bytes read; a longer file throws `EFBIG`.
///   - regularOnly: refuse anything but a regular file with `EINVAL`, without waiting on it: a
///     FIFO with no writer would block the open forever, and one read twice gives nothing the
///     second time.
/// - Throws: `FileReadError` with `errno` when the file cannot be opened or read
///   (a folder gives EISDIR).
func readFile(atPath path: String, limit: Int = Int.max, regularOnly: Bool = false) throws(FileReadError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
    guard descriptor >= 0 else { throw FileReadError(code: errno) }
    defer { close(descriptor) }
    if regularOnly {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileReadError(code: errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw FileReadError(code: EISDIR) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw FileReadError(code: EINVAL) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    }
    var content: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { return content }
        if count < 0 {
            if errno == EINTR { continue }
            throw FileReadError(code: errno)
        }
        content.append(contentsOf: chunk[..<count])
        if content.count > limit { throw FileReadError(code: EFBIG) }
    }
}
