import FTPListing
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// Carries out a pull for one device: connect, list, plan, download, record.
///
/// The planner decides; this only carries out. Each finished action is recorded in the state
/// in the same step, so a run killed at any moment leaves a state the next run completes.
public final class PullEngine {
    /// The device, the state, the connection maker and the event handler, and the steps shared
    /// with the other direction.
    private let steps: DeviceRunSteps
    private let clock: () -> Date
    private var job: DeviceJob { steps.job }
    private var store: StateStore? { steps.store }
    private var events: SyncEventHandler? { steps.events }

    /// - Parameters:
    ///   - job: the device and the run's choices.
    ///   - store: the state database; nil only for a dry run on a tree that has none yet.
    ///   - connect: opens a fresh session to the device (never a reused one).
    ///   - clock: the time source (UTC), for stamps in file names and the last-sync time.
    ///   - events: told what happens as it happens (`SyncEvent`); nil for none.
    public init(
        job: DeviceJob, store: StateStore?, clock: @escaping () -> Date = Date.init,
        events: SyncEventHandler? = nil, connect: @escaping () throws -> RemoteFileSystem
    ) {
        steps = DeviceRunSteps(job: job, store: store, connect: connect, events: events)
        self.clock = clock
    }

    /// Runs the device to the end and reports; never throws: a device that cannot be reached
    /// or listed is reported `failed`.
    public func run() -> DeviceReport {
        steps.run(clock: clock) { started, report in runDevice(started: started, report: &report) }
    }

    private func runDevice(started: Date, report: inout DeviceReport) {
        guard let remote = steps.open(&report) else { return }
        defer { remote.close() }

        let planned: PullPlanner.Result
        let records: [RelativePath: FileRecord]
        let tree: PullTree
        do {
            (planned, records, tree) = try plan(remote: remote, steps: steps, report: &report)
        } catch {
            report.status = .failed
            report.error = "\(error)"
            return
        }
        guard steps.accept(planned, into: &report) else { return }
        let batch = store.map {
            PullRecordBatch(store: $0, device: job.name, folders: [job.paths.deviceRoot, job.paths.stateFolder])
        }
        let flush: () -> Void = { batch?.flush() }
        let actions = planned.plan.actions
        if !actions.isEmpty, let staging = tree.staging() { TreeFolder.sweepStaging(staging) }
        let executor = PullExecutor(
            job: job, store: store, remote: remote, runStarted: started, tree: tree, records: records,
            events: events, batch: batch)
        for adoption in planned.adoptions { executor.adopt(adoption) }
        if !job.dryRun { notePlannedDownloads(actions) }
        report.notes += tree.leftovers.map(executor.sweepLeftover)
        for path in planned.forgotten { try? store?.deleteRecord(path: path, device: job.name) }
        steps.carryOut(
            actions, remote: remote,
            first: ConnectionWorker(
                remote: remote, perform: numbered(executor.perform, in: actions, cancellation: job.cancellation),
                flush: flush),
            extra: { [job, store, events] sibling in
                let worker = PullExecutor(
                    job: job, store: store, remote: sibling, runStarted: started, tree: tree, records: records,
                    events: events, batch: batch)
                return ConnectionWorker(
                    remote: sibling, perform: numbered(worker.perform, in: actions, cancellation: job.cancellation),
                    flush: flush)
            }, finishFirst: {}, at: clock, into: &report)
        report.notes += batch?.notes ?? []
        if let store { sweepUnnamedPartials(paths: job.paths, store: store) }
    }

    /// Stores a partial row for every planned download that starts at byte 0, in one
    /// transaction before the first transfer: a file a kill leaves under its final
    /// name before its record is committed is then known as ours by the next run
    /// (`PlacedDownloads`). A failure only loses that knowledge.
    private func notePlannedDownloads(_ actions: [Action]) {
        guard let store else { return }
        try? store.transaction {
            for action in actions where action.kind == .download && action.offset == 0 {
                guard let source = action.source else { continue }
                let partial = PartialTransfer(
                    path: action.path, remoteSize: source.size, remoteModified: source.modified, bytesDone: 0)
                try store.setPartial(
                    StoredPartial(transfer: partial, tempName: job.paths.partial(action.path)), device: job.name)
            }
        }
    }

