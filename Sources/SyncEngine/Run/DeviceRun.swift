// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore
import SyncStore

/// Carries out one device's run, a pull or a push (`job.policy.direction`): connect and check
/// the device's identity, list both sides, plan, carry the plan out over the device's
/// connections, record, report.
///
/// The direction is a strategy (`RunDirection`: what is listed and scanned, which planner,
/// which executor); everything else is the same for both. The planner decides; the run only
/// carries out. Each finished action is recorded in the state in the same step, so a run killed
/// at any moment leaves a state the next run completes. A dry run changes nothing anywhere.
public final class DeviceRun {
    /// The device and the run's choices.
    let job: DeviceJob
    /// The state database; nil only for a dry run on a tree that has none yet.
    let store: StateStore?
    /// The time source (UTC).
    let clock: () -> Date
    /// Told what happens as it happens; nil for none.
    let events: SyncEventHandler?
    /// Opens a fresh session to the device (never a reused one).
    let connect: () throws -> RemoteFileSystem
    /// Set when every action of this run's plan was carried out: the run is a sync to record.
    private var carriedOutWhole = false
    /// The device's transitions this run saw, recorded in the state at its end.
    let transitions = DeviceTransitions()
    /// Called with the report once the work is done, before the attempt is recorded and
    /// `deviceFinished` told: adds what the connections learned (notes); nil for nothing.
    public var finishing: ((inout DeviceReport) -> Void)?

    /// - Parameters:
    ///   - job: the device and the run's choices; `job.policy.direction` says pull or push.
    ///   - store: the state database; nil only for a dry run on a tree that has none yet.
    ///   - clock: the time source (UTC), for stamps in file names and the last-sync time.
    ///   - events: told what happens as it happens (`SyncEvent`); nil for none.
    ///   - connect: opens a fresh session to the device (never a reused one).
    public init(
        job: DeviceJob, store: StateStore?, clock: @escaping () -> Date = Date.init,
        events: SyncEventHandler? = nil, connect: @escaping () throws -> RemoteFileSystem
    ) {
        self.job = job
        self.store = store
        self.clock = clock
        self.events = events
        self.connect = connect
    }

    /// Runs the device to the end and reports; never throws: a device that cannot be reached
    /// or listed is `failed`, a plan over the delete limit (or another tree at the device's
    /// address) is `refused` with nothing changed.
    ///
    /// The report's `seconds` is the run's wall time; skipped entries make an `ok` device
    /// `partial`; a real run's attempt (time, status, error) is recorded in the state.
    public func run() -> DeviceReport {
        events?(.deviceStarted(device: job.name))
        carriedOutWhole = false
        let started = clock()
        var report = DeviceReport(name: job.name)
        switch job.policy.direction {
        case .pull: run(PullDirection(run: self, started: started), into: &report)
        case .push: run(PushDirection(run: self, started: started), into: &report)
        case .sync: run(TwoWayDirection(run: self, started: started), into: &report)
        }
        finishing?(&report)
        report.settleSkipped()
        let finished = clock()
        report.seconds = finished.timeIntervalSince(started)
        // Every real run is an attempt `status` shows, whatever came of it (a dry run changes nothing).
        if !job.dryRun {
            // The sync's end is the attempt's: the metrics' last success is then its last run.
            if carriedOutWhole { try? store?.markSynced(device: job.name, at: finished) }
            try? store?.markAttempt(
                device: job.name,
                DeviceAttempt(
                    at: finished, status: report.status.rawValue, error: report.error,
                    filesTransferred: report.stats.filesTransferred, bytesTransferred: report.stats.bytesTransferred,
                    failures: report.stats.failed, seconds: report.seconds))
            transitions.record(into: store, device: job.name, at: finished, error: report.error)
        }
        events?(.deviceFinished(device: job.name, report: report))
        return report
    }

