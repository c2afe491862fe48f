// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Synchronization

/// A stop request the caller of a run holds: cancelling it asks every device run it was given
/// to stop at the next safe point. No new action starts, a transfer in progress stops at its
/// next chunk and keeps its bytes for the next run, and the devices report `partial`.
///
/// A token made `within` another is cancelled by its own `cancel` and by its parent's: the
/// run caps (`RunCaps`) cut transfers through such a token, the way SIGINT does through the
/// run's, with a reason of their own.
///
/// One token serves one run (or several, stopped together); once cancelled it stays cancelled.
/// Safe to use from any thread, also from a signal handler's queue.
public final class CancellationToken: Sendable {
    private let flag = Atomic<Bool>(false)
    /// Why `cancel` was called first; nil before.
    private let reason = Mutex<RunInterrupted?>(nil)
    /// The token whose cancellation cancels this one too.
    private let parent: CancellationToken?

    /// A token not cancelled yet.
    public init() { parent = nil }

    /// A token not cancelled yet, cancelled as well once `parent` is.
    public init(within parent: CancellationToken) { self.parent = parent }

    /// Asks the runs holding this token to stop. Safe to call from any thread, more than once.
    public func cancel() { cancel(RunInterrupted()) }

    /// Asks the runs holding this token to stop, for `reason` (the first reason given stays).
    public func cancel(_ reason: RunInterrupted) {
        self.reason.withLock { if $0 == nil { $0 = reason } }
        flag.store(true, ordering: .releasing)
    }

    /// True once `cancel()` was called (on this token or its parent).
    public var isCancelled: Bool { flag.load(ordering: .acquiring) || parent?.isCancelled == true }

    /// Why the token is cancelled: the parent's reason first, then its own; nil while it is not.
    public var interruption: RunInterrupted? {
        if let parent = parent?.interruption { return parent }
        guard flag.load(ordering: .acquiring) else { return nil }
        return reason.withLock { $0 } ?? RunInterrupted()
    }

    /// Throws `RunInterrupted` (with its reason) once the token is cancelled.
    public func check() throws {
        guard isCancelled else { return }
        throw interruption ?? RunInterrupted()
    }

    /// Sleeps `seconds`, waking early (within 0.1 s) when the token is cancelled.
    /// - Throws: `RunInterrupted` when the token was cancelled before or during the wait.
    public func sleep(_ seconds: Double) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            try check()
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return }
            Thread.sleep(forTimeInterval: min(left, 0.1))
        }
    }
}

/// The run was asked to stop (its `CancellationToken` was cancelled, by SIGINT or SIGTERM in
/// the command line, or by a run cap's grace running out): no new action starts, a transfer in
/// progress stops at its next chunk and keeps its bytes for the next run.
public struct RunInterrupted: Error, Sendable, Equatable, CustomStringConvertible {
    /// The run cap whose grace ran out (`RunCaps`); nil: the caller asked the run to stop.
    public var cap: RunCap?

    /// A stop the caller asked for (`cap` nil) or a run cap's cut.
    public init(cap: RunCap? = nil) { self.cap = cap }

    public var description: String {
        guard let cap else { return "interrupted; the next run resumes from here" }
        let grace = Int(RunCaps.grace)
        return "cut \(grace) s after \(cap.option) was reached; the next run resumes from here"
    }
}
