// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The client side of a SOCKS5 CONNECT (RFC 1928 §3–§6), with user name and password
/// authentication (RFC 1929 §2) when the proxy has a user.
struct SOCKS5Handshake {
    let wire: ProxyWire

    init(socket: SocketTransport, proxy: FTPProxy, target: String) {
        wire = ProxyWire(socket: socket, proxy: proxy, target: target)
    }

    private var proxy: FTPProxy { wire.proxy }

    /// Greets the proxy, authenticates, asks it to connect to `host`:`port` and reads its reply
    /// (RFC 1928 §6), leaving the socket at the device's first byte.
    /// - Throws: `ProxyFailure`: `.authenticationFailed`, `.notAllowed` (reply 2),
    ///   `.deviceUnreachable` (replies 1, 3–6), `.protocolViolation` (not SOCKS5, replies 7, 8).
    func run(host: String, port: Int) throws(ProxyFailure) {
        let request = try connectRequest(host: host, port: port)
        let methods: [UInt8] = proxy.user == nil ? [0x00] : [0x00, 0x02]
        try wire.send([0x05, UInt8(methods.count)] + methods, "the SOCKS5 greeting")
        let choice: [UInt8]
        do {
            choice = try wire.receive(2, "the SOCKS5 greeting")
        } catch  where error.kind == .timedOut {
            // An HTTP proxy (or another service) waits silently for the rest of a request.
            throw wire.failure(.timedOut, error.detail + "; or it is not a SOCKS5 proxy (check the scheme and port)")
        }
        guard choice[0] == 0x05 else {
            throw wire.failure(.protocolViolation, "its answer to the SOCKS5 greeting starts with \(hex(choice[0]))")
        }
        switch choice[1] {
        case 0x00: break
        case 0x02 where proxy.user != nil: try authenticate()
        case 0xFF:
            throw wire.failure(
                .authenticationFailed,
                proxy.user == nil
                    ? "SOCKS5: it wants a user name and password, and `proxy` has none"
                    : "SOCKS5: it accepts neither no authentication nor a user name and password")
        default:
            throw wire.failure(
                .protocolViolation, "SOCKS5: it chose authentication method \(hex(choice[1])), not offered")
        }
        try wire.send(request, "the SOCKS5 CONNECT request")
        let head: [UInt8]
        do {
            head = try wire.receive(4, "the SOCKS5 CONNECT reply")
        } catch  where error.kind == .proxyUnreachable {
            // OpenSSH's `ssh -D` closes the connection instead of replying when the jump host
            // cannot reach (or resolve) the device.
            throw wire.failure(
                .deviceUnreachable,
                "the proxy closed the connection instead of answering the CONNECT request (an `ssh -D` tunnel "
                    + "does this when the jump host cannot reach or resolve the device)")
        }
        guard head[0] == 0x05 else {
            throw wire.failure(.protocolViolation, "its SOCKS5 CONNECT reply starts with \(hex(head[0]))")
        }
        // The bound address and port follow (RFC 1928 §6); read them whole, whatever the reply.
        let addressLength: Int
        switch head[3] {
        case 0x01: addressLength = 4
        case 0x04: addressLength = 16
        case 0x03: addressLength = Int(try wire.receive(1, "the SOCKS5 CONNECT reply")[0])
        default:
            throw wire.failure(.protocolViolation, "SOCKS5 CONNECT reply with address type \(hex(head[3]))")
        }
        _ = try wire.receive(addressLength + 2, "the SOCKS5 CONNECT reply")
        guard head[1] == 0x00 else {
            var failure = Self.replyFailure(head[1], wire)
            if head[1] == 1 && proxy.kind == .socks5h && !ProxyConnector.isNumeric(host) {
                failure.detail += " (with socks5h the proxy may have failed to resolve the name)"
            }
            throw failure
        }
    }

    /// RFC 1929 §2: version 1, the user name and the password, each 1–255 bytes.
    private func authenticate() throws(ProxyFailure) {
        let user = Array((proxy.user ?? "").utf8)
        let password = Array((proxy.password ?? "").utf8)
        guard (1...255).contains(user.count), password.count <= 255 else {
            throw wire.failure(.authenticationFailed, "SOCKS5 user names and passwords are 1 to 255 bytes long")
        }
        let message = [0x01, UInt8(user.count)] + user + [UInt8(password.count)] + password
        try wire.send(message, "the SOCKS5 user name and password")
        let status = try wire.receive(2, "the SOCKS5 user name and password")
        guard status[1] == 0x00 else {
            let none = proxy.password == nil ? "; `proxy` has a user and no password" : ""
            throw wire.failure(.authenticationFailed, "SOCKS5 authentication status \(status[1])\(none)")
        }
    }

    /// VER 5, CMD 1 (CONNECT), RSV, the address (IPv4, IPv6 or a name of at most 255 bytes), the port.
    private func connectRequest(host: String, port: Int) throws(ProxyFailure) -> [UInt8] {
        var v4 = in_addr()
        var v6 = in6_addr()
        var address: [UInt8]
        if inet_pton(AF_INET, host, &v4) == 1 {
            address = [0x01] + withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            address = [0x04] + withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            let name = Array(host.utf8)
            guard (1...255).contains(name.count) else {
                throw wire.failure(
                    .unsupported, "the device's host name is longer than SOCKS5 allows (255 bytes); give its address")
            }
            address = [0x03, UInt8(name.count)] + name
        }
        let portBytes = [UInt8(truncatingIfNeeded: port >> 8), UInt8(truncatingIfNeeded: port)]
        return [0x05, 0x01, 0x00] + address + portBytes
    }

    /// The failure for a SOCKS5 reply code other than 0 (RFC 1928 §6).
    static func replyFailure(_ code: UInt8, _ wire: ProxyWire) -> ProxyFailure {
        let reasons: [UInt8: (ProxyFailure.Kind, String)] = [
            1: (.deviceUnreachable, "general SOCKS server failure"),
            2: (.notAllowed, "connection not allowed by ruleset"),
            3: (.deviceUnreachable, "network unreachable"),
            4: (.deviceUnreachable, "host unreachable"),
            5: (.deviceUnreachable, "connection refused"),
            6: (.deviceUnreachable, "TTL expired"),
            7: (.protocolViolation, "command not supported"),
            8: (.protocolViolation, "address type not supported"),
        ]
        let (kind, reason) = reasons[code] ?? (.deviceUnreachable, "unassigned code")
        return wire.failure(kind, "SOCKS5 reply \(code): \(reason)")
    }

    private func hex(_ byte: UInt8) -> String {
        (byte < 16 ? "0x0" : "0x") + String(byte, radix: 16)
    }
}
