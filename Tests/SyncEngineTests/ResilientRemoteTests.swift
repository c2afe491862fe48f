// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import RemoteTestSupport
import Testing

@testable import SyncEngine

/// Retries of `ResilientRemote` against the in-memory device: reconnecting, the retry limit,
/// downloads that continue where they broke.
struct ResilientRemoteTests {
    private let quick = RetryPolicy(retries: 2, baseDelay: 0.01, maximumDelay: 0.01)

    @Test func aLostConnectionIsOpenedAgain() throws {
        let server = MemoryServer()
        server.put("/a.jpg", bytes(10))
        let remote = try ResilientRemote.open(policy: quick, cancellation: CancellationToken(), connect: server.connect)
        server.dropAtCommand = 1
        let listing = try remote.list("/")
        #expect(listing.entries.map(\.name) == ["a.jpg"])
        #expect(server.connects == 2)
        #expect(remote.retryLog.count == 1)
    }

    @Test func aPermanentRefusalIsNotRetried() throws {
        let server = MemoryServer()
        let remote = try ResilientRemote.open(policy: quick, cancellation: CancellationToken(), connect: server.connect)
        #expect(throws: FTPError.self) { try remote.list("/missing") }
        #expect(server.count("LIST") == 1)
        #expect(remote.retryLog.isEmpty)
    }

    @Test func aDeviceThatCannotBeReachedAgainIsDown() throws {
        let server = MemoryServer()
        let remote = try ResilientRemote.open(policy: quick, cancellation: CancellationToken(), connect: server.connect)
        server.dropAtCommand = 1
        server.connectsFailFrom = 2
        #expect(throws: FTPError.self) { try remote.list("/") }
        #expect(remote.retryLog.count == quick.retries)
        #expect(!remote.isConnected)
        // Down: the next call fails at once, sending nothing.
        #expect(throws: FTPError.self) { try remote.size("/a") }
        #expect(server.count("SIZE") == 0)
    }

    @Test func aBrokenDownloadContinuesWhereItStopped() throws {
        let server = MemoryServer()
        server.put("/a.mov", bytes(100_000))
        server.cut("/a.mov", after: 20_000)
        let remote = try ResilientRemote.open(policy: quick, cancellation: CancellationToken(), connect: server.connect)
        var received: [UInt8] = []
        let count = try remote.retrieve("/a.mov", from: 0) { received += $0 }
        #expect(count == 100_000)
        #expect(received == bytes(100_000))
        #expect(server.count("REST") == 1)
    }

    @Test func attemptsThatMoveBytesDoNotCountAgainstTheRetries() throws {
        let server = MemoryServer()
        server.put("/a.mov", bytes(100_000))
        server.cut("/a.mov", after: UInt64(MemoryRemote.chunk), times: 5)
        let remote = try ResilientRemote.open(
            policy: RetryPolicy(retries: 0, baseDelay: 0.01, maximumDelay: 0.01), cancellation: CancellationToken(),
            connect: server.connect)
        var received: [UInt8] = []
        _ = try remote.retrieve("/a.mov", from: 0) { received += $0 }
        #expect(received == bytes(100_000))
        #expect(server.count("RETR") == 6)
        // The log says why no retry was counted ("retry 0 of 0" before).
        #expect(remote.retryLog.count == 5)
        #expect(remote.retryLog.allSatisfy { $0.contains("not counted as a retry") }, "\(remote.retryLog)")
    }

    @Test func aTransferThatNeverMovesStopsAtTheRetryLimit() throws {
        let server = MemoryServer()
        server.put("/a.mov", bytes(100_000))
        server.cut("/a.mov", after: 0, times: 10)
        let remote = try ResilientRemote.open(policy: quick, cancellation: CancellationToken(), connect: server.connect)
        #expect(throws: FTPError.self) { _ = try remote.retrieve("/a.mov", from: 0) { _ in } }
        #expect(server.count("RETR") == quick.retries + 1)
    }

    /// A run cancelled while a transfer keeps breaking stops retrying at once: at most one attempt,
    /// then `RunInterrupted`, not the retry limit's long waits.
    @Test func aCancelledRunStopsRetrying() throws {
        let server = MemoryServer()
        server.put("/a.mov", bytes(100_000))
        server.cut("/a.mov", after: 0, times: 10)
        let token = CancellationToken()
        let patient = RetryPolicy(retries: 5, baseDelay: 30, maximumDelay: 30)
        let remote = try ResilientRemote.open(policy: patient, cancellation: token, connect: server.connect)
        token.cancel()
        let started = Date()
        #expect(throws: RunInterrupted.self) { _ = try remote.retrieve("/a.mov", from: 0) { _ in } }
        #expect(server.count("RETR") <= 1)
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
