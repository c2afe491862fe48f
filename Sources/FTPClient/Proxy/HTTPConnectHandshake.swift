// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The client side of an HTTP CONNECT tunnel (RFC 9110 §9.3.6), with Basic authentication
/// (RFC 7617) when the proxy has a user.
struct HTTPConnectHandshake {
    let wire: ProxyWire
    /// The most bytes the proxy's answer (status line and header fields) may have.
    static let maximumAnswer = 16 * 1024

    init(socket: SocketTransport, proxy: FTPProxy, target: String) {
        wire = ProxyWire(socket: socket, proxy: proxy, target: target)
    }

    /// Sends `CONNECT host:port` and reads the answer up to its empty line, not a byte further.
    /// - Throws: `ProxyFailure`: `.authenticationFailed` (407, 401), `.notAllowed` (other 4xx),
    ///   `.deviceUnreachable` (5xx but 501, 505), `.protocolViolation` (not HTTP, 1xx, 3xx).
    func run() throws(ProxyFailure) {
        var request = "CONNECT \(wire.target) HTTP/1.1\r\nHost: \(wire.target)\r\n"
        if let credentials = wire.proxy.basicCredentials {
            request += "Proxy-Authorization: Basic \(credentials)\r\n"
        }
        request += "\r\n"
        try wire.send(Array(request.utf8), "the HTTP CONNECT request")
        let answer = try readAnswer()
        let statusLine = answer.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let words = statusLine.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0].hasPrefix("HTTP/1."), let code = Int(words[1]), (100...599).contains(code)
        else {
            throw wire.failure(
                .protocolViolation, "its answer is not HTTP: \(SafeText.escaped(String(statusLine.prefix(200))))")
        }
        let shown = "HTTP \(code)" + (words.count > 2 ? " \(SafeText.escaped(String(words[2].prefix(200))))" : "")
        switch code {
        case 200..<300: return
        // 407 asks for credentials; tinyproxy answers wrong ones with 401.
        case 401, 407:
            let none = wire.proxy.user == nil ? "; it wants a user name and password, and `proxy` has none" : ""
            throw wire.failure(.authenticationFailed, shown + none)
        case 501, 505: throw wire.failure(.protocolViolation, shown)
        case 400..<500: throw wire.failure(.notAllowed, shown)
        case 500..<600: throw wire.failure(.deviceUnreachable, shown)
        default: throw wire.failure(.protocolViolation, shown)
        }
    }

    /// The status line and header fields, through the empty line that ends them. Reads never
    /// go past it: each read asks for no more bytes than could still belong to the answer
    /// (4 less what is already a start of CR LF CR LF).
    private func readAnswer() throws(ProxyFailure) -> String {
        let end: [UInt8] = [13, 10, 13, 10]
        var bytes: [UInt8] = []
        var matched = 0
        while matched < end.count {
            guard bytes.count < Self.maximumAnswer else {
                throw wire.failure(.protocolViolation, "its answer is longer than \(Self.maximumAnswer) bytes")
            }
            bytes += try wire.receive(end.count - matched, "the HTTP CONNECT request")
            matched = Self.endMatched(bytes, end)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How many bytes at the end of `bytes` are a start of `end` (all of it when `bytes` ends with it).
    static func endMatched(_ bytes: [UInt8], _ end: [UInt8]) -> Int {
        for length in stride(from: min(end.count, bytes.count), through: 1, by: -1)
        where bytes.suffix(length).elementsEqual(end.prefix(length)) {
            return length
        }
        return 0
    }
}
