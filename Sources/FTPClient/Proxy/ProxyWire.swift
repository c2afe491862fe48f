// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Byte-exact reads and writes of a proxy handshake on a fresh socket: nothing past the
/// proxy's answer is read, so the device's first bytes (the FTP greeting, a TLS record) stay
/// in the socket for the session. Transport failures become `ProxyFailure`s.
struct ProxyWire {
    let socket: SocketTransport
    let proxy: FTPProxy
    /// `host:port` the proxy is asked to reach, for messages.
    let target: String
    /// When the whole handshake must be done (monotonic seconds): twice the timeout after it
    /// began, so a proxy that drips its answer a byte at a time cannot hold a connection for
    /// hours, each byte being progress.
    let deadline: Double

    init(socket: SocketTransport, proxy: FTPProxy, target: String) {
        self.socket = socket
        self.proxy = proxy
        self.target = target
        deadline = SocketTransport.monotonicSeconds() + 2 * socket.timeout
    }

    /// A failure of this handshake.
    func failure(_ kind: ProxyFailure.Kind, _ detail: String) -> ProxyFailure {
        ProxyFailure(kind: kind, proxy: proxy.description, target: target, detail: detail)
    }

    /// Sends `bytes`. - Throws: `.timedOut`, or `.proxyUnreachable` when the proxy hung up.
    func send(_ bytes: [UInt8], _ step: String) throws(ProxyFailure) {
        do {
            try bytes.withUnsafeBytes { try socket.write($0) }
        } catch let error as TransportError {
            throw transportFailure(error, step)
        } catch {
            throw failure(.proxyUnreachable, "\(error) during \(step)")
        }
    }

    /// Reads exactly `count` bytes (at most 65,535).
    /// - Throws: `.protocolViolation` when the proxy closed the connection first, `.timedOut`.
    func receive(_ count: Int, _ step: String) throws(ProxyFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, min(count, 65_535)))
        var filled = 0
        while filled < bytes.count {
            guard SocketTransport.monotonicSeconds() < deadline else {
                throw failure(
                    .timedOut,
                    "its answer to \(step) did not end within \(SocketTransport.formatSeconds(2 * socket.timeout)) s")
            }
            let got: Int
            do {
                got = try bytes.withUnsafeMutableBytes {
                    try socket.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
                }
            } catch let error as TransportError {
                throw transportFailure(error, step)
            } catch {
                throw failure(.proxyUnreachable, "\(error) during \(step)")
            }
            guard got > 0 else { throw closed("closed the connection", step) }
            filled += got
        }
        return bytes
    }

    /// The proxy hung up during the handshake: busy (at its connection limit), restarting, or
    /// not a proxy of this kind. Worth another attempt.
    private func closed(_ how: String, _ step: String) -> ProxyFailure {
        failure(
            .proxyUnreachable,
            "it \(how) during \(step) (a proxy at its connection limit or restarting does this; so does a service "
                + "that is not a \(proxy.kind == .http ? "HTTP" : "SOCKS5") proxy)")
    }

    private func transportFailure(_ error: TransportError, _ step: String) -> ProxyFailure {
        switch error {
        case .timedOut:
            return failure(.timedOut, "no answer within \(SocketTransport.formatSeconds(socket.timeout)) s to \(step)")
        case .closedByPeer:
            return closed("reset the connection", step)
        case .failed(let reason):
            return failure(.proxyUnreachable, "\(reason) during \(step)")
        }
    }
}
