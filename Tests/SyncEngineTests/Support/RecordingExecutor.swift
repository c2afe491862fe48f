// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncEngine

/// An executor that carries out nothing but notes what it was given.
final class RecordingExecutor: ActionExecutor, @unchecked Sendable {
    let job: DeviceJob
    let events: SyncEventHandler?
    /// Paths whose actions throw.
    let failing: Set<String>
    private let lock = NSLock()
    private var carriedOut: [(path: String, id: Int)] = []
    private var flushCount = 0
    private var finishCount = 0

    init(events: SyncEventHandler? = nil, failing: Set<String> = [], cancellation: CancellationToken? = nil) {
        var job = DeviceJob(
            name: "cam", remoteRoot: "/DCIM",
            paths: LocalPaths(treeRoot: "/nonexistent", deviceRoot: "/nonexistent/cam", device: "cam"),
            filter: [], timeZone: TimeZone(identifier: "UTC")!, policy: SyncPolicy(direction: .pull), dryRun: false)
        if let cancellation { job.cancellation = cancellation }
        self.job = job
        self.events = events
        self.failing = failing
    }

    var carried: [(path: String, id: Int)] { lock.withLock { carriedOut } }
    var flushes: Int { lock.withLock { flushCount } }
    var finishes: Int { lock.withLock { finishCount } }

    func carryOut(_ action: Action, id: Int) throws -> UInt64 {
        lock.withLock { carriedOut.append((action.path.string, id)) }
        if failing.contains(action.path.string) { throw EngineError.incompleteAction("refused \(action.path)") }
        return action.bytes
    }

    func adopt(_ adoption: Adoption) {}
    func flush() { lock.withLock { flushCount += 1 } }
    func finish() { lock.withLock { finishCount += 1 } }
}
