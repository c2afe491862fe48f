/// Byte-exact reads and writes of a proxy handshake on a fresh socket: nothing past the
/// proxy's answer is read, so the device's first bytes (the FTP greeting, a TLS record) stay
/// in the socket for the session. Transport failures become `ProxyFailure`s.
struct ProxyWire {
    let socket: SocketTransport
    let proxy: FTPProxy
    /// `host:port` the proxy is asked to reach, for messages.
    let target: String

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
            guard got > 0 else {
                throw failure(.protocolViolation, "the proxy closed the connection during \(step)")
            }
            filled += got
        }
        return bytes
    }

    private func transportFailure(_ error: TransportError, _ step: String) -> ProxyFailure {
        switch error {
        case .timedOut:
            return failure(.timedOut, "no answer within \(SocketTransport.formatSeconds(socket.timeout)) s to \(step)")
        case .closedByPeer:
            return failure(.protocolViolation, "the proxy reset the connection during \(step)")
        case .failed(let reason):
            return failure(.proxyUnreachable, "\(reason) during \(step)")
        }
    }
}
