// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection over a POSIX socket (platform differences: `SocketPlatform`), nonblocking, with poll(2) before every read and
/// write so that no call waits longer than `timeout` seconds without progress.
public final class SocketTransport: Transport {
    private var descriptor: Int32
    /// The numeric address of the peer.
    public let peerHost: String
    /// The no-progress timeout in seconds.
    public var timeout: Double
    /// True for a control connection (`connect(lowLatency:)`): what is read is acknowledged at
    /// once (`SocketPlatform.acknowledgeNow`), so a server's next reply is never held back
    /// waiting for our delayed ACK.
    var acknowledgesAtOnce = false

    /// Wraps a connected nonblocking socket (taking ownership of `descriptor`).
    init(descriptor: Int32, peerHost: String, timeout: Double) {
        self.descriptor = descriptor
        self.peerHost = peerHost
        self.timeout = timeout
    }

    deinit { close() }

    /// Connects to `host` (a name, an IPv4 or an IPv6 literal) and `port`, trying each address
    /// getaddrinfo(3) gives in turn, each within `timeout` seconds.
    /// - Parameters:
    ///   - numericOnly: true when `host` is an address literal (no name lookup).
    ///   - lowLatency: sets TCP_NODELAY (for control connections). Every connection gets TCP
    ///     keepalive (`enableKeepalive`).
    /// - Throws: `FTPError.connectFailed` with the system's reason (or "timed out").
    public static func connect(
        host: String, port: Int, timeout: Double, numericOnly: Bool = false, lowLatency: Bool = false
    ) throws(FTPError) -> SocketTransport {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketPlatform.stream
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw .connectFailed(host: host, port: port, reason: reason)
        }
        defer { freeaddrinfo(list) }
        var lastReason = "no address"
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            switch attempt(info.pointee, timeout: timeout, lowLatency: lowLatency) {
            case .success(let transport): return transport
            case .failure(let reason): lastReason = reason
            }
        }
        throw .connectFailed(host: host, port: port, reason: lastReason)
    }

    /// Sets SO_KEEPALIVE with probes after 60 s idle, every 15 s, 4 before giving up, on the
    /// socket `fd`: a connection idle during a long transfer (the control connection; a data
    /// connection whose reader is paced or stalled) stays in NAT and firewall tables (the
    /// system default waits 2 hours). Probes are TCP-level: the byte streams are untouched.
    static func enableKeepalive(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
        for (option, value) in [
            (SocketPlatform.keepAliveIdle, Int32(60)), (TCP_KEEPINTVL, Int32(15)), (TCP_KEEPCNT, Int32(4)),
        ] {
            var setting = value
            _ = setsockopt(fd, Int32(IPPROTO_TCP), option, &setting, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    private enum Attempt {
        case success(SocketTransport)
        case failure(String)
    }

    private static func attempt(_ info: addrinfo, timeout: Double, lowLatency: Bool) -> Attempt {
        let fd = SocketPlatform.makeSocket(family: info.ai_family, type: info.ai_socktype, protocol: info.ai_protocol)
        guard fd >= 0 else { return .failure(errorText(errno)) }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        if lowLatency {
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        enableKeepalive(fd)
        if SocketPlatform.connect(fd, info.ai_addr, info.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else {
                let reason = errorText(errno)
                SocketPlatform.close(fd)
                return .failure(reason)
            }
            switch waitFor(fd, events: Int16(POLLOUT), timeout: timeout) {
            case .ready: break
            case .timedOut:
                SocketPlatform.close(fd)
                return .failure("no answer within \(formatSeconds(timeout)) s")
            case .failed(let code):
                SocketPlatform.close(fd)
                return .failure(errorText(code))
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                SocketPlatform.close(fd)
                return .failure(errorText(error))
            }
        }
        let transport = SocketTransport(descriptor: fd, peerHost: numericPeer(fd) ?? "", timeout: timeout)
        transport.acknowledgesAtOnce = lowLatency
        return .success(transport)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> Int {
        guard descriptor >= 0 else { throw .failed("connection closed") }
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0, acknowledgesAtOnce { SocketPlatform.acknowledgeNow(descriptor) }
            if count >= 0 { return count }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(events: Int16(POLLIN))
            case ECONNRESET, EPIPE: throw .closedByPeer
            default: throw .failed(Self.errorText(code))
            }
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        guard descriptor >= 0 else { throw .failed("connection closed") }
        var offset = 0
        while offset < bytes.count {
            let count = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, SocketPlatform.sendFlags)
            if count >= 0 {
                offset += count
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(events: Int16(POLLOUT))
            case ECONNRESET, EPIPE: throw .closedByPeer
            default: throw .failed(Self.errorText(code))
            }
        }
    }

    public func finishWriting() {
        if descriptor >= 0 { _ = shutdown(descriptor, SocketPlatform.shutWrite) }
    }

    public func close() {
        if descriptor >= 0 {
            SocketPlatform.close(descriptor)
            descriptor = -1
        }
    }

    /// The socket's descriptor (-1 once closed), for a TLS layer on top of this connection.
    var fileDescriptor: Int32 { descriptor }

    /// Waits at most `timeout` seconds until the socket is readable (`forWriting` false) or
    /// writable; for a TLS layer that got "want read" or "want write".
    /// - Throws: `TransportError.timedOut`, or `.failed` for a closed socket or a poll error.
    func waitUntilReady(forWriting: Bool) throws(TransportError) {
        guard descriptor >= 0 else { throw .failed("connection closed") }
        try wait(events: Int16(forWriting ? POLLOUT : POLLIN))
    }

    /// Waits for `events`, at most the timeout without progress. For writing, bytes leaving
    /// the send queue (`queuedBytes` shrinking) are progress: a slow peer that still takes
    /// data never times the connection out, however full the buffer is. With `stop`, the wait
    /// is cut into slices of at most 0.25 s and ends once `stop` holds (`.failed`).
    private func wait(events: Int16) throws(TransportError) {
        var queued = events & Int16(POLLOUT) != 0 ? queuedBytes : nil
        var deadline = Self.monotonicSeconds() + timeout
        while true {
            let left = deadline - Self.monotonicSeconds()
            switch Self.waitFor(descriptor, events: events, timeout: stop == nil ? left : min(left, 0.25)) {
            case .ready: return
            case .timedOut:
                if let stop, let why = stop.error { throw .failed("stopped: \(why)") }
                if Self.monotonicSeconds() < deadline { continue }
                if let before = queued, let now = queuedBytes, now < before {
                    queued = now
                    deadline = Self.monotonicSeconds() + timeout
                    continue
                }
                throw .timedOut
            case .failed(let code): throw .failed(Self.errorText(code))
            }
        }
    }

    /// A stop request the waits of this connection listen to (set while a session logs in:
    /// a run stopped then does not wait for a silent or slow server's timeout); nil: none.
    var stop: PacingStop?

    /// Bytes written but not yet acknowledged by the peer (`SocketPlatform.queuedBytes`); nil
    /// when closed or the system does not say.
    var queuedBytes: Int? {
        guard descriptor >= 0 else { return nil }
        return SocketPlatform.queuedBytes(descriptor)
    }

    /// Asks for a send buffer of `bytes` (SO_SNDBUF; the kernel doubles it for its own
    /// bookkeeping and caps it at `net.core.wmem_max`).
    func setSendBuffer(_ bytes: Int) {
        var size = Int32(clamping: bytes)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Waits until every byte written was acknowledged by the peer (`queuedBytes` is 0), for at
    /// most the timeout without the queue shrinking: an upload's last bytes may take long to
    /// reach a slow device, and the final reply only comes after them.
    /// - Throws: `TransportError.timedOut` when the queue stopped draining.
    func waitUntilDelivered() throws(TransportError) {
        guard var queued = queuedBytes, queued > 0 else { return }
        var lastProgress = Self.monotonicSeconds()
        // The queue is looked at every 20 ms (a reset empties it, so a broken connection ends
        // the wait too).
        let slice = useconds_t(min(max(timeout, 0.001), 0.02) * 1_000_000)
        while true {
            usleep(slice)
            guard let now = queuedBytes, now > 0 else { return }
            if now < queued {
                queued = now
                lastProgress = Self.monotonicSeconds()
            } else if Self.monotonicSeconds() - lastProgress >= timeout {
                throw .timedOut
            }
        }
    }

    /// Waits at most `seconds` until bytes (or the peer's end of the connection) wait to be read.
    /// - Returns: true when they do, false when the time ran out or poll failed.
    func waitUntilReadable(seconds: Double) -> Bool {
        guard descriptor >= 0 else { return false }
        if case .ready = Self.waitFor(descriptor, events: Int16(POLLIN), timeout: seconds) { return true }
        return false
    }

    /// True when bytes (or the peer's end of the connection) wait to be read right now: a poll
    /// that does not wait.
    var hasPendingInput: Bool {
        guard descriptor >= 0 else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Waits at most `seconds` until the peer ends its side of this connection (or it breaks),
    /// or `other` becomes readable.
    /// - Returns: true when one of them happened, false when the time ran out (or poll failed).
    @discardableResult
    func waitForEnd(orReadable other: SocketTransport, seconds: Double) -> Bool {
        guard descriptor >= 0, other.descriptor >= 0 else { return false }
        let peerClosed = SocketPlatform.peerClosedEvent
        var entries = [
            pollfd(fd: descriptor, events: Int16(POLLIN) | peerClosed, revents: 0),
            pollfd(fd: other.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        let deadline = Self.monotonicSeconds() + seconds
        while true {
            let left = deadline - Self.monotonicSeconds()
            guard left > 0 else { return false }
            let result = poll(&entries, 2, Int32(clamping: Int64((left * 1000).rounded(.up))))
            if result > 0 { return true }
            if result < 0 && errno != EINTR { return false }
        }
    }

    /// Closes with a reset (SO_LINGER 0) instead of a graceful close: bytes still queued are
    /// dropped and the peer's next read fails at once, so an abandoned upload cannot go on
    /// growing the server's file behind a retry.
    func reset() {
        guard descriptor >= 0 else { return }
        SocketPlatform.resetOnClose(descriptor)
        close()
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private enum Wait {
        case ready
        case timedOut
        case failed(Int32)
    }

    /// poll(2) for `events` on `fd` for at most `timeout` seconds; readiness includes errors
    /// and hang-ups (the following call reports them).
    private static func waitFor(_ fd: Int32, events: Int16, timeout: Double) -> Wait {
        let milliseconds = Int32(clamping: Int64((max(timeout, 0.001) * 1000).rounded(.up)))
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let result = poll(&entry, 1, milliseconds)
            if result > 0 { return .ready }
            if result == 0 { return .timedOut }
            if errno != EINTR { return .failed(errno) }
        }
    }

    static func numericPeer(_ fd: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard got == 0 else { return nil }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { numericHost($0, length) }
        }
    }

    /// The numeric text of a socket address (`192.0.2.1`, `::1`), by getnameinfo(3); nil when
    /// it cannot be formatted.
    static func numericHost(_ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> String? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else {
            return nil
        }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
