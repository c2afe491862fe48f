// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Sessions of one device opened ahead, while the device is still being listed and planned,
/// for the ranges of a download fetched in segments (`segments`): over a link with a round trip
/// a login is four of them, and a range that takes a session opened ahead starts that much
/// sooner. Sessions not taken are closed with the pool (`close`), each on a thread of its own;
/// one held longer than `freshFor` is not handed out (a server may drop an idle session).
/// `@unchecked Sendable`: its state is behind its condition.
final class SiblingPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [(session: RemoteFileSystem, opened: TimeInterval)] = []
    private var opening: Int
    private var closed = false
    private let now: () -> TimeInterval

    /// Seconds a session opened ahead stays worth handing out.
    static let freshFor: TimeInterval = 30

    /// Starts opening `count` sessions with `open`, each on a thread of its own.
    /// - Parameter now: a monotonic clock in seconds.
    init(
        count: Int, now: @escaping () -> TimeInterval = { ProcessInfo.processInfo.systemUptime },
        open: @escaping () throws -> RemoteFileSystem
    ) {
        opening = max(0, count)
        self.now = now
        self.open = open
        for _ in 0..<opening {
            let thread = Thread { [self] in openOne() }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private let open: () throws -> RemoteFileSystem
    /// Sessions to close on the pool's closing thread.
    private var closing: [RemoteFileSystem] = []

    /// Opens one session into the pool (on a thread of its own); closes it when the pool was
    /// closed meanwhile.
    private func openOne() {
        var session: RemoteFileSystem?
        do {
            session = try open()
        } catch  where ConnectionLimit.isLimit(error) {
            noteRefusal()
        } catch {}
        let kept = condition.withLock {
            opening -= 1
            condition.broadcast()
            guard let session, !closed else { return false }
            ready.append((session, now()))
            return true
        }
        if !kept { session?.close() }
    }

    /// True once the server refused a session of the pool, or one for a range
    /// (`noteRefusal`), for being full.
    var wasRefused: Bool { condition.withLock { refused } }
    private var refused = false

    /// Notes that the server refused a session for a range for being full.
    func noteRefusal() { condition.withLock { refused = true } }

    /// A session opened ahead, waiting for one still being opened; nil when none is left (or
    /// the pool was closed). One held too long is closed instead of handed out.
    func take() -> RemoteFileSystem? {
        var stale: [RemoteFileSystem] = []
        defer { for session in stale { session.close() } }
        return condition.withLock {
            while !closed {
                while let first = ready.first {
                    ready.removeFirst()
                    if now() - first.opened <= Self.freshFor, first.session.isConnected { return first.session }
                    stale.append(first.session)
                }
                guard opening > 0 else { return nil }
                condition.wait()
            }
            return nil
        }
    }

    /// Closes the sessions not taken (QUIT, on a thread of its own: nobody waits for the
    /// replies); those still being opened are closed once open. Call once the pool is done with.
    func close() {
        let any = condition.withLock {
            closed = true
            closing = ready.map(\.session)
            ready = []
            return !closing.isEmpty
        }
        guard any else { return }
        let thread = Thread { [self] in
            for session in condition.withLock({ closing }) { session.close() }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
