import Foundation
import Synchronization

/// A stop request the caller of a run holds: cancelling it asks every device run it was given
/// to stop at the next safe point. No new action starts, a transfer in progress stops at its
/// next chunk and keeps its bytes for the next run, and the devices report `partial`.
///
/// One token serves one run (or several, stopped together); once cancelled it stays cancelled.
/// Safe to use from any thread, also from a signal handler's queue.
public final class CancellationToken: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A token not cancelled yet.
    public init() {}

    /// Asks the runs holding this token to stop. Safe to call from any thread, more than once.
    public func cancel() { flag.store(true, ordering: .releasing) }

    /// True once `cancel()` was called.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// Throws `RunInterrupted` once the token is cancelled.
    public func check() throws {
        if isCancelled { throw RunInterrupted() }
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
/// the command line): no new action starts, a transfer in progress stops at its next chunk and
/// keeps its bytes for the next run.
public struct RunInterrupted: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "interrupted; the next run resumes from here" }
}
