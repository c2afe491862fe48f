import Foundation
import SyncEngine

/// The `AsyncStream`s a runner's events go to, besides its handler: each made stream gets every
/// event from then on, and ends when the run ends.
final class EventStreams: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [AsyncStream<SyncEvent>.Continuation] = []

    /// A new stream keeping at most the `limit` newest events a slow reader has not taken yet.
    func make(bufferingNewest limit: Int) -> AsyncStream<SyncEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SyncEvent.self, bufferingPolicy: .bufferingNewest(max(1, limit)))
        lock.lock()
        continuations.append(continuation)
        lock.unlock()
        return stream
    }

    /// True when no stream is open.
    var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return continuations.isEmpty
    }

    /// Hands `event` to every open stream.
    func yield(_ event: SyncEvent) {
        lock.lock()
        let open = continuations
        lock.unlock()
        for continuation in open { continuation.yield(event) }
    }

    /// Ends every stream made so far.
    func finish() {
        lock.lock()
        let open = continuations
        continuations = []
        lock.unlock()
        for continuation in open { continuation.finish() }
    }
}
