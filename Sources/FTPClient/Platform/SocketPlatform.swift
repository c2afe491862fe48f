// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything about sockets that differs between Linux and Darwin, in one place: the rest of
/// FTPClient uses POSIX calls both have. The Linux branch is the one built and tested; the
/// Darwin branch is written from the manual pages and has not been built.
enum SocketPlatform {
    #if canImport(Glibc)
        /// `SOCK_STREAM` as the `Int32` that `socket(2)` and `addrinfo` take.
        static let stream = Int32(SOCK_STREAM.rawValue)
        /// `SHUT_WR` for `shutdown(2)`.
        static let shutWrite = Int32(SHUT_WR)
        /// Flags for `send(2)`: no SIGPIPE when the peer has gone (`MSG_NOSIGNAL`).
        static let sendFlags = Int32(MSG_NOSIGNAL)
        /// The keepalive option for the idle time before the first probe, in seconds.
        static let keepAliveIdle = TCP_KEEPIDLE
        /// `POLLRDHUP`: the peer ended its side (not exported to Swift).
        static let peerClosedEvent: Int16 = 0x2000
    #elseif canImport(Darwin)
        static let stream = SOCK_STREAM
        static let shutWrite = SHUT_WR
        /// SIGPIPE is off per socket (`SO_NOSIGPIPE`, set by `makeSocket`).
        static let sendFlags: Int32 = 0
        static let keepAliveIdle = TCP_KEEPALIVE
        /// No `POLLRDHUP`: `POLLIN` sees the end of the stream.
        static let peerClosedEvent: Int16 = 0
    #endif

    /// A new socket, close-on-exec, with SIGPIPE off where that is a socket option.
    /// - Returns: the descriptor, or -1 with `errno` set.
    static func makeSocket(family: Int32, type: Int32, protocol number: Int32) -> Int32 {
        #if canImport(Glibc)
            return socket(family, type | Int32(SOCK_CLOEXEC.rawValue), number)
        #elseif canImport(Darwin)
            let fd = socket(family, type, number)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                var one: Int32 = 1
                _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            return fd
        #endif
    }

    /// `close(2)` (callable from types that have a `close()` of their own).
    @discardableResult
    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(fd)
        #elseif canImport(Darwin)
            Darwin.close(fd)
        #endif
    }

    /// `connect(2)`. - Returns: 0, or -1 with `errno` set.
    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.connect(fd, address, length)
        #elseif canImport(Darwin)
            Darwin.connect(fd, address, length)
        #endif
    }

    /// `accept(2)`, the new socket close-on-exec and nonblocking (SIGPIPE off on Darwin).
    /// - Returns: the descriptor, or -1 with `errno` set.
    static func accept(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            let accepted = Glibc.accept(fd, nil, nil)
        #elseif canImport(Darwin)
            let accepted = Darwin.accept(fd, nil, nil)
            if accepted >= 0 {
                var one: Int32 = 1
                _ = setsockopt(accepted, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            }
        #endif
        guard accepted >= 0 else { return accepted }
        _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
        _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK)
        return accepted
    }

    /// Bytes written to `fd` but not yet acknowledged by the peer (Linux `SIOCOUTQ`, Darwin
    /// `SO_NWRITE`); nil when the system does not say.
    static func queuedBytes(_ fd: Int32) -> Int? {
        var count: Int32 = 0
        #if canImport(Glibc)
            guard ioctl(fd, UInt(0x5411), &count) == 0 else { return nil }
        #elseif canImport(Darwin)
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_NWRITE, &count, &length) == 0 else { return nil }
        #endif
        return Int(max(count, 0))
    }

    /// Makes the next `close(2)` of `fd` a reset (`SO_LINGER` 0).
    static func resetOnClose(_ fd: Int32) {
        #if canImport(Glibc)
            var setting = Glibc.linger(l_onoff: 1, l_linger: 0)
        #elseif canImport(Darwin)
            var setting = Darwin.linger(l_onoff: 1, l_linger: 0)
        #endif
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &setting, socklen_t(MemoryLayout.size(ofValue: setting)))
    }

    /// Has the kernel acknowledge what was read at once, not after the delayed-ACK timer
    /// (Linux `TCP_QUICKACK`, which also sends an acknowledgement now when one is pending).
    /// A server that leaves Nagle's algorithm on for its control connection holds each reply
    /// to pipelined commands until the one before is acknowledged: without it, a batch took a
    /// delayed ACK (about 40 ms here) per reply. Darwin has no such option: a no-op there.
    static func acknowledgeNow(_ fd: Int32) {
        #if canImport(Glibc)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), Int32(TCP_QUICKACK), &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }
}
