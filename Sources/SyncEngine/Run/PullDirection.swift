import FTPListing
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// A device run's pull: the device is listed while the local folder is scanned, `PullPlanner`
/// plans, `PullExecutor` downloads (see `DeviceRun`).
struct PullDirection: RunDirection {
    /// The device run this is the direction of.
    let run: DeviceRun
    /// When the run started (UTC), for the names of conflict copies.
    let started: Date
    private var job: DeviceJob { run.job }
    private var store: StateStore? { run.store }

    /// A pull's plan (its actions in the spool), the local side as it saw it (`PullTree`) and
    /// the batch the records of small new files go to.
    struct Planned {
        var result: PlanResult
        var tree: PullTree
        var batch: PullRecordBatch?
    }

    func result(of planned: Planned) -> PlanResult { planned.result }

    func stopped(_ planned: Planned, into report: inout DeviceReport) {}

    /// Empties the staging folder of an earlier run, notes the planned downloads, and moves
    /// what interrupted runs left to the trash.
    func prepare(_ planned: Planned, spool: PlanSpool, remote: ResilientRemote, report: inout DeviceReport) -> Bool {
        if spool.count > 0, let staging = planned.tree.staging() { TreeFolder.sweepStaging(staging) }
        notePlannedDownloads(spool)
        let executor = executor(planned, over: remote)
        report.notes += planned.tree.leftovers.map(executor.sweepLeftover)
        return true
    }

    func executor(_ planned: Planned, over remote: RemoteFileSystem) -> PullExecutor {
        PullExecutor(
            job: job, store: store, remote: remote, runStarted: started, tree: planned.tree, events: run.events,
            batch: planned.batch)
    }

    /// The record batch's notes; partials no row names any more are swept.
    func conclude(_ planned: Planned, remote: ResilientRemote, report: inout DeviceReport) {
        report.notes += planned.batch?.notes ?? []
        if let store { sweepUnnamedPartials(paths: job.paths, store: store) }
    }

    /// Stores a partial row for every planned download that starts at byte 0, in one
    /// transaction before the first transfer: a file a kill leaves under its final
    /// name before its record is committed is then known as ours by the next run
    /// (`PlacedDownloads`). A failure only loses that knowledge.
    private func notePlannedDownloads(_ spool: PlanSpool) {
        guard let store, spool.transfers > 0 else { return }
        try? store.transaction {
            var actions = try spool.actions()
            while let action = try actions.next() {
                guard action.kind == .download, action.offset == 0, let source = action.source else { continue }
                let partial = PartialTransfer(
                    path: action.path, remoteSize: source.size, remoteModified: source.modified, bytesDone: 0)
                try store.setPartial(
                    StoredPartial(transfer: partial, tempName: job.paths.partial(action.path)), device: job.name)
            }
        }
    }

    /// Lists the device (over up to `job.connections` connections) while the local folder is
    /// scanned and the state read on another thread, then plans into `writer` (each action
    /// with the record of its path and what the scan found there); the plan comes with the
    /// local side as the plan saw it (`PullTree`: when the scan began, which paths get a
    /// conflict copy).
    func plan(remote: ResilientRemote, into writer: PlanWriter, report: inout DeviceReport) throws -> Planned {
        let excludes = try ExcludeRules(job.excludes)
        let scanStarted = Date()
        let (scanned, (local, records, partials)) = try run.listDevice(remote, excludes: excludes, report: &report) {
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
        run.markIncomplete(remote: scanned.unknown, local: local.unreadable, in: &report)
        var policy = job.policy
        policy.now = run.clock()
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
            paths: job.paths, scanStarted: scanStarted,
            conflicted: Set(planned.plan.actions.filter { $0.kind == .conflict }.map(\.path)),
            leftovers: local.leftovers)
        for var action in planned.plan.actions {
            action.record = records[action.path]
            action.seen = local.identities[action.path]
            try writer.append(action, to: .transfers)
        }
        planned.plan.actions = []
        let batch = store.map {
            PullRecordBatch(store: $0, device: job.name, folders: [job.paths.deviceRoot, job.paths.stateFolder])
        }
        return Planned(result: planned, tree: tree, batch: batch)
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
