// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncCore

/// Carries out a device's plan, taken as a stream, over up to `connections` control
/// connections: transfers (downloads, uploads) spread over the connections from a shared,
/// bounded window (`TransferWindow`, at most `lookAhead` ahead of the oldest outcome not
/// handed over); every other action (folder creation, renames, conflicts, deletes) runs on
/// the first connection, in the plan's order, after everything before it in the plan has
/// finished. The outcomes come back in the plan's order, whichever connection finished them
/// first.
///
/// With an `order`, the transfers of a run start in that order (`TransferOrder`) among those the
/// window holds: a run of up to `lookAhead` consecutive transfers starts exactly in the order
/// (the window is filled before the first one starts); of a longer run, the first in the order
/// of the transfers held starts first, and every transfer starts before any that comes
/// `lookAhead` or more places later in the plan (it is added only once the outcome before it was
/// handed over). The plan's transfers are one run but for conflict actions (`PlanSection`:
/// folders and renames before them, deletes after), so the order holds across the whole tree.
/// Memory stays bounded by the look-ahead, whatever the plan's size; the window keeps what it
/// holds in a heap (`TransferHeap`).
///
/// Extra connections are opened (with `open`, a fresh session each time) as a run of
/// transfers grows past the connections working on it, each on its own thread and kept for
/// the later runs; a connection the server refuses (421 "too many connections", a refused or
/// unanswered connect, a failed login) leaves the device with the connections it has, noted
/// in `notes`, and no further one is tried. Every extra connection ends with QUIT in
/// `finish()`; the first connection belongs to the caller.
final class TransferScheduler: @unchecked Sendable {
    private let connections: Int
    /// The most connections a run of transfers may grow to (`ConnectionGrowth`).
    private let maxConnections: Int
    /// Transfers taken from the plan at most ahead of the oldest outcome not handed over.
    private let lookAhead: Int
    /// The order transfers start in; nil: the plan's.
    private let order: TransferOrder?
    private let first: ConnectionWorker
    private let open: () throws -> ConnectionWorker
    private let lock = NSLock()
    /// Extra workers opened so far (slot index → worker).
    private var extras: [Int: ConnectionWorker] = [:]
    /// True once the server refused a connection: no further one is tried.
    private var limitReached = false
    /// What happened to connections worth telling the user.
    private(set) var notes: [String] = []

    /// The look-ahead in the plan's order: enough to keep the connections busy.
    static let planLookAhead = 256
    /// The look-ahead with an order: the transfers held to choose from (a few MB of actions).
    static let orderLookAhead = 4_096

    /// The most connections any device run grows to.
    static let connectionCeiling = 16

    /// The most connections the runs of transfers had at once (a run that grew shows it).
    private(set) var widest = 0

    /// - Parameters:
    ///   - connections: control connections a run of transfers starts with, the first one included.
    ///   - maxConnections: the most it may grow to while each connection added makes it faster
    ///     (`ConnectionGrowth`); nil: `connections`, no growth.
    ///   - first: the worker over the device run's first connection (owned by the caller).
    ///   - lookAhead: transfers taken from the plan at most ahead of the oldest outcome not
    ///     handed over (at least the connections).
    ///   - order: the order transfers start in; nil: the plan's.
    ///   - open: opens one more connection and makes its worker.
    init(
        connections: Int, maxConnections: Int? = nil, first: ConnectionWorker, lookAhead: Int = planLookAhead,
        order: TransferOrder? = nil, open: @escaping () throws -> ConnectionWorker
    ) {
        self.connections = max(1, connections)
        self.maxConnections = max(self.connections, min(maxConnections ?? connections, Self.connectionCeiling))
        self.lookAhead = max(lookAhead, self.connections)
        self.order = order
        self.first = first
        self.open = open
    }

    /// True for the actions spread over connections.
    static func isTransfer(_ action: Action) -> Bool {
        action.kind == .download || action.kind == .upload
    }

    /// Carries out the actions `next` gives, in order, until it gives nil, and hands each
    /// outcome to `outcome` (on the calling thread) in the plan's order, as soon as it and every
    /// one before it finished. Actions are numbered by their place in that order.
    ///
    /// Of a run of transfers at most `lookAhead` are taken from `next` ahead of the oldest
    /// outcome not handed over yet; the action after the run starts only once the run is over
    /// (every transfer ahead of it ended, its records committed).
    /// - Throws: what `next` throws, once the actions taken before it were carried out and
    ///   their outcomes handed over.
    func run(_ next: () throws -> Action?, outcome: (ActionOutcome) -> Void) throws {
        var id = 0
        var held: Action?
        while let action = try held ?? next() {
            held = nil
            guard Self.isTransfer(action) else {
                outcome(first.perform(action, id))
                id += 1
                continue
            }
            held = try runTransfers(from: action, at: &id, next, outcome)
        }
    }

