// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long the proxy step of the last control connection took, for `check`.
public struct ProxyHop: Sendable, Equatable {
    /// The proxy, as a URL with the password masked.
    public var proxy: String
    /// Where the proxy was asked to connect: the device's address (`socks5`) or host name.
    public var target: String
    /// Seconds to open the TCP connection to the proxy (about one round trip to it).
    public var proxySeconds: Double
    /// Seconds from then until the proxy said the device is connected: its handshake, the
    /// credentials, and its own connection to the device.
    public var throughSeconds: Double
}

/// Opens TCP connections to a device through an `FTPProxy`: a connection to the proxy, then
/// its handshake (`SOCKS5Handshake`, `HTTPConnectHandshake`), after which the socket carries
/// the device's bytes. Every step waits at most `timeout` seconds without progress.
struct ProxyConnector {
    let proxy: FTPProxy
    /// Seconds without progress before a step is given up.
    let timeout: Double
    /// Asked while waiting for the proxy's answers: a stop ends the wait.
    var stop: PacingStop?

    /// A connection through the proxy, and what it cost.
    struct Opened {
        let socket: SocketTransport
        /// Where the connection goes: a numeric address for `socks5` (resolved here), else the
        /// host as given. Data connections of the session go there too.
        let target: String
        let hop: ProxyHop
    }

    /// Connects to `host`:`port` through the proxy. With `socks5`, a host name is resolved here
    /// and each of its addresses is tried in turn while the proxy cannot reach the last one.
    /// - Parameter lowLatency: TCP_NODELAY (control connections), as `SocketTransport.connect`.
    /// - Throws: `FTPError.proxyFailed` (the proxy unreachable, refusing, or unable to reach the
    ///   device), `.connectFailed` when a `socks5` host name does not resolve.
    func connect(to host: String, port: Int, lowLatency: Bool) throws(FTPError) -> Opened {
        guard proxy.kind == .socks5, !Self.isNumeric(host) else {
            return try open(host, port, lowLatency: lowLatency)
        }
        var lastFailure: FTPError?
        let addresses: [String]
        do {
            addresses = try Self.resolve(host, port)
        } catch .connectFailed(_, _, let reason) {
            let hint = "the name is resolved on this machine with socks5://; socks5h:// lets the proxy resolve it"
            throw .connectFailed(host: host, port: port, reason: "\(reason) (\(hint))")
        } catch {
            throw error
        }
        for address in addresses {
            do {
                return try open(address, port, lowLatency: lowLatency)
            } catch .proxyFailed(let failure) where failure.kind == .deviceUnreachable {
                lastFailure = .proxyFailed(failure)
            }
        }
        throw lastFailure ?? .connectFailed(host: host, port: port, reason: "no address")
    }

    private func open(_ host: String, _ port: Int, lowLatency: Bool) throws(FTPError) -> Opened {
        let target = FTPError.hostPort(host, port)
        let started = SocketTransport.monotonicSeconds()
        let socket: SocketTransport
        do {
            socket = try SocketTransport.connect(
                host: proxy.host, port: proxy.port, timeout: timeout, lowLatency: lowLatency)
        } catch .connectFailed(_, _, let reason) {
            throw failure(.proxyUnreachable, target, reason)
        } catch {
            throw error
        }
        let connected = SocketTransport.monotonicSeconds()
        socket.stop = stop
        defer { socket.stop = nil }
        do throws(ProxyFailure) {
            switch proxy.kind {
            case .socks5, .socks5h:
                try SOCKS5Handshake(socket: socket, proxy: proxy, target: target).run(host: host, port: port)
            case .http:
                try HTTPConnectHandshake(socket: socket, proxy: proxy, target: target).run()
            }
        } catch {
            socket.close()
            throw .proxyFailed(error)
        }
        let hop = ProxyHop(
            proxy: proxy.description, target: target, proxySeconds: connected - started,
            throughSeconds: SocketTransport.monotonicSeconds() - connected)
        return Opened(socket: socket, target: host, hop: hop)
    }

    private func failure(_ kind: ProxyFailure.Kind, _ target: String, _ detail: String) -> FTPError {
        .proxyFailed(ProxyFailure(kind: kind, proxy: proxy.description, target: target, detail: detail))
    }

    /// True for an IPv4 or IPv6 literal.
    static func isNumeric(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// The numeric addresses of `host` (getaddrinfo(3)), in the order given, without repeats.
    /// - Throws: `.connectFailed` with the resolver's reason.
    static func resolve(_ host: String, _ port: Int) throws(FTPError) -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketPlatform.stream
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw .connectFailed(host: host, port: port, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor, addresses.count < 16 {
            cursor = info.pointee.ai_next
            guard let address = SocketTransport.numericHost(info.pointee.ai_addr, info.pointee.ai_addrlen) else {
                continue
            }
            if !addresses.contains(address) { addresses.append(address) }
        }
        return addresses
    }
}
