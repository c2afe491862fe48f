// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SocketTransport {
    /// The numeric local address of this connection (getsockname), "" when unknown.
    public var localHost: String {
        guard fileDescriptor >= 0 else { return "" }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fileDescriptor, $0, &length) }
        }
        guard got == 0 else { return "" }
        let host = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketTransport.numericHost($0, length) }
        }
        return host ?? ""
    }
}

/// A listening TCP socket for one active-mode data connection (RFC 959 §3.2: the server
/// connects to the client), bound to the control connection's local address on a port the
/// system picks.
final class DataListener {
    private var descriptor: Int32
    /// The numeric address listened on.
    let host: String
    /// The port listened on.
    let port: Int
    /// True when `host` is an IPv6 address.
    let isIPv6: Bool

    private init(descriptor: Int32, host: String, port: Int, isIPv6: Bool) {
        self.descriptor = descriptor
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    deinit { close() }

    /// Listens on `host` (a numeric address), port chosen by the system.
    /// - Throws: `FTPError.connectFailed` with the system's reason when the socket cannot be made.
    static func open(on host: String) throws(FTPError) -> DataListener {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketPlatform.stream
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "0", &hints, &list) == 0, let info = list else {
            throw .connectFailed(host: host, port: 0, reason: "not a local address for active mode")
        }
        defer { freeaddrinfo(list) }
        let family = info.pointee.ai_family
        let fd = SocketPlatform.makeSocket(family: family, type: SocketPlatform.stream, protocol: 0)
        guard fd >= 0 else { throw .connectFailed(host: host, port: 0, reason: SocketTransport.errorText(errno)) }
        guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(fd, 1) == 0 else {
            let reason = SocketTransport.errorText(errno)
            SocketPlatform.close(fd)
            throw .connectFailed(host: host, port: 0, reason: "cannot listen for active mode: \(reason)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port: UInt16 = withUnsafePointer(to: &storage) { pointer in
            family == AF_INET6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin_port)
                }
        }
        return DataListener(descriptor: fd, host: host, port: Int(port), isIPv6: family == AF_INET6)
    }

    /// Waits at most `timeout` seconds for the server's data connection and accepts it; a
    /// connection from another address than `expectedPeer` (the control connection's peer) is
    /// refused, so nobody else can slip data in.
    /// - Throws: `.connectFailed` when nothing came in time, `.protocolViolation` for a
    ///   connection from elsewhere.
    func accept(expectedPeer: String, timeout: Double) throws(FTPError) -> SocketTransport {
        let milliseconds = Int32(clamping: Int64((max(timeout, 0.001) * 1000).rounded(.up)))
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, milliseconds)
            if result > 0 { break }
            if result == 0 {
                throw .connectFailed(host: host, port: port, reason: "the server did not connect within \(timeout) s")
            }
            if errno != EINTR {
                throw .connectFailed(host: host, port: port, reason: SocketTransport.errorText(errno))
            }
        }
        let fd = SocketPlatform.accept(descriptor)
        guard fd >= 0 else { throw .connectFailed(host: host, port: port, reason: SocketTransport.errorText(errno)) }
        let peer = SocketTransport.numericPeer(fd) ?? ""
        guard peer == expectedPeer else {
            SocketPlatform.close(fd)
            throw .protocolViolation(
                "active-mode data connection came from \(peer), not from the server \(expectedPeer)")
        }
        SocketTransport.enableKeepalive(fd)
        return SocketTransport(descriptor: fd, peerHost: peer, timeout: timeout)
    }

    /// Stops listening (idempotent).
    func close() {
        if descriptor >= 0 {
            SocketPlatform.close(descriptor)
            descriptor = -1
        }
    }
}
