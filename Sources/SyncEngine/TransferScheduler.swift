import FTPClient
import Foundation
import SyncCore

/// One control connection's share of a device run: carries out actions over its own session.
struct ConnectionWorker {
    /// Carries out one action; a failure fails that action only.
    var perform: (Action) -> PullExecutor.Outcome
    /// False once the connection is gone (closed by the server, timed out): the worker then
    /// takes no more actions.
    var isUsable: () -> Bool
    /// Work left for the end of the run on this connection (push: re-list uploaded folders).
    var finish: () -> Void
    /// Ends the session (QUIT).
    var close: () -> Void
    /// Commits what the worker's actions left pending (the records of a `PullRecordBatch`);
    /// called each time the worker stops taking actions from a run of transfers.
    var flush: () -> Void

    /// A worker over `remote`: usable while `remote.isConnected`.
    init(
        remote: RemoteFileSystem, perform: @escaping (Action) -> PullExecutor.Outcome,
        finish: @escaping () -> Void = {}, flush: @escaping () -> Void = {}
    ) {
        self.perform = perform
        self.isUsable = { remote.isConnected }
        self.finish = finish
        self.flush = flush
        self.close = { remote.close() }
    }
}

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
    private var extras: [ConnectionWorker] = []
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
    func run(_ actions: [Action]) -> [PullExecutor.Outcome] {
        var outcomes: [PullExecutor.Outcome?] = Array(repeating: nil, count: actions.count)
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
                ?? PullExecutor.Outcome(
                    report: ActionReport(
                        action: actions[position], status: .failed, error: "no connection was left to carry it out"),
                    transferred: 0)
        }
    }

    /// Finishes every extra connection (its `finish`, then QUIT); call once, after `run`.
    func finish() {
        lock.lock()
        let opened = extras
        extras = []
        lock.unlock()
        for worker in opened {
            worker.finish()
            worker.close()
        }
    }

    /// One run of consecutive transfers over the first connection and the extra ones.
    private func runTransfers(_ transfers: [Action]) -> [PullExecutor.Outcome?] {
        let queue = WorkQueue(transfers)
        let wanted = min(connections, transfers.count) - 1
        guard wanted > 0 else {
            work(first, queue)
            return queue.results
        }
        let group = DispatchGroup()
        for slot in 0..<wanted {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                guard let worker = extraWorker(slot) else { return }
                work(worker, queue)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        work(first, queue)
        group.wait()
        return queue.results
    }

    /// Takes actions from `queue` until it is empty or the connection is gone, then flushes
    /// what the worker left pending: every record of the run is committed before any action
    /// after the run (a rename, a delete) starts.
    private func work(_ worker: ConnectionWorker, _ queue: WorkQueue) {
        while worker.isUsable(), let (position, action) = queue.next() {
            queue.finish(position, worker.perform(action))
        }
        worker.flush()
    }

    /// The extra worker of `slot`, opening it when not opened yet; nil when the server
    /// refused a connection (now or before).
    private func extraWorker(_ slot: Int) -> ConnectionWorker? {
        lock.lock()
        if slot < extras.count {
            defer { lock.unlock() }
            return extras[slot]
        }
        let refused = limitReached
        lock.unlock()
        if refused { return nil }
        do {
            let worker = try open()
            lock.lock()
            defer { lock.unlock() }
            extras.append(worker)
            return worker
        } catch {
            lock.lock()
            defer { lock.unlock() }
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

/// The transfers of one run, handed out one at a time to the connections' threads.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let actions: [Action]
    private var nextIndex = 0
    private var outcomes: [PullExecutor.Outcome?]

    init(_ actions: [Action]) {
        self.actions = actions
        outcomes = Array(repeating: nil, count: actions.count)
    }

    /// The next action not yet taken, with its position; nil when all were taken.
    func next() -> (Int, Action)? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIndex < actions.count else { return nil }
        nextIndex += 1
        return (nextIndex - 1, actions[nextIndex - 1])
    }

    func finish(_ position: Int, _ outcome: PullExecutor.Outcome) {
        lock.lock()
        outcomes[position] = outcome
        lock.unlock()
    }

    /// The outcomes so far, by position (nil for actions no connection took).
    var results: [PullExecutor.Outcome?] {
        lock.lock()
        defer { lock.unlock() }
        return outcomes
    }
}

/// Makes a worker's `perform` from an executor's: actions are numbered by their place in the
/// plan (progress events name them so), and once a stop was requested (SIGINT/SIGTERM) no
/// further action starts: it is reported as not started.
func numbered(_ perform: @escaping (Action, Int) -> PullExecutor.Outcome, in actions: [Action]) -> (Action) ->
    PullExecutor.Outcome
{
    let ids = Dictionary(actions.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    return { action in
        if RunCancellation.isRequested {
            return PullExecutor.Outcome(
                report: ActionReport(action: action, status: .failed, error: "not started: the run was interrupted"),
                transferred: 0)
        }
        return perform(action, ids[action] ?? 0)
    }
}
