// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed file-system call on the local side: what was tried, on which path, and the cause
/// as the C library words it ("Permission denied", "No space left on device").
public struct LocalFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done, e.g. "open", "rename", "write".
    public var operation: String
    /// The path the call was made on (the source path for a rename).
    public var path: String
    /// The `errno` value the call set (0 when the failure has no errno, see `detail`).
    public var code: Int32
    /// Extra words for failures without an errno (e.g. "short read").
    public var detail: String?

    /// Makes an error from an operation, a path and an errno value.
    public init(operation: String, path: String, code: Int32, detail: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.detail = detail
    }

    /// Captures the current `errno` for a failed call.
    static func current(_ operation: String, _ path: String) -> LocalFileError {
        LocalFileError(operation: operation, path: path, code: errno)
    }

    /// The cause as text: `strerror(code)`, or `detail` when there is no errno.
    public var cause: String {
        if let detail { return detail }
        return String(cString: strerror(code))
    }

    /// True when the cause is a full disk or an exceeded quota (ENOSPC, EDQUOT).
    public var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }

    /// True when the cause is missing permission or a read-only file system (EACCES, EPERM, EROFS).
    public var isPermission: Bool { code == EACCES || code == EPERM || code == EROFS }

    /// True when the path (or a folder on it) does not exist (ENOENT).
    public var isNotFound: Bool { code == ENOENT }

    /// "`operation` `path`: `cause`", e.g. "open /data/a.jpg: Permission denied".
    public var description: String { "\(operation) \(path): \(cause)" }
}