    /// True once the server refused a connection in this run.
    private var limitReachedNow: Bool { lock.withLock { limitReached } }

    /// The connections the server took before it refused one for being full (421, or a 530
    /// saying so: a limit to keep to), nil when none was.
    var refusedAt: Int? { lock.withLock { serverLimit } }
    private var serverLimit: Int?

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

    /// One run of consecutive transfers, `action` (at plan position `id`) and those `next`
    /// gives after it, over the first connection and the extra ones; moves `id` past the run.
    /// - Returns: the action `next` gave after the run (nil at the plan's end).
    /// - Throws: what `next` throws, once the transfers taken before were carried out.
    private func runTransfers(
        from action: Action, at id: inout Int, _ next: () throws -> Action?, _ outcome: (ActionOutcome) -> Void
    ) throws -> Action? {
        let window = TransferWindow(order: order)
        var growth = ConnectionGrowth(ceiling: maxConnections)
        let group = DispatchGroup()
        let start = id
        var added = 1
        var handed = 0
        var after: Action?
        var failure: Error?
        var ended = false
        var launched = 0
        /// One more connection for each transfer beyond those working, up to `connections`.
        func widen() {
            while launched < connections && launched < added {
                launch(group, window, slot: launched == 0 ? nil : launched - 1)
                launched += 1
            }
        }
        window.add(action, id: start)
        // With an order, the first transfer starts once the window is full: it is the first of them all.
        if order == nil { widen() }
        while true {
            while !ended && added - handed < lookAhead {
                do {
                    guard let more = try next() else {
                        ended = true
                        break
                    }
                    guard Self.isTransfer(more) else {
                        after = more
                        ended = true
                        break
                    }
                    window.add(more, id: start + added)
                    added += 1
                    if launched > 0 { widen() }
                } catch {
                    failure = error
                    ended = true
                }
            }
            widen()
            if ended { window.close() }
            guard handed < added else { break }
            // Waits for the next outcome a quarter of a second at a time, opening one more
            // connection when the last one added made the run faster (`ConnectionGrowth`).
            var next: ActionOutcome?
            while next == nil {
                next = window.outcome(of: start + handed, waitingAtMost: 0.25)
                let now = window.progress
                guard launched >= connections, launched < maxConnections, !limitReachedNow else { continue }
                let more = growth.widens(
                    now: ProcessInfo.processInfo.systemUptime, bytes: now.bytes, transfers: now.transfers,
                    workers: launched, waiting: now.waiting)
                for _ in 0..<more {
                    launch(group, window, slot: launched - 1)
                    launched += 1
                }
            }
            widest = max(widest, launched)
            if let next { outcome(next) }
            handed += 1
        }
        group.wait()
        id = start + added
        if let failure { throw failure }
        return after
    }

    /// Starts a thread that takes transfers from `window` with the first connection's worker
    /// (`slot` nil) or the extra one of `slot`, opened when not open yet (none: the thread ends
    /// at once), until the window is empty and closed or the connection is gone, then flushes
    /// what the worker left pending: every record of the run is committed before any action
    /// after the run (a rename, a delete) starts.
    private func launch(_ group: DispatchGroup, _ window: TransferWindow, slot: Int?) {
        group.enter()
        window.workerStarted()
        let thread = Thread { [self] in
            defer {
                window.workerEnded()
                group.leave()
            }
            let worker: ConnectionWorker? = if let slot { extraWorker(slot) } else { first }
            guard let worker else { return }
            // The transfer after the current one is taken ahead when others wait, so that its
            // commands go out while the current one ends (pipelining, issue 20).
            var ahead: TransferTurn?
            while worker.isUsable(), let turn = ahead ?? window.take() {
                // Only behind a small file: one round trip saved is nothing next to a large
                // file's transfer, and a transfer taken ahead waits for it, while another
                // connection may be free (or still logging in) to take it.
                ahead = Self.endsSoon(turn.action) ? window.takeAhead() : nil
                worker.expect(ahead)
                window.finish(turn.id, worker.perform(turn.action, turn.id, turn: turn))
            }
            worker.expect(nil)
            if let ahead { window.giveBack(ahead.id, ahead.action) }
            worker.flush()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Transfers of files up to this size (bytes) have the next one taken ahead.
    static let aheadLimit: UInt64 = 1 << 20

    /// True when `action` moves a file of at most `aheadLimit` bytes (its size known).
    static func endsSoon(_ action: Action) -> Bool {
        guard let size = action.source?.size else { return false }
        return size <= aheadLimit
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
                if (error as? FTPError)?.isConnectionLimit == true { serverLimit = extras.count + 1 }
                notes.append(
                    "the server refused an extra connection (\(error)); "
                        + "continuing with the connections it accepted")
            }
            return nil
        }
    }
}
