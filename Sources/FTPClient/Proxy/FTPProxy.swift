// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A proxy that a session's control connection and every data connection go through: SOCKS5
/// (RFC 1928, with RFC 1929 user name and password) or HTTP CONNECT (RFC 9110 §9.3.6, with
/// Basic authentication, RFC 7617). TLS (FTPS) runs end to end through it: the proxy only relays
/// TCP. Active mode cannot work through it (the server would have to connect back).
public struct FTPProxy: Sendable, Equatable, CustomStringConvertible {
    /// How the proxy is spoken to and who resolves the device's host name.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// SOCKS5; the device's host name is resolved here and the proxy is given an address.
        case socks5
        /// SOCKS5; the device's host name is given to the proxy, which resolves it (for names
        /// that only resolve at the far site).
        case socks5h
        /// HTTP CONNECT; the device's host name is given to the proxy.
        case http
    }

    /// The proxy's protocol.
    public var kind: Kind
    /// The proxy's host: a name, an IPv4 or an IPv6 literal (without brackets).
    public var host: String
    /// The proxy's TCP port.
    public var port: Int
    /// The user name for the proxy (at most 255 bytes in UTF-8 for SOCKS5); nil for none.
    public var user: String?
    /// The password for the proxy; never shown (`description` masks it).
    public var password: String?

    /// Creates a proxy description; nothing is checked or connected until a session uses it.
    public init(kind: Kind, host: String, port: Int, user: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.user = user
        self.password = password
    }

    /// The proxy as a URL with the password masked: `socks5://alice:****@127.0.0.1:1080`.
    public var description: String {
        var userInfo = ""
        if let user {
            // As written in a URL: an `@`, `:`, `/` or `%` in the user would make it ambiguous.
            var written = ""
            for character in user {
                switch character {
                case "%": written += "%25"
                case "@": written += "%40"
                case ":": written += "%3A"
                case "/": written += "%2F"
                default: written.append(character)
                }
            }
            userInfo = written + (password == nil ? "" : ":****") + "@"
        }
        return "\(kind.rawValue)://\(userInfo)\(FTPError.hostPort(host, port))"
    }

    /// What no output may show: the password, and for HTTP the Basic credentials as sent
    /// (base64 of `user:password`, RFC 7617), which a proxy may echo in its answer.
    var secrets: [String] {
        guard let password else { return [] }
        return [password] + (basicCredentials.map { [$0] } ?? [])
    }

    /// The credentials of HTTP Basic authentication (RFC 7617): base64 of `user:password`;
    /// nil without a user or for SOCKS5.
    var basicCredentials: String? {
        guard kind == .http, let user else { return nil }
        return Data("\(user):\(password ?? "")".utf8).base64EncodedString()
    }

}
