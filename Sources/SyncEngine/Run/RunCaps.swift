// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Dispatch
import Foundation
import SyncCore
import Synchronization

/// A cap on a whole run (`--max-transfer`, `--max-duration`): which one stopped it.
public enum RunCap: String, Sendable, Codable, CaseIterable {
    /// `--max-transfer`: the bytes moved by the run, all devices together.
    case maxTransfer = "max_transfer"
    /// `--max-duration`: the wall-clock time since the run started.
    case maxDuration = "max_duration"

    /// The option that sets the cap: `--max-transfer`, `--max-duration`.
    public var option: String {
        switch self {
        case .maxTransfer: "--max-transfer"
        case .maxDuration: "--max-duration"
        }
    }
}

/// The caps of one run and where the run stands against them, shared by all its devices and
/// connections (thread-safe).
///
/// Once a cap is reached the run starts no further action (`reached` is set; `ConnectionWorker`
/// defers every action it is handed from then on, `DeviceStart` starts no further device), and
/// transfers in flight go on. `grace` seconds after the cap was reached `cancellation` is
/// cancelled with the cap as the reason (`RunInterrupted.cap`): a transfer still in flight is cut
/// at its next chunk the way SIGINT cuts it (a download keeps its partial file, an upload its
/// temporary on the server) and resumes on the next run.
///
/// The bytes counted are those moved over data connections by downloads and uploads (a resumed
/// transfer counts from where it resumed), as the transfers' meters count them.
public final class RunCaps: Sendable {
    /// Seconds a transfer in flight may go on after a cap was reached before it is cut.
    public static let grace: Double = 10

    /// The most bytes the run moves before it stops starting transfers; nil: no cap.
    public let maxBytes: UInt64?
    /// The most seconds since the run started before it stops starting transfers; nil: no cap.
    public let maxSeconds: Double?
    /// The token the devices of the run hold: cancelled by the run's own token (SIGINT) and
    /// `grace` seconds after a cap was reached.
    public let cancellation: CancellationToken

    private struct Progress {
        var bytes: UInt64 = 0
        var reached: RunCap?
    }
    private let progress = Mutex(Progress())
    private let started: UInt64
    private let now: @Sendable () -> UInt64
    private let schedule: @Sendable (_ after: Double, _ work: @escaping @Sendable () -> Void) -> Void

    /// Caps starting now; nil when neither cap is set (the run then has none).
    /// - Parameters:
    ///   - maxBytes: `--max-transfer`, in bytes; nil for none.
    ///   - maxSeconds: `--max-duration`, in seconds; nil for none.
    ///   - run: the run's own stop request (SIGINT, SIGTERM), which stops `cancellation` too.
    ///   - now: a monotonic clock in nanoseconds.
    ///   - schedule: runs `work` `after` seconds from now (on another thread).
    public init?(
        maxBytes: UInt64?, maxSeconds: Double?, within run: CancellationToken,
        now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
        schedule: @escaping @Sendable (_ after: Double, _ work: @escaping @Sendable () -> Void) -> Void = {
            after, work in DispatchQueue.global().asyncAfter(deadline: .now() + after, execute: work)
        }
    ) {
        guard maxBytes != nil || maxSeconds != nil else { return nil }
        self.maxBytes = maxBytes
        self.maxSeconds = maxSeconds.map { $0.isFinite ? max(0, $0) : 0 }
        cancellation = CancellationToken(within: run)
        self.now = now
        self.schedule = schedule
        started = now()
        if let seconds = self.maxSeconds {
            schedule(seconds + Self.grace) { [cancellation] in cancellation.cancel(RunInterrupted(cap: .maxDuration)) }
        }
    }

    /// Counts `count` more bytes moved by a transfer; the run reaches `maxBytes` once it moved
    /// that many, and the transfers still in flight are cut `grace` seconds later.
    public func add(_ count: UInt64) {
        guard count > 0 else { return }
        let crossed = progress.withLock { state -> Bool in
            state.bytes = Saturating.add(state.bytes, count)
            if state.reached == nil, durationPassed() { state.reached = .maxDuration }
            guard state.reached == nil, let maxBytes, state.bytes >= maxBytes else { return false }
            state.reached = .maxTransfer
            return true
        }
        if crossed {
            schedule(Self.grace) { [cancellation] in cancellation.cancel(RunInterrupted(cap: .maxTransfer)) }
        }
    }

    /// The cap the run reached first; nil while it is within both. Once set it stays.
    public var reached: RunCap? {
        progress.withLock { state in
            if state.reached == nil, durationPassed() { state.reached = .maxDuration }
            return state.reached
        }
    }

    /// The bytes counted so far.
    public var bytesMoved: UInt64 { progress.withLock { $0.bytes } }

    /// True once `maxSeconds` have passed since the caps were made.
    private func durationPassed() -> Bool {
        guard let maxSeconds else { return false }
        let elapsed = Double(Saturating.subtract(now(), started)) / 1e9
        return elapsed >= maxSeconds
    }
}
