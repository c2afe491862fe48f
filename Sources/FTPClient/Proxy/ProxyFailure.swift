// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Why the proxy step of a connection failed, and whose fault it was: the proxy's (unreachable,
/// credentials refused, not a proxy of that kind) or the device's (the proxy could not reach it).
public struct ProxyFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Equatable {
        /// The TCP connection to the proxy could not be made.
        case proxyUnreachable
        /// The proxy refused the user name and password, or wants some and none are configured
        /// (SOCKS5 method 0xFF or RFC 1929 status not 0; HTTP 407, or 401 as tinyproxy answers).
        case authenticationFailed
        /// The proxy's own rules refuse the connection (SOCKS5 reply 2; HTTP 403 and other 4xx).
        case notAllowed
        /// The proxy could not reach the device (SOCKS5 replies 1, 3, 4, 5, 6; HTTP 5xx): the
        /// device, or the path from the proxy to it, failed.
        case deviceUnreachable
        /// The proxy stopped answering within the timeout during its handshake.
        case timedOut
        /// The proxy's answer is not SOCKS5 (or HTTP), or it refuses the request's form
        /// (SOCKS5 replies 7 and 8).
        case protocolViolation
        /// What was asked cannot work through a proxy (active mode).
        case unsupported
    }

    /// What went wrong.
    public var kind: Kind
    /// The proxy, as a URL with the password masked (`FTPProxy.description`).
    public var proxy: String
    /// Where the connection was to go: `host:port` of the device (control connection) or of
    /// its passive data port.
    public var target: String
    /// The proxy's answer or the system's reason: `SOCKS5 reply 5 (connection refused)`,
    /// `HTTP 407 Proxy Authentication Required`, `Connection refused`.
    public var detail: String

    /// Creates a failure description.
    public init(kind: Kind, proxy: String, target: String, detail: String) {
        self.kind = kind
        self.proxy = proxy
        self.target = target
        self.detail = detail
    }

    /// True when a later attempt may succeed (the proxy or the device was down or slow).
    public var isTransient: Bool {
        switch kind {
        case .proxyUnreachable, .deviceUnreachable, .timedOut: return true
        case .authenticationFailed, .notAllowed, .protocolViolation, .unsupported: return false
        }
    }

    /// One line: who failed, why, and what to do.
    public var description: String {
        switch kind {
        case .proxyUnreachable:
            return "cannot connect to the proxy \(proxy): \(detail); check `proxy` and that the proxy "
                + "(or the `ssh -D` tunnel) runs"
        case .authenticationFailed:
            return "the proxy \(proxy) refused the user name and password (\(detail)); check the user and "
                + "password in `proxy` (or `proxy_password_env`)"
        case .notAllowed:
            return "the proxy \(proxy) does not allow a connection to \(target) (\(detail)); its rules must "
                + "allow the FTP port and every passive data port"
        case .deviceUnreachable:
            return "the proxy \(proxy) could not reach the device at \(target): \(detail); check host and "
                + "port, and that the server runs (as seen from the proxy)"
        case .timedOut:
            return "the proxy \(proxy) stopped answering (\(detail)); check the proxy or raise `timeout`"
        case .protocolViolation:
            return "the proxy \(proxy) did not answer as a \(proxyScheme) proxy: \(detail); check the scheme "
                + "and port in `proxy`"
        case .unsupported:
            return "\(detail) (proxy \(proxy))"
        }
    }

    private var proxyScheme: String {
        proxy.hasPrefix("http") ? "HTTP CONNECT" : "SOCKS5"
    }
}
