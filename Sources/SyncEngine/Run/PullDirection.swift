// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// A device run's pull: planned folder by folder (`PullWalk`: the device's listing, the local
/// folder and the records of one folder at a time), `PullExecutor` downloads (see `DeviceRun`).
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
        /// Sessions opened while the device was listed, for the ranges of downloads fetched in
        /// segments; nil without segments.
        var pool: SiblingPool?
    }

    func result(of planned: Planned) -> PlanResult { planned.result }

    func stopped(_ planned: Planned, into report: inout DeviceReport) { planned.pool?.close() }

    /// Empties the staging folder of an earlier run, notes the planned downloads, and moves
    /// what interrupted runs left to the trash.
    func prepare(_ planned: Planned, spool: PlanSpool, remote: ResilientRemote, report: inout DeviceReport) -> Bool {
        if spool.count > 0, let staging = planned.tree.staging() { TreeFolder.sweepStaging(staging) }
        let segmented = notePlannedDownloads(spool, tree: planned.tree)
        // No download large enough for segments: the sessions opened ahead are not needed.
        if !segmented { planned.pool?.close() }
        let executor = executor(planned, over: remote)
        report.notes += planned.tree.leftovers.map(executor.sweepLeftover)
        return true
    }

    func executor(_ planned: Planned, over remote: RemoteFileSystem) -> PullExecutor {
        executor(planned, over: remote, moved: ByteTally())
    }

    /// The executor over `remote`, counting the bytes it moves in `moved` (a sync's executors
    /// share one tally).
    func executor(_ planned: Planned, over remote: RemoteFileSystem, moved: ByteTally) -> PullExecutor {
        let executor = PullExecutor(
            job: job, store: store, remote: remote, runStarted: started, tree: planned.tree, events: run.events,
            batch: planned.batch, moved: moved)
        if job.segmentSiblings > 0 {
            // Each range of a download fetched in segments gets a fresh session of its own,
            // reconnecting like the others; none once a run cap was reached.
            executor.openSegment = { [job, run, pool = planned.pool] in
                if let cap = job.caps?.reached { throw RunInterrupted(cap: cap) }
                return try ResilientRemote.open(
                    policy: RetryPolicy(retries: job.retries), cancellation: job.cancellation
                ) {
                    // A session opened ahead first (what the listing learnt comes with it).
                    if let ready = pool?.take() {
                        ready.learned = remote.learned
                        return ready
                    }
                    do {
                        return try openSibling(of: remote, run.connect)
                    } catch  where ConnectionLimit.isLimit(error) {
                        // The server is full: the ranges go to the sessions open, at once.
                        pool?.noteRefusal()
                        throw SegmentSessionRefused(cause: "\(error)")
                    }
                }
            }
        }
        return executor
    }

    /// The record batch's notes; the rows of downloads a stop or a run cap left before they
    /// began are dropped, then partials no row names any more are swept.
    func conclude(_ planned: Planned, remote: ResilientRemote, report: inout DeviceReport) {
        report.notes += planned.batch?.notes ?? []
        planned.pool?.close()
        guard let store else { return }
        if planned.pool?.wasRefused == true, !job.dryRun, (try? store.connectionLimit(device: job.name)) ?? nil == nil {
            // Kept to the run's own connections from now on: no sessions for ranges beside them.
            try? store.setConnectionLimit(job.connections, device: job.name)
            report.notes.append(
                "the server refused a session for a range (it takes no more connections at once); later runs open"
                    + " no more than \(job.connections)")
        }
        dropUnstartedRows(Set(report.unstartedDownloads), store: store)
        sweepUnnamedPartials(paths: job.paths, store: store)
    }

    /// Drops the rows `notePlannedDownloads` stored for the downloads at `paths`, which never
    /// began, when they have nothing to resume: no bytes done, no ranges, no partial file.
    /// Nothing of theirs was placed either; kept, they would count as partials waiting to
    /// resume (`status`, the metrics) until the next run.
    private func dropUnstartedRows(_ paths: Set<String>, store: StateStore) {
        guard !paths.isEmpty, let rows = try? store.partials(device: job.name) else { return }
        let files = LocalFileSystem()
        // A partial file that cannot be looked at (permissions) counts as there.
        func absent(_ name: String) -> Bool {
            do { return try files.status(at: name) == nil } catch { return false }
        }
        try? store.transaction {
            for (path, row) in rows where paths.contains(path.string) && row.transfer.bytesDone == 0 {
                guard row.segments == nil, absent(row.tempName) else { continue }
                try store.removePartial(path: path, device: job.name)
            }
        }
    }

    /// Stores a partial row for every planned download that starts at byte 0, in one
    /// transaction before the first transfer: a file a kill leaves under its final
    /// name before its record is committed is then known as ours by the next run
    /// (`PlacedDownloads`). A failure only loses that knowledge.
    ///
    /// A partial file such a download left in an earlier run is removed first: the plan did not
    /// resume it (the device's file changed), and the new row, with the new size and time,
    /// must not make a later run take its bytes for the new file's.
    /// - Returns: true when a download is large enough to be fetched in segments.
    private func notePlannedDownloads(_ spool: PlanSpool, tree: PullTree) -> Bool {
        guard let store, spool.transfers > 0 else { return false }
        var segmentable = false
        // A download fetched in segments keeps its row: its ranges say what is there.
        let segmented = ((try? store.partials(device: job.name)) ?? [:]).filter { $0.value.segments != nil }
        let partials = try? tree.partialFolder()
        let kept = Set((try? partials?.names()) ?? [])
        try? store.transaction {
            var actions = try spool.actions()
            while let action = try actions.next() {
                guard action.kind == .download, action.offset == 0, let source = action.source else { continue }
                if let size = source.size, size >= job.segmentThreshold { segmentable = true }
                guard segmented[action.path] == nil else { continue }
                let name = LocalPaths.partialName(action.path)
                if kept.contains(name), let partials {
                    // Not removable: no row, so that no later run resumes it (the sweep retries).
                    guard (try? partials.removeFile(name)) != nil else {
                        try store.removePartial(path: action.path, device: job.name)
                        continue
                    }
                }
                let partial = PartialTransfer(
                    path: action.path, remoteSize: source.size, remoteModified: source.modified, bytesDone: 0)
                try store.setPartial(
                    StoredPartial(transfer: partial, tempName: job.paths.partial(action.path)), device: job.name)
            }
        }
        return segmentable
    }

    /// Plans folder by folder (`PullWalk`): each folder of the device listed (over up to
    /// `job.connections` connections, a bounded window ahead), the same local folder scanned,
    /// its records read; the actions go to `writer` as they are planned, each with the record of
    /// its path and what the scan found there (`AnnotatingPlanWriter`); the plan comes with the
    /// local side as the plan saw it (`PullTree`: when the scan began, which paths get a
    /// conflict copy).
    ///
    /// With `segments`, the sessions for the ranges of large downloads are opened meanwhile
    /// (`SiblingPool`), so that they start without waiting for a login.
    func plan(remote: ResilientRemote, into writer: PlanWriter, report: inout DeviceReport) throws -> Planned {
        let pool =
            job.segmentSiblings > 0 && !job.dryRun
            ? SiblingPool(count: job.segmentSiblings) { [run] in try openSibling(of: remote, run.connect) } : nil
        do {
            var planned = try walkAndPlan(remote: remote, into: writer, report: &report)
            planned.pool = pool
            return planned
        } catch {
            pool?.close()
            throw error
        }
    }

    /// The plan of `plan`, without the sessions opened ahead.
    private func walkAndPlan(remote: ResilientRemote, into writer: PlanWriter, report: inout DeviceReport) throws
        -> Planned
    {
        let scanStarted = Date()
        var policy = job.policy
        policy.now = run.clock()
        let excludes = try FilterRules(job.filter)
        let ((source, partials, annotating, walked), unknown) = try run.walkDevice(
            remote, excludes: excludes, report: &report
        ) { listings in
            let source = try DeviceWalkSource(
                job: job, store: store, remote: remote, listings: listings, excludes: excludes, now: policy.now)
            let annotating = AnnotatingPlanWriter(base: writer, lookup: source.seen) { [store, job] path in
                try store?.record(path: path, device: job.name)
            }
            let partials = try currentPartials(source.stored)
            let walked = try PullWalk(policy: policy, partials: partials, source: source, writer: annotating).run()
            return (source, partials, annotating, walked)
        }
        report.notes += source.notes
        report.skipped += source.skipped
        run.markIncomplete(remote: unknown, local: source.unreadable, in: &report)
        if !job.dryRun, let store {
            // Rows with no bytes on disk and no placed file (a download that failed or never
            // started) are dropped, now that the placed files are recorded: the plan adds its own.
            // A download fetched in segments keeps its row: its bytes are in its own file, and its
            // ranges tell what is there (`PullExecutor.downloadInSegments`).
            let segmented = try store.partials(device: job.name).filter { $0.value.segments != nil }
            try store.transaction {
                for path in source.stored.keys where partials[path] == nil && segmented[path] == nil {
                    try store.removePartial(path: path, device: job.name)
                }
            }
        }
        var planned = PlanResult(
            plan: Plan(actions: [], notes: walked.notes, unchanged: walked.unchanged, skipped: walked.skipped),
            refusal: walked.refusal)
        planned.moveCandidates = walked.moveCandidates
        // Another tree at the device's address (a camera of the same model swapped in): refuse
        // before anything is deleted or overwritten (issue 14 item 18).
        if planned.refusal == nil,
            let refusal = IdentityCheck.foreignTree(
                records: walked.records, job: job, noting: run.transitions, overlap: { walked.overlap })
        {
            planned.refusal = refusal
        }
        let tree = PullTree(
            paths: job.paths, scanStarted: scanStarted, conflicted: annotating.conflicted,
            leftovers: source.leftovers)
        let batch = store.map {
            PullRecordBatch(store: $0, device: job.name, folders: [job.paths.deviceRoot, job.paths.stateFolder])
        }
        return Planned(result: planned, tree: tree, batch: batch)
    }

    /// The partial downloads of `stored` whose bytes are on disk, with the bytes there.
    func currentPartials(_ stored: [RelativePath: PartialTransfer]) throws -> [RelativePath: PartialTransfer] {
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
