// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Glibc
import Testing

@testable import FTPClient

/// Issue 22: the proxy step of a connection, against proxies scripted byte for byte (the real
/// microsocks and tinyproxy are in IntegrationTests' ProxyTests). The device's first bytes,
/// sent by the proxy in the same write as its answer, reach the session whole; each refusal is
/// blamed on the proxy or on the device; the password never shows. `FakeProxy`s on 127.0.67.x.
@Suite struct ProxyHandshakeTests {
    static let greeting = "220 device ready\r\n"
    static let password = "pr0xy-s3cret-pw"

    /// Connects through `proxy` (kind, credentials) served by `fake` to `host`:`port`, and
    /// returns the first bytes read from the device side.
    static func connect(
        _ fake: FakeProxy, kind: FTPProxy.Kind, user: String? = nil, host: String = "192.0.2.7", port: Int = 21,
        timeout: Double = 2
    ) throws(FTPError) -> String {
        let proxy = FTPProxy(
            kind: kind, host: fake.address, port: fake.port, user: user, password: user.map { _ in password })
        let opened = try ProxyConnector(proxy: proxy, timeout: timeout).connect(to: host, port: port, lowLatency: true)
        defer { opened.socket.close() }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = (try? buffer.withUnsafeMutableBytes { try opened.socket.read(into: $0) }) ?? 0
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    /// The proxy failure `body` throws; nil (with an issue recorded) when it connects or throws
    /// another error.
    static func proxyFailure(_ body: () throws(FTPError) -> Void) -> ProxyFailure? {
        do {
            try body()
            Issue.record("connected through a proxy that should have failed")
        } catch {
            guard case .proxyFailed(let failure) = error else {
                Issue.record("\(error)")
                return nil
            }
            return failure
        }
        return nil
    }

    /// A SOCKS5 proxy: reads the greeting, (with `user`) the RFC 1929 request, the CONNECT
    /// request, and answers `reply` with the device's greeting in the same write.
    static func socks(_ address: String, method: UInt8 = 0, authStatus: UInt8 = 0, reply: UInt8 = 0) throws -> FakeProxy
    {
        try FakeProxy(address: address) { peer in
            let head = peer.read(2)
            guard head.count == 2 else { return }
            peer.read(Int(head[1]))
            peer.send([5, method])
            if method == 0xFF { return peer.waitForClose() }
            if method == 2 {
                peer.read(1)
                let userLength = peer.read(1).first ?? 0
                peer.read(Int(userLength))
                let passwordLength = peer.read(1).first ?? 0
                peer.read(Int(passwordLength))
                peer.send([1, authStatus])
                if authStatus != 0 { return peer.waitForClose() }
            }
            let request = peer.read(4)
            guard request.count == 4 else { return }
            switch request[3] {
            case 1: peer.read(4)
            case 4: peer.read(16)
            default: peer.read(Int(peer.read(1).first ?? 0))
            }
            peer.read(2)
            // A bound address given as a name: its length byte and bytes must be read whole.
            let bound: [UInt8] = [3, 9] + Array("proxy.lan".utf8) + [0x04, 0x38]
            peer.send([5, reply, 0] + bound + (reply == 0 ? Array(greeting.utf8) : []))
            peer.waitForClose()
        }
    }

    @Test func socks5CarriesTheDevicesFirstBytesWhole() throws {
        let fake = try Self.socks("127.0.67.1")
        defer { fake.stop() }
        #expect(try Self.connect(fake, kind: .socks5) == Self.greeting)
        let sent = try #require(fake.received.first)
        // No authentication offered without a user; CONNECT to 192.0.2.7 port 21 by address.
        #expect(Array(sent.prefix(3)) == [5, 1, 0])
        #expect(Array(sent.suffix(10)) == [5, 1, 0, 1, 192, 0, 2, 7, 0, 21])
    }

    @Test func socks5WithAUserSendsRFC1929AndNamesForSocks5h() throws {
        let fake = try Self.socks("127.0.67.2", method: 2)
        defer { fake.stop() }
        #expect(try Self.connect(fake, kind: .socks5h, user: "alice", host: "camera.site", port: 2121) == Self.greeting)
        let sent = try #require(fake.received.first)
        let auth = [1, 5] + Array("alice".utf8) + [UInt8(Self.password.utf8.count)] + Array(Self.password.utf8)
        #expect(Array(sent[4..<(4 + auth.count)]) == auth)
        #expect(Array(sent.suffix(18)) == [5, 1, 0, 3, 11] + Array("camera.site".utf8) + [0x08, 0x49])
    }

    @Test func socks5ResolvesANameHereAndTriesEachAddress() throws {
        // `localhost` may give ::1 and 127.0.0.1: the first refused by the proxy, the next tried.
        let answered = Counter()
        let fake = try FakeProxy(address: "127.0.67.3") { peer in
            let head = peer.read(2)
            peer.read(Int(head.last ?? 0))
            peer.send([5, 0])
            let request = peer.read(4)
            peer.read(request.last == 4 ? 18 : 6)
            let refuse = answered.next() == 1 && ProxyConnector.isNumeric("::1")
            peer.send([5, refuse ? 5 : 0, 0, 1, 0, 0, 0, 0, 0, 0] + (refuse ? [] : Array(Self.greeting.utf8)))
            peer.waitForClose()
        }
        defer { fake.stop() }
        let addresses = try ProxyConnector.resolve("localhost", 21)
        #expect(!addresses.isEmpty && addresses.allSatisfy(ProxyConnector.isNumeric))
        if addresses.count > 1 {
            #expect(try Self.connect(fake, kind: .socks5, host: "localhost") == Self.greeting)
        }
        for request in fake.received { #expect(request.count >= 10 && [1, 4].contains(request[6])) }
    }

    /// Each refusal, and whom it blames.
    @Test(arguments: [
        (UInt8(0), UInt8(1), UInt8(0), ProxyFailure.Kind.authenticationFailed, "status 1"),
        (0xFF, 0, 0, .authenticationFailed, "accepts neither"),
        (0, 0, 2, .notAllowed, "reply 2: connection not allowed by ruleset"),
        (0, 0, 5, .deviceUnreachable, "reply 5: connection refused"),
        (0, 0, 4, .deviceUnreachable, "reply 4: host unreachable"),
        (0, 0, 7, .protocolViolation, "reply 7: command not supported"),
    ])
    func socks5Refusals(method: UInt8, authStatus: UInt8, reply: UInt8, kind: ProxyFailure.Kind, detail: String)
        throws
    {
        let fake = try Self.socks(
            "127.0.67.4", method: method == 0 && authStatus != 0 ? 2 : method, authStatus: authStatus, reply: reply)
        defer { fake.stop() }
        let failure = try #require(
            Self.proxyFailure { () throws(FTPError) in _ = try Self.connect(fake, kind: .socks5, user: "alice") })
        let error = FTPError.proxyFailed(failure)
        #expect(failure.kind == kind)
        #expect(failure.detail.contains(detail), "\(failure.detail)")
        #expect(!error.description.contains(Self.password))
        #expect(error.description.contains("alice:****@127.0.67.4"))
        #expect(error.isTransient == (kind == .deviceUnreachable))
    }

    /// OpenSSH's `ssh -D` closes the connection instead of replying when the jump host cannot
    /// reach the device: the device is blamed (and retried), not the proxy's scheme or port.
    @Test func aSocksProxyThatClosesInsteadOfReplyingBlamesTheDevice() throws {
        let fake = try FakeProxy(address: "127.0.67.11") { peer in
            let head = peer.read(2)
            peer.read(Int(head.last ?? 0))
            peer.send([5, 0])
            peer.read(10)  // the CONNECT request (IPv4), then hang up as ssh -D does
        }
        defer { fake.stop() }
        let failure = try #require(
            Self.proxyFailure { () throws(FTPError) in _ = try Self.connect(fake, kind: .socks5h) })
        let error = FTPError.proxyFailed(failure)
        #expect(failure.kind == .deviceUnreachable)
        #expect(error.description.contains("could not reach the device") && error.description.contains("ssh -D"))
        #expect(error.isTransient)
    }

