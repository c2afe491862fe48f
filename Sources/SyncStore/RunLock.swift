// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the run lock could not be taken.
public enum RunLockError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process (or another `RunLock` of this one) holds the lock: the lock file's path
    /// and the process id last written in it by an ftpsync run, when readable (stale when the
    /// holder is not ftpsync). The CLI exits 3.
    case held(path: String, pid: Int32?)
    /// The lock file could not be made or locked: operation, path, `errno`.
    case failed(operation: String, path: String, code: Int32)

    /// The failure as one line of text, e.g. "another ftpsync run holds the lock …".
    public var description: String {
        switch self {
        case .held(let path, let pid):
            let owner = pid.map { " (process \($0))" } ?? ""
            return "another ftpsync run holds the lock \(path)\(owner)"
        case .failed(let operation, let path, let code):
            return "lock \(path): \(operation): \(String(cString: strerror(code)))"
        }
    }
}

/// The lock that keeps two runs off one local tree: `flock(LOCK_EX | LOCK_NB)` on
/// `<localRoot>/.ftpsync/lock`. The kernel releases it when the process ends in any way
/// (SIGKILL included), so a stale lock never blocks the next run. Released by `release()` or
/// when the value is deinitialized.
public final class RunLock: @unchecked Sendable {
    /// The lock file's path.
    public let path: String
    private let mutex = NSLock()
    private var fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { release() }

    /// Takes the lock of the local tree at `localRoot` (making `.ftpsync` when missing) and
    /// writes this process's id into the lock file.
    /// - Throws: `RunLockError.held` when another holder has it; `.failed` when the file cannot be
    ///   made or locked.
    public static func acquire(localRoot: String) throws(RunLockError) -> RunLock {
        let folder: String
        do {
            folder = try StateFolder.make(localRoot: localRoot)
        } catch {
            if case .fileSystem(let operation, let path, let code) = error {
                throw .failed(operation: operation, path: path, code: code)
            }
            throw .failed(operation: "mkdir", path: localRoot, code: EIO)
        }
        let path = folder + "/lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { throw .failed(operation: "open", path: path, code: errno) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            let owner = code == EWOULDBLOCK ? readPID(fd) : nil
            close(fd)
            if code == EWOULDBLOCK { throw .held(path: path, pid: owner) }
            throw .failed(operation: "flock", path: path, code: code)
        }
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        return RunLock(path: path, fd: fd)
    }

    /// Releases the lock (closing the file; the file itself stays). Releasing twice does nothing.
    public func release() {
        mutex.lock()
        defer { mutex.unlock() }
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    /// True until `release()`.
    public var isHeld: Bool {
        mutex.lock()
        defer { mutex.unlock() }
        return fd >= 0
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text)
    }
}
