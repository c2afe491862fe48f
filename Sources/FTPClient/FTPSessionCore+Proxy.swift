// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// The TCP connections of a session: direct, or through `configuration.proxy`.
extension FTPSessionCore {
    /// Opens the control connection (TCP_NODELAY) and sets `peerHost`, where data connections
    /// go: the socket's peer, or through a proxy the device's address (`socks5`) or host name.
    /// - Throws: `.connectFailed`, `.proxyFailed` (also for active mode with a proxy).
    func openControlConnection() throws(FTPError) -> SocketTransport {
        proxyHop = nil
        guard let proxy = configuration.proxy else {
            let socket = try SocketTransport.connect(
                host: configuration.host, port: configuration.port, timeout: configuration.timeout, lowLatency: true)
            peerHost = socket.peerHost
            return socket
        }
        guard configuration.passive else {
            throw .proxyFailed(
                ProxyFailure(
                    kind: .unsupported, proxy: proxy.description,
                    target: FTPError.hostPort(configuration.host, configuration.port),
                    detail: "active mode cannot work through a proxy: the server would have to connect back "
                        + "through it; use passive mode"))
        }
        let opened = try connector(proxy).connect(to: configuration.host, port: configuration.port, lowLatency: true)
        peerHost = opened.target
        proxyHop = opened.hop
        log?(
            "through \(proxy): connected in \(Self.milliseconds(opened.hop.proxySeconds)) ms, "
                + "\(opened.hop.target) reached in \(Self.milliseconds(opened.hop.throughSeconds)) ms")
        return opened.socket
    }

    /// A passive data connection to `host`:`port` (numeric, or the device's host name through a
    /// proxy that resolves names), direct or through the proxy.
    /// - Throws: `.connectFailed`, `.proxyFailed`.
    func openDataSocket(host: String, port: Int) throws(FTPError) -> SocketTransport {
        guard let proxy = configuration.proxy else {
            return try SocketTransport.connect(
                host: host, port: port, timeout: configuration.timeout, numericOnly: true)
        }
        return try connector(proxy).connect(to: host, port: port, lowLatency: false).socket
    }

    private static func milliseconds(_ seconds: Double) -> String {
        String((seconds * 10_000).rounded() / 10)
    }

    private func connector(_ proxy: FTPProxy) -> ProxyConnector {
        ProxyConnector(proxy: proxy, timeout: configuration.timeout, stop: configuration.pacingStop)
    }
}