    /// Opens the device, plans with `direction` into a `PlanSpool`, and carries the plan out
    /// from it, filling `report`.
    private func run<Direction: RunDirection>(_ direction: Direction, into report: inout DeviceReport) {
        guard let remote = open(&report) else { return }
        defer { remote.close() }
        let spool: PlanSpool
        let planned: Direction.Planned
        let review: ReviewFilter?
        do {
            spool = try openSpool()
            review = job.reviewed.map { ReviewFilter(base: spool, reviewed: $0) }
            planned = try direction.plan(remote: remote, into: review ?? spool, report: &report)
            transitions.reached = true
        } catch {
            transitions.reached = DeviceTransitions.reached(after: error)
            report.fail(error)
            return
        }
        defer { spool.close() }
        let result = direction.result(of: planned)
        review?.conclude(into: &report)
        guard accept(result, spool, into: &report) else {
            direction.stopped(planned, into: &report)
            return
        }
        guard direction.prepare(planned, spool: spool, remote: remote, report: &report) else { return }
        let first = direction.executor(planned, over: remote)
        settle(spool, adoptingWith: first, into: &report)
        carryOut(
            spool, remote: remote, first: ConnectionWorker(remote: remote, executor: first),
            extra: { sibling in
                ConnectionWorker(remote: sibling, executor: direction.executor(planned, over: sibling))
            }, into: &report)
        direction.conclude(planned, remote: remote, report: &report)
    }

    /// Records the pairs the plan found in sync (through `executor`) and drops the records of
    /// the files gone from both sides, as the spool kept them, 1,000 to a transaction. When the
    /// spool cannot be read the rest stays as it was (the next run finds them again), noted.
    private func settle(_ spool: PlanSpool, adoptingWith executor: ActionExecutor, into report: inout DeviceReport) {
        do {
            var adoptions = try spool.adoptions()
            try inBatches(&adoptions) { executor.adopt($0) }
            var forgotten = try spool.forgotten()
            try inBatches(&forgotten) { try? store?.deleteRecord(path: $0, device: job.name) }
        } catch {
            report.notes.append("the state was not brought up to date with this plan (\(error)); the next run does it")
        }
    }

    /// Gives every element `reader` holds to `body`, 1,000 to a transaction of the state.
    /// - Throws: what reading the spool or the state throws (the batch then is rolled back).
    private func inBatches<Element>(_ reader: inout PlanSpool.Reader<Element>, _ body: (Element) -> Void) throws {
        var more = true
        while more {
            try inTransaction {
                for _ in 0..<1_000 {
                    guard let element = try reader.next() else {
                        more = false
                        return
                    }
                    body(element)
                }
            }
        }
    }

    /// Runs `body` in one transaction of the state (or as it is, without a state).
    private func inTransaction(_ body: () throws -> Void) throws {
        if let store { try store.transaction(body) } else { try body() }
    }

    /// The spool the device's plan goes to: below the tree's state folder, or for a dry run
    /// (which changes nothing in the tree) in the system's temporary folder.
    /// - Throws: `LocalFileError` when it cannot be made.
    private func openSpool() throws -> PlanSpool {
        if job.dryRun { return try PlanSpool.scratch(device: job.name) }
        return try PlanSpool.open(treeRoot: job.paths.treeRoot, device: job.name)
    }

    /// Opens one more connection of this run for listing: fresh, failing at once when the
    /// server refuses it (the listing goes on with fewer), then reconnecting after faults like
    /// the first connection.
    static func extraConnection(job: DeviceJob, connect: @escaping () throws -> RemoteFileSystem)
        -> () throws -> RemoteFileSystem
    {
        {
            var opened: RemoteFileSystem? = try connect()
            return try ResilientRemote.open(policy: RetryPolicy(retries: job.retries), cancellation: job.cancellation) {
                if let session = opened {
                    opened = nil
                    return session
                }
                return try connect()
            }
        }
    }