    /// Lists the device (over up to `job.connections` connections) while the local folder is
    /// scanned and the state read on another thread, then plans; returns the plan, the
    /// records it was made with, and the local side as the plan saw it (`PullTree`: what the
    /// scan found, when it began, which paths get a conflict copy).
    private func plan(remote: ResilientRemote, steps: DeviceRunSteps, report: inout DeviceReport) throws -> (
        PullPlanner.Result, [RelativePath: FileRecord], PullTree
    ) {
        let excludes = try ExcludeRules(job.excludes)
        let scanStarted = Date()
        let (scanned, (local, records, partials)) = try steps.listDevice(remote, excludes: excludes, report: &report) {
            [self] in
            let local = try localSnapshot(excludes: excludes)
            var records = try store?.records(device: job.name) ?? [:]
            let stored = try store?.partialTransfers(device: job.name) ?? [:]
            let placed = PlacedDownloads.records(partials: stored, local: local.snapshot, records: records)
            for record in placed { records[record.path] = record }
            let partials = try currentPartials(stored)
            if !job.dryRun, let store {
                // Placed files are recorded; rows with no bytes on disk and no placed file
                // (a download that failed or never started) are dropped: the plan adds its own.
                try store.transaction {
                    for record in placed { try store.upsertRecord(record, device: job.name) }
                    for path in stored.keys where partials[path] == nil {
                        try store.removePartial(path: path, device: job.name)
                    }
                }
            }
            return (local, records, partials)
        }
        report.notes += local.notes
        report.skipped += local.skipped
        steps.markIncomplete(remote: scanned.unknown, local: local.unreadable, in: &report)
        var policy = job.policy
        policy.now = clock()
        // Minute-precise listed times that cannot tell a change are asked to the second (MDTM).
        let listed = try PreciseTimes.resolve(
            scanned.snapshot, remote: remote, root: job.remoteRoot, records: records,
            lastSync: try? store?.lastSync(device: job.name), now: policy.now,
            cancellation: job.cancellation)
        let planner = PullPlanner(policy: policy)
        var planned = planner.plan(remote: listed, local: local.snapshot, records: records, partials: partials)
        // Size and time only propose moves: each is proven (server hash, sampled bytes) before
        // it becomes a rename, in a dry run too (reads only); see `MoveEvidenceCheck`.
        if !planned.moveCandidates.isEmpty {
            let evidence = MoveEvidenceCheck(remote: remote, job: job).check(planned.moveCandidates)
            planned = planner.plan(
                remote: listed, local: local.snapshot, records: records, partials: partials, evidence: evidence)
        }
        // Another tree at the device's address (a camera of the same model swapped in): refuse
        // before anything is deleted or overwritten (issue 14 item 18).
        if planned.refusal == nil, let refusal = IdentityCheck.foreignTree(scanned.snapshot, records, job: job) {
            planned.refusal = refusal
        }
        let tree = PullTree(
            paths: job.paths, seen: local.identities, scanStarted: scanStarted,
            conflicted: Set(planned.plan.actions.filter { $0.kind == .conflict }.map(\.path)),
            leftovers: local.leftovers)
        return (planned, records, tree)
    }

    /// The device's local folder; a folder that does not exist yet is empty.
    private func localSnapshot(excludes: ExcludeRules) throws -> LocalScan {
        guard try LocalFileSystem().status(at: job.paths.deviceRoot) != nil else {
            return LocalScan(
                snapshot: Snapshot([]), identities: [:], notes: [], hashedFiles: 0, hashedBytes: 0, cachedFiles: 0)
        }
        return try LocalScanner(excludes: excludes, skipsStateFolder: false).scan(root: job.paths.deviceRoot)
    }

    /// The partial downloads of `stored` whose bytes are on disk, with the bytes there.
    private func currentPartials(_ stored: [RelativePath: PartialTransfer]) throws -> [RelativePath: PartialTransfer] {
        var result: [RelativePath: PartialTransfer] = [:]
        let files = LocalFileSystem()
        for (path, var partial) in stored {
            // A partial that cannot be read (removed, name too long) is simply not resumed.
            guard let status = try? files.status(at: job.paths.partial(path)), status.kind == .file else { continue }
            partial.bytesDone = status.identity.size
            result[path] = partial
        }
        return result
    }
}
