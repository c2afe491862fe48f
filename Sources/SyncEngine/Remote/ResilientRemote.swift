// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import SyncCore

/// A `RemoteFileSystem` that survives the faults of a device run: each call that fails with a
/// transient error (`RetryPolicy.isRetryable`) is tried again after a backoff with jitter, over
/// a fresh control connection when the old one is gone (timed out, closed, 421).
///
/// - A download that breaks continues with REST from the bytes already passed to the sink, so
///   the caller's sink sees one unbroken stream. An attempt that moved bytes does not count
///   against `retries` (a server that cuts every transfer after 1 MB still gets the whole file
///   through, since each attempt makes progress); only attempts that moved nothing do.
/// - An upload is passed through once (its source cannot be rewound here); the caller retries
///   it with `retrying(_:progress:operation:)` and APPE/REST from the size the server holds.
/// - When connecting fails after all retries the device counts as down: every later call fails
///   at once with that error, so a device that went away costs one backoff series, not one per file.
///
/// Calls block; one thread at a time (like `FTPSession`).
public final class ResilientRemote: RemoteFileSystem {
    /// The retry settings of this device.
    public let policy: RetryPolicy
    /// One line per retry (`what: error; retry n of m after s`), for the device's notes.
    public private(set) var retryLog: [String] = []
    private let connect: () throws -> RemoteFileSystem
    private let random: () -> Double
    private let cancellation: CancellationToken
    private var current: RemoteFileSystem?
    /// Set once connecting failed after every retry: the device is gone for this run.
    private var down: Error?

    /// - Parameters:
    ///   - policy: how often and how patiently to retry.
    ///   - cancellation: the run's stop request: checked before each attempt, during waits and
    ///     between the chunks of a transfer (`RunInterrupted`).
    ///   - random: a source of numbers in 0...1 for the jitter.
    ///   - connect: opens a fresh, logged-in session (called again after a lost connection).
    public init(
        policy: RetryPolicy, cancellation: CancellationToken,
        random: @escaping () -> Double = { Double.random(in: 0...1) },
        connect: @escaping () throws -> RemoteFileSystem
    ) {
        self.policy = policy
        self.cancellation = cancellation
        self.random = random
        self.connect = connect
    }

    /// Connects (with retries) and returns the ready remote.
    /// - Throws: the last connection error when every attempt failed; `RunInterrupted`.
    public static func open(
        policy: RetryPolicy, cancellation: CancellationToken, connect: @escaping () throws -> RemoteFileSystem
    ) throws -> ResilientRemote {
        let remote = ResilientRemote(policy: policy, cancellation: cancellation, connect: connect)
        _ = try remote.retrying("connect", progress: { 0 }, operation: { _ = try remote.session() })
        return remote
    }

    /// Runs `body` until it succeeds, fails permanently, or has failed `policy.retries + 1`
    /// times without progress. `progress` tells how far the work got (bytes); an attempt after
    /// which it grew does not count as a failure.
    /// - Throws: the first permanent error, the last transient one, or `RunInterrupted`.
    public func retrying<T>(_ what: String, progress: () -> UInt64, operation body: () throws -> T) throws -> T {
        var failures = 0
        var reached = progress()
        while true {
            try cancellation.check()
            if let down { throw down }
            do {
                return try body()
            } catch {
                guard RetryPolicy.isRetryable(error) else { throw error }
                if Self.losesControlConnection(error) { dropSession() }
                let now = progress()
                let moved = now > reached
                if moved {
                    reached = now
                } else {
                    failures += 1
                }
                guard failures <= policy.retries else {
                    if current == nil, Self.losesControlConnection(error) || Self.isConnectFailure(error) {
                        down = error
                    }
                    throw error
                }
                let wait = policy.delay(beforeRetry: max(failures, 1), unit: random())
                let seconds = String(format: "%.1f", wait)
                // An attempt that moved bytes is not counted against `retries`: say so.
                retryLog.append(
                    moved
                        ? "\(what): \(error); resuming after \(seconds) s (bytes moved: not counted as a retry)"
                        : "\(what): \(error); retry \(failures) of \(policy.retries) after \(seconds) s")
                try cancellation.sleep(wait)
            }
        }
    }

    /// The open session, connecting first when there is none.
    private func session() throws -> RemoteFileSystem {
        if let current { return current }
        let fresh = try connect()
        current = fresh
        return fresh
    }

    private func dropSession() {
        current?.close()
        current = nil
    }

    /// True when after `error` the control connection is unusable (closed by `FTPSession`, or
    /// the server announced it closes it: 421).
    static func losesControlConnection(_ error: Error) -> Bool {
        switch error as? FTPError {
        case .timedOut?, .connectionClosed?, .protocolViolation?, .outOfStep?: return true
        case .reply(let code, _, _)?: return code == 421
        default: return false
        }
    }

    private static func isConnectFailure(_ error: Error) -> Bool {
        switch error as? FTPError {
        case .connectFailed?, .proxyFailed?: return true
        default: return false
        }
    }

    private func call<T>(_ what: String, _ body: (RemoteFileSystem) throws -> T) throws -> T {
        try retrying(what, progress: { 0 }, operation: { try body(session()) })
    }