    /// The device's first connection — retried through a server's connection limit (421) and
    /// reconnecting after transient faults — once the server proved to be the device recorded
    /// earlier; nil after marking `report` failed (cannot connect or log in) or refused.
    private func open(_ report: inout DeviceReport) -> ResilientRemote? {
        let remote: ResilientRemote
        do {
            remote = try ResilientRemote.open(policy: RetryPolicy(retries: job.retries), cancellation: job.cancellation)
            { [connect] in
                try ConnectionLimit.first(connect)
            }
        } catch {
            transitions.reached = DeviceTransitions.reached(after: error)
            // Stopped while connecting (a signal, a run cap's cut): the stop's doing, not the device's.
            report.fail(job.cancellation.interruption ?? error)
            return nil
        }
        switch IdentityCheck.verify(remote: remote, job: job, store: store, host: job.host, noting: transitions) {
        case .refuse(let message):
            transitions.reached = true
            remote.close()
            report.status = .refused
            // A reviewed plan is never carried out on another server, accepted or not.
            report.error =
                job.reviewed == nil
                ? message
                : "the server at \(job.host) answers with another identity than at the last sync: nothing of the plan"
                    + " was carried out; make a new plan with --dry-run --json (with --accept-new-identity if it is"
                    + " the same device)"
            return nil
        case .proceed(let notes):
            report.notes += notes
            if job.dryRun { report.identity = ReviewFilter.identity(of: remote) }
            if let refusal = job.reviewed.flatMap({ ReviewFilter.refusal(of: $0, by: remote, host: job.host) }) {
                remote.close()
                report.status = .refused
                report.error = refusal
                return nil
            }
            if job.verify == .required, ((try? remote.fileHashAlgorithm()) ?? nil) == nil {
                remote.close()
                report.fail(EngineError.noServerHash)
                return nil
            }
            return remote
        }
    }

    /// Marks `report` partial when a folder of either side could not be read in full (the plan
    /// left it alone), its error naming the folders and causes.
    /// - Parameters:
    ///   - remote: device folders not listed in full, with the cause.
    ///   - local: local folders that could not be read, with the cause.
    func markIncomplete(remote: [RelativePath: String], local: [RelativePath: String], in report: inout DeviceReport) {
        let lines =
            remote.sorted { $0.key < $1.key }.map { "'\(shown($0.key))' on the device (\($0.value))" }
            + local.sorted { $0.key < $1.key }.map { "'\(shown($0.key))' here (\($0.value))" }
        guard !lines.isEmpty else { return }
        // Each folder is an entry not synced, in the JSON's `skipped` as well.
        for (folder, cause) in remote.sorted(by: { $0.key < $1.key }) {
            report.skip(path: shown(folder), reason: "could not be listed in full on the device: \(cause)")
        }
        for (folder, cause) in local.sorted(by: { $0.key < $1.key }) {
            report.skip(path: shown(folder), reason: "could not be read in full here: \(cause)")
        }
        report.status = .partial
        let folders = lines.count == 1 ? "1 folder" : "\(lines.count) folders"
        report.error =
            "\(folders) could not be read in full; nothing in \(lines.count == 1 ? "it" : "them") was deleted,"
            + " renamed or overwritten: " + lines.joined(separator: ", ")
    }

    private func shown(_ path: RelativePath) -> String { path.isRoot ? "/" : path.string }

    /// Takes the plan (its actions in `spool`) into `report`; false when the run ends with it:
    /// a refused plan (delete limit, suspect listing) or a dry run, whose actions are reported
    /// as planned.
    private func accept(_ planned: PlanResult, _ spool: PlanSpool, into report: inout DeviceReport) -> Bool {
        report.unchanged = planned.plan.unchanged
        report.notes += planned.plan.notes
        report.skipped += planned.plan.skipped
        if let refusal = planned.refusal {
            // Another tree at the address was noted as a changed identity by its check.
            if !transitions.contains(.identityChanged) { transitions.note(.deleteGuard, refusal) }
            report.status = .refused
            report.error = refusal
            return false
        }
        events?(
            .planned(
                device: job.name, actions: spool.count, transfers: spool.transfers,
                bytesToTransfer: spool.bytesToTransfer))
        guard job.dryRun else { return true }
        do {
            var actions = try spool.actions()
            while let action = try actions.next() {
                report.actions.append(ActionReport(action: action, status: .planned))
            }
        } catch {
            report.fail(error)
        }
        return false
    }

