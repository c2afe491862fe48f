// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncEngine
import Synchronization

/// The `AsyncStream`s a runner's events go to, besides its handler: each made stream gets every
/// event from then on, and ends when the run ends.
final class EventStreams: Sendable {
    private let continuations = Mutex<[AsyncStream<SyncEvent>.Continuation]>([])

    /// A new stream keeping at most the `limit` newest events a slow reader has not taken yet.
    func make(bufferingNewest limit: Int) -> AsyncStream<SyncEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SyncEvent.self, bufferingPolicy: .bufferingNewest(max(1, limit)))
        continuations.withLock { $0.append(continuation) }
        return stream
    }

    /// True when no stream is open.
    var isEmpty: Bool { continuations.withLock { $0.isEmpty } }

    /// Hands `event` to every open stream.
    func yield(_ event: SyncEvent) {
        for continuation in continuations.withLock({ $0 }) { continuation.yield(event) }
    }

    /// Ends every stream made so far.
    func finish() {
        let open = continuations.withLock { open in
            defer { open = [] }
            return open
        }
        for continuation in open { continuation.finish() }
    }
}
