// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// A device run's sync (`ftpsync sync`): the device listed whole and the local folder scanned
/// whole (digests through the state's cache), `SyncPlanner` plans against the records of the
/// last sync, and `TwoWayExecutor` carries each action out with the pull's or the push's
/// executor (see `DeviceRun`): a third direction of the same engine.
struct TwoWayDirection: RunDirection {
    /// The device run this is the direction of.
    let run: DeviceRun
    /// When the run started (UTC): the trash folder of the run.
    let started: Date
    /// The time conflict copies are named after, on both sides: the run's start, or the
    /// reviewed plan's (`ftpsync apply`: the copies get the names the plan showed).
    private var named: Date { job.conflictTime ?? started }
    private var job: DeviceJob { run.job }
    private var store: StateStore? { run.store }
    private var pull: PullDirection { PullDirection(run: run, started: started) }
    private var push: PushDirection { PushDirection(run: run, started: started) }

    /// A sync's plan: what the pull's executors share (the local side, the record batch) and
    /// what the push's share (digests, abandoned uploads, the remote root, conflict copies,
    /// quirks), each holding the plan.
    struct Planned {
        var downloads: PullDirection.Planned
        var uploads: PushDirection.Planned
    }

    func result(of planned: Planned) -> PlanResult { planned.uploads.result }

    /// A dry run reports the remote root's folders it would make first (as a push does).
    func stopped(_ planned: Planned, into report: inout DeviceReport) { push.stopped(planned.uploads, into: &report) }

    /// Makes the device's remote folder when missing and removes the temporaries of uploads the
    /// plan abandons (as a push does), then empties the staging folder of an earlier run and
    /// sweeps the leftovers of killed downloads (as a pull does, without its rows of planned
    /// downloads: a sync's first download records itself).
    func prepare(_ planned: Planned, spool: PlanSpool, remote: ResilientRemote, report: inout DeviceReport) -> Bool {
        guard push.prepare(planned.uploads, spool: spool, remote: remote, report: &report) else { return false }
        let tree = planned.downloads.tree
        if spool.transfers > 0, let staging = tree.staging() { TreeFolder.sweepStaging(staging) }
        let executor = pull.executor(planned.downloads, over: remote)
        report.notes += tree.leftovers.map(executor.sweepLeftover)
        return true
    }

    func executor(_ planned: Planned, over remote: RemoteFileSystem) -> TwoWayExecutor {
        let moved = ByteTally()
        // The pull's, with its sessions for the ranges of downloads fetched in segments.
        let downloads = pull.executor(planned.downloads, over: remote, moved: moved)
        let uploads = push.executor(planned.uploads, over: remote, moved: moved)
        return TwoWayExecutor(pull: downloads, push: uploads, moved: moved)
    }

    /// The record batch's notes; partial files no row names are swept.
    func conclude(_ planned: Planned, remote: ResilientRemote, report: inout DeviceReport) {
        let batch = planned.downloads.batch
        batch?.flush()
        report.notes += batch?.notes ?? []
        if let store, !job.dryRun { sweepUnnamedPartials(paths: job.paths, store: store) }
    }