    /// Carries out the actions of `spool` over up to `job.connections` connections
    /// (`TransferScheduler`): `first` works over `remote`; `extra` makes the worker of each
    /// further connection, opened fresh and reconnecting like the first (none once a run cap was
    /// reached). Then sets the device's status (`stopped`, with `left`, when a cap deferred
    /// actions and nothing failed) and, when every action was done, records the sync's time.
    private func carryOut(
        _ spool: PlanSpool, remote: ResilientRemote, first: ConnectionWorker,
        extra: @escaping (RemoteFileSystem) -> ConnectionWorker, into report: inout DeviceReport
    ) {
        let scheduler = TransferScheduler(
            connections: job.connections, maxConnections: job.maxConnections, first: first,
            lookAhead: job.order == nil ? TransferScheduler.planLookAhead : TransferScheduler.orderLookAhead,
            order: job.order
        ) { [job, connect] in
            // After a cap no action starts: no connection is opened only to defer them.
            if let cap = job.caps?.reached { throw RunInterrupted(cap: cap) }
            let sibling = try ResilientRemote.open(
                policy: RetryPolicy(retries: job.retries), cancellation: job.cancellation
            ) {
                try openSibling(of: remote, connect)
            }
            return extra(sibling)
        }
        var spoolFailure: Error?
        var left = LeftByCap()
        do {
            var actions = try spool.actions()
            try scheduler.run(
                { try actions.next() },
                outcome: { outcome in
                    // Each connection notes a server without hashes once: the device, once.
                    for note in outcome.notes
                    where note != UnverifiedTransfer.sizeOnlyNote || !report.notes.contains(note) {
                        report.notes.append(note)
                    }
                    if let note = outcome.leftAlone { return report.notes.append(note) }
                    report.actions.append(outcome.report)
                    report.stats.count(outcome.report, transferred: outcome.transferred)
                    if outcome.report.status == .deferred { left.count(outcome.report, cut: outcome.wasCut) }
                    if outcome.notStarted, outcome.report.kind == .download {
                        report.unstartedDownloads.append(outcome.report.path)
                    }
                    if outcome.report.status == .held, let why = outcome.report.error { report.notes.append(why) }
                })
        } catch {
            spoolFailure = error
        }
        scheduler.finish()
        first.finish()
        report.notes += scheduler.notes + remote.retryLog
        if let refusedAt = scheduler.refusedAt, !job.dryRun {
            try? store?.setConnectionLimit(refusedAt, device: job.name)
            report.notes.append(
                "the server took \(refusedAt) connection\(refusedAt == 1 ? "" : "s") at once; later runs open no more")
        }
        if scheduler.widest > job.connections {
            report.notes.append(
                "\(scheduler.widest) connections: more than the \(job.connections) to start with made the transfers faster"
            )
        }
        // A partial status set before (folders not read in full) keeps its error, after this one.
        let earlier = report.error.map { "; " + $0 } ?? ""
        if let spoolFailure {
            report.status = .failed
            report.error = "\(spoolFailure); \(report.actions.count) of \(spool.count) actions carried out" + earlier
        } else if let stop = job.cancellation.interruption, stop.cap == nil {
            report.status = .partial
            report.error = "interrupted: \(report.stats.failed) of \(report.actions.count) actions not done" + earlier
        } else if report.stats.failed > 0 {
            report.status = .partial
            report.error = "\(report.stats.failed) of \(report.actions.count) actions failed" + earlier
        } else if !left.isEmpty, report.status == .ok, let cap = job.caps?.reached {
            report.status = .stopped
            report.error = "\(cap.option) was reached; the next run continues"
        } else if report.status == .ok && report.skipped.isEmpty {
            carriedOutWhole = true
        }
        if !left.isEmpty { report.left = left }
    }
}

extension DeviceReport {
    /// Ends the device on `error`: `partial` when the run was interrupted (`RunInterrupted`:
    /// nothing failed, the next run resumes), `stopped` when a run cap cut it before its plan was
    /// carried out (what is left is unknown), else `failed`.
    mutating func fail(_ error: Error) {
        self.error = "\(error)"
        guard let stop = error as? RunInterrupted else {
            status = .failed
            return
        }
        status = stop.cap == nil ? .partial : .stopped
        if stop.cap != nil { left = .unknown }
    }
}
