import FTPClient
import Foundation
import LocalTree
import SyncCore

/// Carries out a device's plan over up to `connections` control connections: transfers
/// (downloads, uploads) spread over the connections from a shared work queue; every other
/// action (folder creation, renames, conflicts, deletes) runs on the first connection, in the
/// plan's order, after everything before it in the plan has finished. The outcomes come back
/// in the plan's order, whichever connection finished them first.
///
/// Extra connections are opened (with `open`, a fresh session each time) when the first run
/// of two or more transfers starts, each on its own thread; a connection the server refuses
/// (421 "too many connections", a refused or unanswered connect, a failed login) leaves the
/// device with the connections it has, noted in `notes`, and no further one is tried. Every
/// extra connection ends with QUIT in `finish()`; the first connection belongs to the caller.
final class TransferScheduler: @unchecked Sendable {
    private let connections: Int
    private let first: ConnectionWorker
    private let open: () throws -> ConnectionWorker
    private let lock = NSLock()
    /// Extra workers opened so far (slot index → worker).
    private var extras: [Int: ConnectionWorker] = [:]
    /// True once the server refused a connection: no further one is tried.
    private var limitReached = false
    /// What happened to connections worth telling the user.
    private(set) var notes: [String] = []

    /// - Parameters:
    ///   - connections: control connections allowed for this device, the first one included.
    ///   - first: the worker over the device run's first connection (owned by the caller).
    ///   - open: opens one more connection and makes its worker.
    init(connections: Int, first: ConnectionWorker, open: @escaping () throws -> ConnectionWorker) {
        self.connections = max(1, connections)
        self.first = first
        self.open = open
    }

    /// True for the actions spread over connections.
    static func isTransfer(_ action: Action) -> Bool {
        action.kind == .download || action.kind == .upload
    }

    /// Carries out `actions`; returns one outcome per action, in the same order.
    func run(_ actions: [Action]) -> [ActionOutcome] {
        var outcomes: [ActionOutcome?] = Array(repeating: nil, count: actions.count)
        var index = 0
        while index < actions.count {
            guard Self.isTransfer(actions[index]) else {
                outcomes[index] = first.perform(actions[index])
                index += 1
                continue
            }
            var end = index
            while end < actions.count && Self.isTransfer(actions[end]) { end += 1 }
            for (offset, outcome) in runTransfers(Array(actions[index..<end])).enumerated() {
                outcomes[index + offset] = outcome
            }
            index = end
        }
        return outcomes.enumerated().map { position, outcome in
            outcome
                ?? ActionOutcome.failed(actions[position], "no connection was left to carry it out")
        }
    }

    /// Finishes every extra connection (its `finish`, then QUIT); call once, after `run`.
    func finish() {
        lock.lock()
        let opened = extras.sorted { $0.key < $1.key }.map(\.value)
        extras = [:]
        lock.unlock()
        for worker in opened {
            worker.finish()
            worker.close()
        }
    }

    /// One run of consecutive transfers over the first connection and the extra ones.
    private func runTransfers(_ transfers: [Action]) -> [ActionOutcome?] {
        let queue = LockedSlots<ActionOutcome>(count: transfers.count)
        let wanted = min(connections, transfers.count) - 1
        guard wanted > 0 else {
            work(first, transfers, queue)
            return queue.values
        }
        let group = DispatchGroup()
        for slot in 0..<wanted {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                guard let worker = extraWorker(slot) else { return }
                work(worker, transfers, queue)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        work(first, transfers, queue)
        group.wait()
        return queue.values
    }

    /// Takes actions from `queue` until it is empty or the connection is gone, then flushes
    /// what the worker left pending: every record of the run is committed before any action
    /// after the run (a rename, a delete) starts.
    private func work(_ worker: ConnectionWorker, _ transfers: [Action], _ queue: LockedSlots<ActionOutcome>) {
        while worker.isUsable(), let position = queue.take() {
            queue.set(position, worker.perform(transfers[position]))
        }
        worker.flush()
    }

    /// The extra worker of `slot`, opening it when not opened yet; nil when the server
    /// refused a connection (now or before).
    private func extraWorker(_ slot: Int) -> ConnectionWorker? {
        lock.lock()
        // By slot: each thread keeps its own connection, whichever thread opened first.
        if let worker = extras[slot] {
            lock.unlock()
            return worker
        }
        let refused = limitReached
        lock.unlock()
        if refused { return nil }
        do {
            let worker = try open()
            lock.lock()
            defer { lock.unlock() }
            extras[slot] = worker
            return worker
        } catch {
            lock.lock()
            defer { lock.unlock() }
            // A stopped run opens no more connections; nothing was refused, nothing to note.
            if error is RunInterrupted {
                limitReached = true
                return nil
            }
            if !limitReached {
                limitReached = true
                notes.append(
                    "the server refused an extra connection (\(error)); "
                        + "continuing with the connections it accepted")
            }
            return nil
        }
    }
}
