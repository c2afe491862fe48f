// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Glibc

/// A proxy on loopback that a test scripts byte for byte: each accepted connection runs
/// `script` on its own thread with a `FakeProxyPeer` (read exactly N bytes, send bytes); what
/// the client sent is kept in `received`. `stop()` (or release) closes everything.
final class FakeProxy: @unchecked Sendable {
    let address: String
    let port: Int
    private let listener: Int32
    private let state = State()

    /// The connections and what they received, shared with the serving threads.
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var peers: [FakeProxyPeer] = []
        func add(_ peer: FakeProxyPeer) { lock.withLock { peers.append(peer) } }
    }

    /// Starts listening on `address` (a free port); `script` runs once per connection.
    init(address: String, script: @escaping @Sendable (FakeProxyPeer) -> Void) throws {
        self.address = address
        (listener, port) = try ScriptedServer.listen(on: address)
        let listener = listener
        let state = state
        Thread.detachNewThread {
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                let peer = FakeProxyPeer(fd: fd)
                state.add(peer)
                Thread.detachNewThread {
                    script(peer)
                    shutdown(fd, Int32(SHUT_RDWR))
                }
            }
        }
    }

    /// The bytes each connection received so far, in the order they were accepted.
    var received: [[UInt8]] { state.lock.withLock { state.peers }.map(\.received).filter { !$0.isEmpty } }

    /// Closes the listener and every connection (idempotent).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        for peer in state.lock.withLock({ state.peers }) { shutdown(peer.fd, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }
}

/// One connection to a `FakeProxy`, seen from the proxy.
final class FakeProxyPeer: @unchecked Sendable {
    let fd: Int32
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    /// Everything read so far.
    var received: [UInt8] { lock.withLock { bytes } }

    init(fd: Int32) { self.fd = fd }

    /// Reads exactly `count` bytes (fewer when the client closes first).
    @discardableResult
    func read(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + filled, count - filled, 0) }
            guard got > 0 else { break }
            filled += got
        }
        lock.withLock { self.bytes += bytes.prefix(filled) }
        return Array(bytes.prefix(filled))
    }

    /// Reads up to and including CR LF CR LF (an HTTP request head), byte by byte.
    func readHead() -> String {
        var head: [UInt8] = []
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let byte = read(1)
            guard !byte.isEmpty else { break }
            head += byte
        }
        return String(decoding: head, as: UTF8.self)
    }

    /// Sends `bytes` in one write.
    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends `text` as UTF-8.
    func send(_ text: String) { send(Array(text.utf8)) }

    /// Waits until the client closes (or `seconds` pass).
    func waitForClose(seconds: Double = 5) {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, Int32(seconds * 1000))
    }
}