    // MARK: - RemoteFileSystem

    public func list(_ path: String) throws -> ParsedListing {
        try call("list \(path)") { try $0.list(path) }
    }

    public func retrieve(_ path: String, from offset: UInt64, to sink: (UnsafeRawBufferPointer) throws -> Void) throws
        -> UInt64
    {
        var delivered: UInt64 = 0
        try retrying(
            "download \(path)", progress: { delivered },
            operation: {
                let remote = try session()
                _ = try remote.retrieve(path, from: Saturating.add(offset, delivered)) { chunk in
                    try cancellation.check()
                    try sink(chunk)
                    delivered += UInt64(chunk.count)
                }
            })
        return delivered
    }

    public func store(
        _ path: String, from offset: UInt64, append: Bool, source: UploadSource, sourceOffset: UInt64,
        length: UInt64, progress: (Int) throws -> Void
    ) throws -> UInt64 {
        if let down { throw down }
        let remote = try session()
        do {
            return try remote.store(
                path, from: offset, append: append, source: source, sourceOffset: sourceOffset, length: length
            ) { count in
                try cancellation.check()
                try progress(count)
            }
        } catch {
            if Self.losesControlConnection(error) { dropSession() }
            throw error
        }
    }

    /// Passed to the open session only: after a reconnect nothing is sent ahead.
    public func announce(_ followUp: TransferFollowUp) { current?.announce(followUp) }

    public func size(_ path: String) throws -> UInt64 {
        try call("SIZE \(path)") { try $0.size(path) }
    }

    public func delete(_ path: String) throws {
        try call("delete \(path)") { try $0.delete(path) }
    }

    public func rename(from: String, to: String) throws {
        try call("rename \(from)") { try $0.rename(from: from, to: to) }
    }

    public func makeDirectory(_ path: String) throws {
        try call("mkdir \(path)") { try $0.makeDirectory(path) }
    }

    public func removeDirectory(_ path: String) throws {
        try call("rmdir \(path)") { try $0.removeDirectory(path) }
    }

    public func setModificationTime(_ path: String, _ date: Date) throws {
        try call("set time \(path)") { try $0.setModificationTime(path, date) }
    }

    public func folderExists(_ path: String) throws -> Bool? {
        try call("check \(path)") { try $0.folderExists(path) }
    }

    public func sizes(_ paths: [String]) throws -> [Result<UInt64, Error>] {
        try call("SIZE of \(paths.count) files") { try $0.sizes(paths) }
    }

    public func preciseModificationTimes(_ paths: [String]) throws -> [Result<Date, Error>]? {
        try call("MDTM of \(paths.count) files") { try $0.preciseModificationTimes(paths) }
    }

    public func preciseModificationTime(_ path: String) throws -> Date? {
        try call("MDTM \(path)") { try $0.preciseModificationTime(path) }
    }

    /// True until connecting failed after every retry (the device is gone for this run): a lost
    /// connection is opened again by the next call.
    public var isConnected: Bool { down == nil }

    /// The identity of the open connection; nil when none is open.
    public func identity() -> RemoteIdentity? { current?.identity() }

    /// What the open connection learned; given to the open connection (nothing when none is open).
    public var learned: LearnedState {
        get { current?.learned ?? LearnedState() }
        set { current?.learned = newValue }
    }

    /// The digest of `path` over the open connection (opened first when there is none), tried
    /// once (a hash of a large file that timed out is not asked again); nil when the server
    /// offers no hash.
    /// - Throws: what connecting or the server's hash throws; a lost connection is opened again
    ///   by the next call.
    public func serverHash(_ path: String, size: UInt64?) throws -> ServerHash? {
        try once { try $0.serverHash(path, size: size) }
    }

    /// The digest of the bytes `range` of `path` over the open connection (opened first when
    /// there is none), tried once; nil when the server cannot hash a range.
    /// - Throws: what connecting or the server's hash throws.
    public func serverHash(_ path: String, range: Range<UInt64>) throws -> ServerHash? {
        try once { try $0.serverHash(path, range: range) }
    }

    /// The open connection's `expectedHashAlgorithm`; nil when none is open.
    public var expectedHashAlgorithm: ServerHashAlgorithm? { current?.expectedHashAlgorithm }

    /// `fileHashAlgorithm()` over the open connection (opened first when there is none).
    /// - Throws: what connecting or asking throws (the connection is dropped, the next call
    ///   opens another).
    public func fileHashAlgorithm() throws -> ServerHashAlgorithm? {
        try once { try $0.fileHashAlgorithm() }
    }

    /// Closes the open session: the next call opens a fresh one.
    public func startAfresh() { dropSession() }

    /// `body` over the open session (opened first when there is none), once: no retry; a
    /// session the error leaves unusable is dropped.
    private func once<T>(_ body: (RemoteFileSystem) throws -> T) throws -> T {
        if let current, !current.isConnected { dropSession() }
        let current = try session()
        do {
            return try body(current)
        } catch {
            if Self.losesControlConnection(error) { dropSession() }
            throw error
        }
    }

    public func close() {
        current?.close()
        current = nil
    }
}