    /// Lists the device (`walkDevice`, depth first) and scans the local folder, reads the
    /// records, settles the uploads an earlier run left right after their RNTO, and plans
    /// (`SyncPlanner`); the device's move candidates are proven (`MoveEvidenceCheck`) and the
    /// plan made again with what was found. The actions go to `writer` with the local identity
    /// and the record of their path.
    func plan(remote: ResilientRemote, into writer: PlanWriter, report: inout DeviceReport) throws -> Planned {
        let scanStarted = Date()
        let excludes = try FilterRules(job.filter)
        var policy = job.policy
        policy.now = run.clock()
        var records = try store?.records(device: job.name) ?? [:]
        if job.resync {
            // Started over: the records go now (a kill from here on leaves a first sync to do).
            if !job.dryRun, let store {
                try store.transaction {
                    for path in records.keys { try store.deleteRecord(path: path, device: job.name) }
                }
            }
            records = [:]
        }
        let localExists = try LocalFileSystem().status(at: job.paths.deviceRoot) != nil
        // A missing local folder after a sync is an unmounted disk, never a tree deleted whole.
        if !localExists && !records.isEmpty { throw EngineError.localFolderMissing(path: job.paths.deviceRoot) }
        let ((there, rootParts, settling), unknown) = try run.walkDevice(remote, excludes: excludes, report: &report) {
            listings in
            let (root, rootParts) = try push.rootListing(listings, on: remote)
            var settled: [RelativePath: FileRecord] = [:]
            let notes =
                try store.map {
                    try UploadReconciler(job: job, store: $0, remote: remote).reconcile(
                        listing: { rootParts.isEmpty ? listings.entries(of: $0) : Snapshot([]) }, records: &settled)
                } ?? []
            records.merge(settled) { _, new in new }
            let there = try rootParts.isEmpty ? DeviceTree.list(listings, root: root) : Snapshot([])
            return (there, rootParts, notes)
        }
        // The device's folder gone after a sync (a card not mounted, `remote:` mistyped) is
        // never made anew: the files synced there would look deleted. A first sync makes it.
        if !rootParts.isEmpty && !records.isEmpty { throw RemoteRootMissing(path: job.remoteRoot) }
        report.notes += settling
        let scan = try scanLocal(excludes: excludes, records: records, exists: localExists)
        report.notes += scan.notes
        report.skipped += scan.skipped
        run.markIncomplete(remote: rootParts.isEmpty ? unknown : [:], local: scan.unreadable, in: &report)
        // Minutes that cannot tell a change are asked to the second (MDTM), as a pull does.
        var device = try PreciseTimes.resolve(
            there, remote: remote, root: job.remoteRoot, records: records,
            lastSync: (try? store?.lastSync(device: job.name)) ?? nil, now: policy.now, cancellation: job.cancellation)
        device.unknown.formUnion(unknown.keys)
        let downloads = try pull.currentPartials(try store?.partialTransfers(device: job.name) ?? [:])
        let (uploads, stored) = try push.uploadPartials(remote: remote)
        let conflictName: @Sendable (String) -> String = { [named] in
            LocalFileSystem.conflictName(for: $0, at: named)
        }
        let planner = SyncPlanner(policy: policy, conflictName: conflictName)
        var result = planner.plan(
            remote: device, local: scan.snapshot, records: records, downloads: downloads, uploads: uploads)
        if !result.moveCandidates.isEmpty || !result.contentCandidates.isEmpty {
            var evidence = MoveEvidenceCheck(remote: remote, job: job).check(result.moveCandidates)
            let compared = ContentCheck(remote: remote, job: job).check(result.contentCandidates)
            evidence.confirmed.formUnion(compared.confirmed)
            evidence.findings.merge(compared.findings) { first, _ in first }
            result = planner.plan(
                remote: device, local: scan.snapshot, records: records, downloads: downloads, uploads: uploads,
                evidence: evidence)
        }
        // Another tree at the device's address: nothing is copied, deleted or renamed.
        if result.refusal == nil,
            let refusal = IdentityCheck.foreignTree(
                records: records.count, job: job, noting: run.transitions,
                overlap: { ListingOverlap(remote: device, records: records) })
        {
            result.refusal = refusal
        }
        try write(result, to: writer, identities: scan.identities, records: records)
        var conflicted = Set<RelativePath>()
        for action in result.plan.actions where action.kind == .conflict && action.resolution == .remoteWins {
            conflicted.insert(action.path)
        }
        let tree = PullTree(
            paths: job.paths, scanStarted: scanStarted, conflicted: conflicted, leftovers: scan.leftovers)
        let batch = store.map {
            PullRecordBatch(store: $0, device: job.name, folders: [job.paths.deviceRoot, job.paths.stateFolder])
        }
        let quirks = DeviceQuirks(resumeWrong: ((try? store?.resumeQuirk(device: job.name)) ?? nil) != nil)
        result.plan.actions = []
        return Planned(
            downloads: PullDirection.Planned(result: result, tree: tree, batch: batch),
            uploads: PushDirection.Planned(
                result: result,
                deferred: DeferredDigests(deviceRoot: job.paths.deviceRoot, cachePrefix: push.cachePrefix),
                abandoned: stored, rootParts: rootParts, conflicts: RemoteConflictCopies(runStarted: named),
                quirks: quirks))
    }

    /// The plan's actions to `writer`, each with what the scan saw at its path and its record
    /// (for a rename, its old path's); then the pairs to record and the records to drop.
    private func write(
        _ result: PlanResult, to writer: PlanWriter, identities: PathTable<FileIdentity>,
        records: [RelativePath: FileRecord]
    ) throws {
        for var action in result.plan.actions {
            action.seen = identities[action.path]
            action.record = action.record ?? records[action.path]
            try writer.append(action, to: Self.section(of: action.kind))
        }
        for adoption in result.adoptions { try writer.adopt(adoption) }
        for path in result.forgotten { try writer.forget(path) }
    }

    /// The section of the spool an action of `kind` goes to (the planner's order is theirs).
    private static func section(of kind: ActionKind) -> PlanSection {
        switch kind {
        case .mkdirLocal, .mkdirRemote: return .prepare
        case .renameLocal, .renameRemote: return .renames
        case .download, .upload, .conflict: return .transfers
        case .deleteLocal, .deleteRemote: return .deletes
        }
    }

    /// The local folder scanned whole; a file is hashed (or its digest taken from the cache)
    /// when its digest can matter: it differs from its record, or a record of its size could be
    /// where it moved from. A folder that does not exist yet (a first sync) is empty.
    private func scanLocal(excludes: FilterRules, records: [RelativePath: FileRecord], exists: Bool) throws
        -> LocalScan
    {
        guard exists else {
            return LocalScan(
                snapshot: Snapshot([]), identities: PathTable(), notes: [], hashedFiles: 0, hashedBytes: 0,
                cachedFiles: 0, unreadable: [:])
        }
        var cache = HashCache(try store?.loadHashCache() ?? [])
        let sizes = Set(records.values.map(\.localSize))
        let scanner = LocalScanner(excludes: excludes, skipsStateFolder: false)
        let scan = try scanner.scan(root: job.paths.deviceRoot, cache: &cache, cachePrefix: push.cachePrefix) { _ in
            { entry in
                if let record = records[entry.path] {
                    return entry.size != record.localSize
                        || entry.modified.map { !$0.matches(record.localModified) } ?? true
                }
                return entry.size.map(sizes.contains) ?? false
            }
        }
        if !job.dryRun, let store, cache.hasPendingChanges {
            try store.saveHashCache(upserts: cache.pendingUpserts, removals: cache.pendingRemovals)
        }
        return scan
    }
}