    /// A proxy that wants a login from a `proxy` without one says so, for HTTP as for SOCKS5.
    @Test func anHTTPProxyThatWantsCredentialsAndHasNoneSaysSo() throws {
        let fake = try Self.http("127.0.67.12", answer: "HTTP/1.0 407 Proxy Authentication Required\r\n\r\n")
        defer { fake.stop() }
        do {
            _ = try Self.connect(fake, kind: .http)
            Issue.record("connected through a refusing proxy")
        } catch {
            #expect(error.description.contains("wants a user name and password, and `proxy` has none"))
        }
    }

    /// A proxy that echoes the credentials in its refusal of the control connection: masked in
    /// the session's error, the password (even one of 3 characters) and the Basic credentials as
    /// sent (the breaker's find: the control connection's proxy step was not scrubbed).
    @Test(arguments: ["pr0xy-s3cret-pw", "x9z"])
    func credentialsAProxyEchoesAreMasked(password: String) throws {
        let basic = Data("alice:\(password)".utf8).base64EncodedString()
        let fake = try Self.http(
            "127.0.67.13", answer: "HTTP/1.1 403 Forbidden for alice:\(password) (Basic \(basic))\r\n\r\n")
        defer { fake.stop() }
        var configuration = FTPSessionConfiguration(host: "192.0.2.7", timeout: 2)
        configuration.proxy = FTPProxy(
            kind: .http, host: fake.address, port: fake.port, user: "alice", password: password)
        let session = FTPSession(configuration: configuration)
        do {
            try session.connect()
            Issue.record("connected through a refusing proxy")
        } catch {
            #expect(!error.description.contains(password) && !error.description.contains(basic), "\(error)")
            #expect(error.description.contains("alice:****"))
        }
    }

