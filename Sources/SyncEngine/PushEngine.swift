import FTPListing
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// Carries out a push for one device: connect, list, scan and hash the local folder, plan,
/// upload, record.
///
/// Local digests come from `LocalScanner` with the digest cache kept in the state, so files
/// unchanged since an earlier run are never read again. A dry run sends nothing that changes
/// the server and writes nothing locally.
public final class PushEngine {
    /// The device, the state, the connection maker and the event handler, and the steps shared
    /// with the other direction.
    private let steps: DeviceRunSteps
    private let clock: () -> Date
    private var job: DeviceJob { steps.job }
    private var store: StateStore? { steps.store }
    private var events: SyncEventHandler? { steps.events }

    /// - Parameters:
    ///   - job: the device and the run's choices (`job.policy.direction` is `.push`).
    ///   - store: the state database; nil only for a dry run on a tree that has none yet.
    ///   - clock: the time source (UTC), for the last-sync time.
    ///   - events: told what happens as it happens (`SyncEvent`); nil for none.
    ///   - connect: opens a fresh session to the device (never a reused one).
    public init(
        job: DeviceJob, store: StateStore?, clock: @escaping () -> Date = Date.init,
        events: SyncEventHandler? = nil, connect: @escaping () throws -> RemoteFileSystem
    ) {
        steps = DeviceRunSteps(job: job, store: store, connect: connect, events: events)
        self.clock = clock
    }

    /// Runs the device to the end and reports; never throws: a device that cannot be reached
    /// or listed is `failed`, a plan over the delete limit is `refused` with nothing changed.
    public func run() -> DeviceReport {
        steps.run(clock: clock) { _, report in runDevice(report: &report) }
    }

    private func runDevice(report: inout DeviceReport) {
        guard let remote = steps.open(&report) else { return }
        defer { remote.close() }

        let planned: PlanResult
        var records: [RelativePath: FileRecord]
        let deferred: DeferredDigests
        let abandoned: [RelativePath: StoredPartial]
        let rootParts: [String]
        do {
            records = try store?.records(device: job.name) ?? [:]
            (planned, deferred, abandoned, rootParts) = try plan(
                remote: remote, steps: steps, records: &records, report: &report)
        } catch {
            report.status = .failed
            report.error = "\(error)"
            return
        }
        guard steps.accept(planned, into: &report) else {
            if job.dryRun && report.status != .refused {
                let made = rootParts.map { RemoteRootCreation.report($0, status: .planned) }
                report.actions.insert(contentsOf: made, at: 0)
            }
            return
        }
        // The device's remote folder first, when it does not exist yet (issue 14 item 6).
        guard RemoteRootCreation.make(rootParts, on: remote, into: &report) else { return }
        let quirks = DeviceQuirks(resumeWrong: ((try? store?.resumeQuirk(device: job.name)) ?? nil) != nil)
        let conflicts = RemoteConflictCopies(runStarted: clock())
        let executor = PushExecutor(
            job: job, store: store, remote: remote, records: records, deferred: deferred, events: events, clock: clock,
            conflicts: conflicts, quirks: quirks)
        for adoption in planned.adoptions { executor.adopt(adoption) }
        for path in planned.forgotten { try? store?.deleteRecord(path: path, device: job.name) }
        let actions = planned.plan.actions
        steps.carryOut(
            actions, remote: remote,
            first: ConnectionWorker(
                remote: remote, perform: numbered(executor.perform, in: actions, cancellation: job.cancellation)),
            extra: { [job, store, events, clock, records] sibling in
                let worker = PushExecutor(
                    job: job, store: store, remote: sibling, records: records, deferred: deferred, events: events,
                    clock: clock, conflicts: conflicts, quirks: quirks)
                return ConnectionWorker(
                    remote: sibling, perform: numbered(worker.perform, in: actions, cancellation: job.cancellation),
                    finish: worker.finishRecords)
            }, finishFirst: executor.finishRecords, at: clock, into: &report)
        dropAbandonedUploads(abandoned, remote: remote)
    }

