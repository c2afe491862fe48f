// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A proxy the device's control and data connections go through (`proxy` key): SOCKS5 (RFC 1928,
/// user name and password by RFC 1929) or HTTP CONNECT (RFC 9110 §9.3.6, Basic authentication by
/// RFC 7617). TLS (FTPS) runs end to end through it; the proxy only relays TCP. Passive mode only:
/// the server cannot connect back through it.
///
/// `description`, `debugDescription` and `dump` show the password as `****`.
public struct ProxySetting: Sendable, Hashable, CustomStringConvertible {
    /// How the proxy is spoken to.
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        /// SOCKS5 (RFC 1928); the device's host is resolved here and the proxy gets an address.
        case socks5
        /// SOCKS5; the device's host name is sent to the proxy, which resolves it (a name that
        /// only resolves at the far site).
        case socks5h
        /// HTTP CONNECT (RFC 9110 §9.3.6) with Basic authentication (RFC 7617); the device's host
        /// name is sent to the proxy.
        case http
    }

    /// Why a `proxy` value was refused: one line that says what is wrong and how to write it.
    /// The message never contains the password.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and the fix, without a position.
        public let message: String

        /// Creates an error with `message`.
        public init(_ message: String) {
            self.message = message
        }

        /// Same as `message`.
        public var description: String { message }
    }

    /// The port of a `socks5://` or `socks5h://` proxy written without one (like curl and `ssh -D`).
    public static let defaultSOCKSPort = 1080
    /// The most bytes (UTF-8) a user name or a password may have: RFC 1929's one-byte lengths.
    public static let maximumCredentialBytes = 255

    /// How the proxy is spoken to.
    public var scheme: Scheme
    /// Proxy host: name, IPv4, or IPv6 without brackets.
    public var host: String
    /// Proxy TCP port 1...65535.
    public var port: Int
    /// User name for the proxy (percent-decoded), nil without one.
    public var user: String?
    /// Password (percent-decoded, or from `proxy_password_env`), nil without one.
    public var password: String?

    /// Creates a proxy setting as given; nothing is checked (`parse(_:)` checks a `proxy` value).
    public init(scheme: Scheme, host: String, port: Int, user: String? = nil, password: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.user = user
        self.password = password
    }

    /// The URL with the password as `****`: `socks5://alice:****@127.0.0.1:1080` (no userinfo
    /// when no user; the user percent-encoded where a URL needs it; an IPv6 host in brackets).
    public var description: String {
        var userInfo = ""
        if let user {
            userInfo = Self.percentEncoded(user) + (password == nil ? "" : ":****") + "@"
        }
        let hostText = host.contains(":") ? "[\(host)]" : host
        return "\(scheme.rawValue)://\(userInfo)\(hostText):\(port)"
    }

    /// Parses a `proxy` value: `socks5://[user[:password]@]host[:port]` (port 1080 when left
    /// out), `socks5h://…` likewise, or `http://[user[:password]@]host:port`. The scheme is
    /// read in any letter case; an IPv6 host is written in brackets (`[::1]:1080`); the user
    /// and password are percent-decoded (`%40` for `@`). `none` is not a URL: the `proxy` key
    /// reads it before calling this.
    /// - Parameter text: the value as written in the configuration file.
    /// - Returns: the proxy, with `password` nil when the URL holds none.
    /// - Throws: `ParseError` for anything else: another scheme (`https` included), no host, a
    ///   port out of 1...65535 or missing for `http`, a path other than `/`, a query or
    ///   fragment, spaces, line breaks or control characters, a malformed `%` escape, an empty
    ///   user, a user or password longer than 255 bytes or holding CR, LF or NUL.
    public static func parse(_ text: String) throws(ParseError) -> ProxySetting {
        let bytes = Array(text.utf8)
        try checkCharacters(text, bytes)
        let marker = Array("://".utf8)
        guard let separator = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) else {
            throw ParseError(
                "'proxy' must be a URL like socks5h://127.0.0.1:1080, socks5://proxy.example:1080 or "
                    + "http://proxy.example:3128 (or none to connect directly)")
        }
        let scheme = try readScheme(String(decoding: bytes[..<separator], as: UTF8.self).lowercased())
        let rest = bytes[(separator + 3)...]
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == .numberSign }
        let authority = rest[..<(authorityEnd ?? rest.endIndex)]
        let tail = rest[(authorityEnd ?? rest.endIndex)...]
        if tail.contains(UInt8(ascii: "@")) {
            throw ParseError(
                "a '/', '?' or '#' in the user or password of 'proxy' must be written as %2F, %3F or %23")
        }
        if tail.contains(UInt8(ascii: "?")) || tail.contains(.numberSign) {
            throw ParseError(
                "'proxy' takes no query or fragment ('?', '#'): write only scheme://[user[:password]@]host[:port]")
        }
        if tail.count > 1 {
            throw ParseError("'proxy' takes no path: write only scheme://[user[:password]@]host[:port]")
        }
        let at = authority.filter { $0 == UInt8(ascii: "@") }.count
        guard at <= 1 else {
            throw ParseError("'proxy' has more than one '@': write an '@' in the user or password as %40")
        }
        var proxy = ProxySetting(scheme: scheme, host: "", port: defaultSOCKSPort)
        var hostPort = authority
        if let atIndex = authority.firstIndex(of: UInt8(ascii: "@")) {
            (proxy.user, proxy.password) = try readUserInfo(authority[..<atIndex], scheme: scheme)
            hostPort = authority[(atIndex + 1)...]
        }
        (proxy.host, proxy.port) = try readHostPort(hostPort, scheme: scheme)
        return proxy
    }

    /// Refuses empty text, CR, LF, NUL, other control characters and spaces anywhere.
    private static func checkCharacters(_ text: String, _ bytes: [UInt8]) throws(ParseError) {
        guard !bytes.isEmpty else {
            throw ParseError(
                "'proxy' must not be empty: write a URL like socks5h://127.0.0.1:1080, or none to connect directly")
        }
        if bytes.contains(where: { $0 == 0 || $0 == .lineFeed || $0 == .carriageReturn }) {
            throw ParseError("'proxy' must not contain line breaks or NUL characters")
        }
        if text.unicodeScalars.contains(where: {
            $0.properties.isWhitespace || $0.properties.generalCategory == .control
                || $0.properties.generalCategory == .format
        }) {
            throw ParseError(
                "'proxy' must not contain spaces or control characters (in a user or password, write a space as %20)")
        }
    }

    /// The scheme from its lowercased text.
    private static func readScheme(_ text: String) throws(ParseError) -> Scheme {
        if let scheme = Scheme(rawValue: text) { return scheme }
        if text == "https" {
            throw ParseError(
                "'proxy' cannot be https://: TLS to the proxy is not supported; use http://host:port "
                    + "(FTPS traffic still runs end to end in TLS through it)")
        }
        let isSchemeName =
            text.first.map { $0.isASCII && $0.isLetter } ?? false
            && text.utf8.count <= 20
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        throw ParseError(
            (isSchemeName ? "unknown scheme '\(text)' in 'proxy'" : "'proxy' has no scheme")
                + ": use socks5://, socks5h:// or http://")
    }

    /// The user and password of `user[:password]`, percent-decoded.
    private static func readUserInfo(
        _ bytes: ArraySlice<UInt8>, scheme: Scheme
    ) throws(ParseError) -> (user: String, password: String?) {
        let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        let user = try decodedCredential(bytes[..<(colon ?? bytes.endIndex)], what: "user name")
        guard !user.isEmpty else {
            throw ParseError("the user name in 'proxy' is empty: write user@host, or no '@' at all")
        }
        if scheme == .http && user.contains(":") {
            throw ParseError(
                "the user name of an http:// proxy cannot contain ':' (%3A): Basic authentication (RFC 7617) "
                    + "splits user and password at the first ':'")
        }
        guard let colon else { return (user, nil) }
        let password = try decodedCredential(bytes[(colon + 1)...], what: "password")
        guard !password.isEmpty else {
            throw ParseError(
                "the password in 'proxy' is empty: leave out the ':' after the user (or give the password "
                    + "in proxy_password_env)")
        }
        return (user, password)
    }

    /// Percent-decodes a user name or password and checks it: UTF-8, at most 255 bytes, no CR,
    /// LF or NUL.
    private static func decodedCredential(_ bytes: ArraySlice<UInt8>, what: String) throws(ParseError) -> String {
        var decoded: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "%") else {
                decoded.append(bytes[index])
                index += 1
                continue
            }
            guard bytes.endIndex - index >= 3, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            else {
                throw ParseError(
                    "the \(what) in 'proxy' has a '%' without two hex digits after it: write a '%' itself as %25")
            }
            decoded.append(high << 4 | low)
            index += 3
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw ParseError("the \(what) in 'proxy' is not UTF-8 text once its %-escapes are decoded")
        }
        return try checkedCredential(text, what: "the \(what) in 'proxy'")
    }

    /// `text` when it is a valid proxy user name or password: at most 255 bytes in UTF-8, no CR,
    /// LF or NUL (they would end a SOCKS5 or HTTP request early).
    /// - Parameter what: the credential's name in messages, like "the password in 'proxy'".
    /// - Throws: `ParseError` naming `what` and the rule broken.
    static func checkedCredential(_ text: String, what: String) throws(ParseError) -> String {
        if text.utf8.contains(where: { $0 == 0 || $0 == .lineFeed || $0 == .carriageReturn }) {
            throw ParseError("\(what) must not contain line breaks or NUL characters")
        }
        guard text.utf8.count <= maximumCredentialBytes else {
            throw ParseError(
                "\(what) is longer than \(maximumCredentialBytes) bytes (the SOCKS5 limit of RFC 1929)")
        }
        return text
    }

    /// The host (brackets removed) and port of `host[:port]` or `[IPv6][:port]`.
    private static func readHostPort(
        _ bytes: ArraySlice<UInt8>, scheme: Scheme
    ) throws(ParseError) -> (host: String, port: Int) {
        var hostBytes = bytes
        var portBytes: ArraySlice<UInt8>?
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
                throw ParseError("'proxy' has a '[' without its ']': write an IPv6 address as [::1]")
            }
            hostBytes = bytes[(bytes.startIndex + 1)..<close]
            let after = bytes[(close + 1)...]
            if let first = after.first {
                guard first == UInt8(ascii: ":") else {
                    throw ParseError("in 'proxy', only ':port' may follow an IPv6 address in brackets: [::1]:1080")
                }
                portBytes = after.dropFirst()
            }
            guard isIPv6Address(String(decoding: hostBytes, as: UTF8.self)) else {
                throw ParseError("'proxy' holds something other than an IPv6 address in brackets: write [::1]:1080")
            }
        } else {
            let colons = bytes.filter { $0 == UInt8(ascii: ":") }.count
            if colons > 1 {
                throw ParseError("an IPv6 address in 'proxy' must be in brackets: socks5://[::1]:1080")
            }
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                hostBytes = bytes[..<colon]
                portBytes = bytes[(colon + 1)...]
            }
            try checkHostName(hostBytes)
        }
        let host = String(decoding: hostBytes, as: UTF8.self)
        guard let portBytes else {
            guard scheme != .http else {
                throw ParseError(
                    "an http:// proxy needs its port, like http://proxy.example:3128 (HTTP proxies have no "
                        + "standard port)")
            }
            return (host, defaultSOCKSPort)
        }
        guard portBytes.count <= 5, !portBytes.isEmpty, portBytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let port = Int(String(decoding: portBytes, as: UTF8.self)), (1...65_535).contains(port)
        else {
            throw ParseError("the port in 'proxy' must be a number from 1 to 65535")
        }
        return (host, port)
    }

    /// Refuses an empty host, one over 253 characters, or one of other characters than letters,
    /// digits, `-`, `.` and `_`; all digits and dots must be an IPv4 address.
    private static func checkHostName(_ bytes: ArraySlice<UInt8>) throws(ParseError) {
        guard !bytes.isEmpty else {
            throw ParseError("'proxy' names no host: write scheme://host:port, like socks5h://127.0.0.1:1080")
        }
        let isNameByte: (UInt8) -> Bool = { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
        }
        guard bytes.count <= 253, bytes.allSatisfy(isNameByte) else {
            throw ParseError(
                "the host in 'proxy' must be a host name (letters, digits, '-', '.'; an international name in "
                    + "its xn-- form) or an IP address (IPv6 in brackets)")
        }
        let host = String(decoding: bytes, as: UTF8.self)
        if bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }) && !isIPv4Address(host) {
            throw ParseError("the host in 'proxy' is not a valid IPv4 address (four numbers 0-255: 127.0.0.1)")
        }
    }

    /// True for an IPv4 literal (`127.0.0.1`).
    private static func isIPv4Address(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    /// True for an IPv6 literal without brackets or zone (`::1`, `fe80::1`, `::ffff:10.0.0.1`).
    private static func isIPv6Address(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    /// The value of an ASCII hex digit, nil for any other byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// `text` with every byte but RFC 3986's unreserved ones and sub-delimiters as `%XX`, so that
    /// a user holding `@` or `:` reads back unambiguously.
    private static func percentEncoded(_ text: String) -> String {
        let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=".utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var result: [UInt8] = []
        for byte in text.utf8 {
            if kept.contains(byte) {
                result.append(byte)
            } else {
                result += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension ProxySetting: CustomDebugStringConvertible, CustomReflectable {
    /// Same as `description`: the password never appears.
    public var debugDescription: String { description }

    /// The fields for `dump` and debuggers, with the password masked.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "scheme": scheme, "host": host, "port": port, "user": user ?? "nil",
                "password": password == nil ? "nil" : "****",
            ])
    }
}

extension UInt8 {
    fileprivate static let numberSign = UInt8(ascii: "#")
    fileprivate static let lineFeed = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
}