    /// A proxy that hangs up during its handshake (at its connection limit, restarting) is worth
    /// another attempt; a proxy that drips its answer is cut at twice the timeout.
    @Test func aProxyThatHangsUpIsRetriedAndOneThatDripsIsCut() throws {
        let hangsUp = try FakeProxy(address: "127.0.67.14") { peer in peer.read(3) }
        defer { hangsUp.stop() }
        let failure = try #require(
            Self.proxyFailure { () throws(FTPError) in _ = try Self.connect(hangsUp, kind: .socks5) })
        let error = FTPError.proxyFailed(failure)
        #expect(failure.kind == .proxyUnreachable && error.isTransient, "\(error)")
        let drips = try FakeProxy(address: "127.0.67.15") { peer in
            _ = peer.readHead()
            for byte in "HTTP/1.1 200 OK\r\nX-Slow: ".utf8 + Array(repeating: UInt8(ascii: "a"), count: 100) {
                peer.send([byte])
                usleep(100_000)
            }
        }
        defer { drips.stop() }
        let started = Date()
        let cut = try #require(
            Self.proxyFailure { () throws(FTPError) in _ = try Self.connect(drips, kind: .http, timeout: 0.5) })
        #expect(cut.kind == .timedOut, "\(FTPError.proxyFailed(cut))")
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func aSocksProxyThatWantsCredentialsAndHasNoneSaysSo() throws {
        let fake = try Self.socks("127.0.67.5", method: 0xFF)
        defer { fake.stop() }
        #expect(throws: FTPError.self) { try Self.connect(fake, kind: .socks5) }
        do { _ = try Self.connect(fake, kind: .socks5) } catch {
            #expect(error.description.contains("wants a user name and password, and `proxy` has none"))
        }
    }

    /// An HTTP proxy answering `status` (its head, then the device's greeting in the same write).
    static func http(_ address: String, answer: String) throws -> FakeProxy {
        try FakeProxy(address: address) { peer in
            _ = peer.readHead()
            peer.send(answer + (answer.hasPrefix("HTTP/1.1 200") ? greeting : ""))
            peer.waitForClose()
        }
    }

    @Test func httpConnectCarriesTheDevicesFirstBytesWhole() throws {
        let fake = try Self.http(
            "127.0.67.6", answer: "HTTP/1.1 200 Connection established\r\nProxy-agent: fake/1.0\r\n\r\n")
        defer { fake.stop() }
        #expect(try Self.connect(fake, kind: .http, user: "alice", host: "::1", port: 990) == Self.greeting)
        let head = String(decoding: try #require(fake.received.first), as: UTF8.self)
        let basic = Data("alice:\(Self.password)".utf8).base64EncodedString()
        #expect(head == "CONNECT [::1]:990 HTTP/1.1\r\nHost: [::1]:990\r\nProxy-Authorization: Basic \(basic)\r\n\r\n")
    }

    @Test(arguments: [
        ("HTTP/1.0 407 Proxy Authentication Required\r\n\r\n", ProxyFailure.Kind.authenticationFailed, "HTTP 407"),
        (
            "HTTP/1.0 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"tinyproxy\"\r\n\r\n", .authenticationFailed,
            "HTTP 401"
        ),
        ("HTTP/1.0 403 Access violation\r\n\r\n", .notAllowed, "HTTP 403 Access violation"),
        ("HTTP/1.0 500 Unable to connect\r\n\r\n", .deviceUnreachable, "HTTP 500"),
        ("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n", .deviceUnreachable, "HTTP 502 Bad Gateway"),
        ("SSH-2.0-OpenSSH_9.2\r\n\r\n", .protocolViolation, "not HTTP: SSH-2.0"),
        (
            "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Pad: 0123456789\r\n", count: 1000), .protocolViolation,
            "longer than"
        ),
    ])
    func httpRefusals(answer: String, kind: ProxyFailure.Kind, detail: String) throws {
        let fake = try Self.http("127.0.67.7", answer: answer)
        defer { fake.stop() }
        let failure = try #require(
            Self.proxyFailure { () throws(FTPError) in _ = try Self.connect(fake, kind: .http, user: "alice") })
        let error = FTPError.proxyFailed(failure)
        #expect(failure.kind == kind)
        #expect(failure.detail.contains(detail), "\(failure.detail)")
        #expect(!error.description.contains(Self.password))
    }

    @Test func aSilentProxyTimesOutAndADownOneIsUnreachable() throws {
        let silent = try FakeProxy(address: "127.0.67.8") { peer in
            peer.read(3)  // the greeting, never answered
            peer.waitForClose(seconds: 5)
        }
        defer { silent.stop() }
        do { _ = try Self.connect(silent, kind: .socks5, timeout: 0.3) } catch {
            guard case .proxyFailed(let failure) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(failure.kind == .timedOut)
            #expect(error.isTransient)
        }
        let proxy = FTPProxy(kind: .http, host: "127.0.67.9", port: 9, user: "alice", password: Self.password)
        let failure = try #require(
            Self.proxyFailure { () throws(FTPError) in
                _ = try ProxyConnector(proxy: proxy, timeout: 1).connect(to: "192.0.2.7", port: 21, lowLatency: true)
            })
        let error = FTPError.proxyFailed(failure)
        #expect(failure.kind == .proxyUnreachable)
        #expect(error.description.hasPrefix("cannot connect to the proxy http://alice:****@127.0.67.9:9"))
    }

    @Test func activeModeThroughAProxyIsRefusedBeforeAnyConnection() throws {
        let fake = try Self.socks("127.0.67.10")
        defer { fake.stop() }
        var configuration = FTPSessionConfiguration(host: "192.0.2.7", timeout: 1)
        configuration.proxy = FTPProxy(kind: .socks5, host: fake.address, port: fake.port)
        configuration.passive = false
        let session = FTPSession(configuration: configuration)
        #expect(throws: FTPError.self) { try session.connect() }
        #expect(fake.received.isEmpty)
    }

    @Test func theProxyPasswordIsASecretOfTheSession() {
        var configuration = FTPSessionConfiguration(host: "192.0.2.7", password: "ftp-pw")
        configuration.proxy = FTPProxy(kind: .socks5, host: "127.0.0.1", port: 1080, user: "u", password: Self.password)
        #expect(configuration.secrets.contains(Self.password))
        #expect(configuration.proxy?.description == "socks5://u:****@127.0.0.1:1080")
        let odd = FTPProxy(kind: .http, host: "::1", port: 3128, user: "cam@site:1", password: "x")
        #expect(odd.description == "http://cam%40site%3A1:****@[::1]:3128")
        let failure = FTPError.proxyFailed(
            ProxyFailure(kind: .deviceUnreachable, proxy: "p", target: "t", detail: "said \(Self.password)"))
        #expect(!failure.scrubbed(by: SecretScrubber(configuration.secrets)).description.contains(Self.password))
    }

    @Test func theEndOfAnHTTPHeadIsNeverOverrun() {
        let end: [UInt8] = [13, 10, 13, 10]
        #expect(HTTPConnectHandshake.endMatched(Array("abc\r".utf8), end) == 1)
        #expect(HTTPConnectHandshake.endMatched(Array("abc\r\n\r".utf8), end) == 3)
        #expect(HTTPConnectHandshake.endMatched(Array("a\r\n\r\n".utf8), end) == 4)
        #expect(HTTPConnectHandshake.endMatched(Array("\r\nx".utf8), end) == 0)
    }
}