    /// Lists the device while the local folder is scanned, settles the uploads an earlier run
    /// left right after their RNTO (`UploadReconciler`, which may add to `records`), then plans;
    /// returns the plan, the files whose digests were left for later (see `DeferredDigests`),
    /// and the folders of the device's remote root still to make (`RemoteRootCreation`).
    private func plan(
        remote: RemoteFileSystem, steps: DeviceRunSteps, records: inout [RelativePath: FileRecord],
        report: inout DeviceReport
    ) throws -> (PlanResult, DeferredDigests, abandoned: [RelativePath: StoredPartial], rootParts: [String]) {
        let excludes = try ExcludeRules(job.excludes)
        let recorded = records
        var scanned: RemoteScanner.Result
        let local: LocalScan
        var rootParts: [String] = []
        do {
            (scanned, local) = try steps.listDevice(remote, excludes: excludes, report: &report) { [self] in
                try localSnapshot(excludes: excludes, records: recorded)
            }
            // An empty listing may be a missing folder's (vsftpd, busybox answer an empty 226).
            if scanned.snapshot.entries.isEmpty {
                rootParts = RemoteRootCreation.missingParts(of: job.remoteRoot, on: remote)
            }
        } catch {
            rootParts = RemoteRootCreation.missingParts(of: job.remoteRoot, on: remote)
            guard !rootParts.isEmpty else { throw error }
            local = try localSnapshot(excludes: excludes, records: recorded)
            scanned = RemoteScanner.Result(snapshot: Snapshot([]), notes: [], skipped: [])
        }
        if !rootParts.isEmpty { scanned = RemoteScanner.Result(snapshot: Snapshot([]), notes: [], skipped: []) }
        report.notes += local.notes
        report.skipped += local.skipped
        steps.markIncomplete(remote: scanned.unknown, local: local.unreadable, in: &report)
        if let store {
            report.notes += try UploadReconciler(job: job, store: store, remote: remote).reconcile(
                listed: scanned.snapshot, records: &records)
        }
        let (partials, abandoned) = try uploadPartials(remote: remote, local: local.snapshot)
        var planned = PushPlanner(policy: job.policy).plan(
            local: local.snapshot, remote: scanned.snapshot, records: records, partials: partials)
        // Another tree at the device's address: overwrite and delete nothing there (issue 14 item 18).
        if planned.refusal == nil, let refusal = IdentityCheck.foreignTree(scanned.snapshot, records, job: job) {
            planned.refusal = refusal
        }
        let deferred = DeferredDigests(scan: local, deviceRoot: job.paths.deviceRoot, cachePrefix: cachePrefix)
        return (planned, deferred, abandoned, rootParts)
    }

    /// The device's local folder with digests, through the digest cache of the state. A file
    /// with no record and no cached digest is left unhashed when no recorded file is missing
    /// here: then no move can be found by its digest, and the upload hashes it meanwhile.
    private func localSnapshot(excludes: ExcludeRules, records: [RelativePath: FileRecord]) throws -> LocalScan {
        guard try LocalFileSystem().status(at: job.paths.deviceRoot) != nil else {
            return LocalScan(snapshot: Snapshot([]), identities: [:], notes: [])
        }
        var cache = HashCache(try store?.loadHashCache() ?? [])
        let scan = try LocalScanner(excludes: excludes, skipsStateFolder: false).scan(
            root: job.paths.deviceRoot, cache: &cache, cachePrefix: cachePrefix
        ) { entries in
            var recordedHere = 0
            for entry in entries where entry.kind == .file && records[entry.path] != nil { recordedHere += 1 }
            let movesPossible = recordedHere < records.count
            return { entry in movesPossible || records[entry.path] != nil }
        }
        if !job.dryRun, let store, cache.hasPendingChanges {
            try store.saveHashCache(upserts: cache.pendingUpserts, removals: cache.pendingRemovals)
        }
        return scan
    }

    /// The device folder relative to the tree root: the key prefix of its digests in the cache.
    private var cachePrefix: String {
        let root = job.paths.treeRoot.hasSuffix("/") ? job.paths.treeRoot : job.paths.treeRoot + "/"
        return job.paths.deviceRoot.hasPrefix(root)
            ? String(job.paths.deviceRoot.dropFirst(root.count)) : job.paths.deviceRoot
    }

    /// Interrupted uploads, with the bytes their temporary files hold now (SIZE; 0 when gone);
    /// apart, those whose local file is gone (deleted or moved): nothing will resume them.
    private func uploadPartials(remote: RemoteFileSystem, local: Snapshot) throws -> (
        [RelativePath: UploadPartial], abandoned: [RelativePath: StoredPartial]
    ) {
        guard let store else { return ([:], [:]) }
        var result: [RelativePath: UploadPartial] = [:]
        var abandoned: [RelativePath: StoredPartial] = [:]
        for (path, stored) in try store.partials(device: job.name, direction: .push) {
            guard let size = stored.localSize else { continue }
            guard local[path]?.kind == .file else {
                abandoned[path] = stored
                continue
            }
            let done = (try? remote.size(stored.tempName)) ?? 0
            result[path] = UploadPartial(
                path: path, localSize: size, localModified: stored.localModified, bytesDone: done)
        }
        return (result, abandoned)
    }

    /// Removes the temporary files of uploads whose local file is gone, and their rows (not in
    /// a dry run). A temporary the server will not delete keeps its row, to be tried again.
    private func dropAbandonedUploads(_ abandoned: [RelativePath: StoredPartial], remote: RemoteFileSystem) {
        guard !job.dryRun, let store else { return }
        for (path, stored) in abandoned {
            let gone = (try? remote.delete(stored.tempName)) != nil || (try? remote.size(stored.tempName)) == nil
            if gone { try? store.removePartial(path: path, device: job.name, direction: .push) }
        }
    }
}
