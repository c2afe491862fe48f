// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// A device run's push: `PushWalk` plans folder by folder, each device folder listed, each
/// local folder scanned and hashed as it goes (through the digest cache of the state, read one
/// folder at a time, so files unchanged since an earlier run are never read again) with the
/// records of that folder (`PushFolderSource`); `PushExecutor` uploads (see `DeviceRun`).
struct PushDirection: RunDirection {
    /// The device run this is the direction of.
    let run: DeviceRun
    /// When the run started (UTC), for the names of the device's conflict copies.
    let started: Date
    private var job: DeviceJob { run.job }
    private var store: StateStore? { run.store }

    /// A push's plan (its actions in the spool) with what its executors share: the digests
    /// left for later, the interrupted uploads the plan abandons, the folders of the device's
    /// remote root still to make, the conflict copies and the device's quirks.
    struct Planned {
        var result: PlanResult
        var deferred: DeferredDigests
        var abandoned: [RelativePath: StoredPartial]
        var rootParts: [String]
        var conflicts: RemoteConflictCopies
        var quirks: DeviceQuirks
        /// The uploads waiting for their folder's listing, for all the device's connections.
        var relist = UploadRelist()
    }

    func result(of planned: Planned) -> PlanResult { planned.result }

    /// A dry run reports the remote root's folders it would make first.
    func stopped(_ planned: Planned, into report: inout DeviceReport) {
        guard job.dryRun && report.status != .refused else { return }
        RemoteRootCreation.reportFirst(planned.rootParts, into: &report)
    }

    /// Makes the device's remote folder first, when it does not exist yet (issue 14 item 6),
    /// and removes the temporaries of the uploads the plan abandons: before the plan's deletes,
    /// whose RMD of a folder holding one failed ("directory not empty").
    func prepare(_ planned: Planned, spool: PlanSpool, remote: ResilientRemote, report: inout DeviceReport) -> Bool {
        guard RemoteRootCreation.make(planned.rootParts, on: remote, into: &report) else { return false }
        removeAbandoned(planned, remote: remote)
        return true
    }

    func executor(_ planned: Planned, over remote: RemoteFileSystem) -> PushExecutor {
        executor(planned, over: remote, moved: ByteTally())
    }

    /// The executor over `remote`, counting the bytes it moves in `moved` (a sync's executors
    /// share one tally).
    func executor(_ planned: Planned, over remote: RemoteFileSystem, moved: ByteTally) -> PushExecutor {
        PushExecutor(
            job: job, store: store, remote: remote, deferred: planned.deferred,
            events: run.events, clock: run.clock, conflicts: planned.conflicts, quirks: planned.quirks,
            relist: planned.relist, moved: moved)
    }

    /// Nothing is left once a push's actions were carried out.
    func conclude(_ planned: Planned, remote: ResilientRemote, report: inout DeviceReport) {}

    /// Removes the temporary files of the uploads the plan abandons, and their rows (a dry run
    /// never gets here). A temporary the server will not delete keeps its row, to be tried again.
    func removeAbandoned(_ planned: Planned, remote: ResilientRemote) {
        guard let store else { return }
        for path in planned.result.abandonedUploads {
            guard let stored = planned.abandoned[path] else { continue }
            let gone = (try? remote.delete(stored.tempName)) != nil || (try? remote.size(stored.tempName)) == nil
            if gone { try? store.removePartial(path: path, device: job.name, direction: .push) }
        }
    }

    /// Plans folder by folder (`PushWalk`): each folder of the device listed (`walkDevice`, a
    /// bounded window ahead), the same local folder scanned and hashed, its records read; the
    /// uploads an earlier run left right after their RNTO are settled first (`UploadReconciler`,
    /// over the listings of their folders, which may add to the records). The actions go to
    /// `writer` as they are planned, each with the record of its path and what the scan found
    /// there (`AnnotatingPlanWriter`).
    func plan(remote: ResilientRemote, into writer: PlanWriter, report: inout DeviceReport) throws -> Planned {
        let excludes = try FilterRules(job.filter)
        // The clock ages (`max_age`) are measured against.
        var policy = job.policy
        policy.now = run.clock()
        // A missing source is an error, never an empty tree (which `--delete` would mirror).
        guard try LocalFileSystem().status(at: job.paths.deviceRoot) != nil else {
            throw EngineError.localFolderMissing(path: job.paths.deviceRoot)
        }
        let ((walked, source, settling, stored, rootParts), listedUnknown) = try run.walkDevice(
            remote, excludes: excludes, report: &report
        ) { listings in
            let (root, rootParts) = try rootListing(listings, on: remote)
            var settled: [RelativePath: FileRecord] = [:]
            let notes =
                try store.map {
                    try UploadReconciler(job: job, store: $0, remote: remote).reconcile(
                        listing: { rootParts.isEmpty ? listings.entries(of: $0) : Snapshot([]) }, records: &settled)
                } ?? []
            let (partials, stored) = try uploadPartials(remote: remote)
            let source = PushFolderSource(
                scanner: LocalScanner(excludes: excludes, skipsStateFolder: false), deviceRoot: job.paths.deviceRoot,
                cachePrefix: cachePrefix, store: store, device: job.name, savesDigests: !job.dryRun,
                listings: rootParts.isEmpty ? listings : nil, root: root, settled: settled)
            let annotating = AnnotatingPlanWriter(base: writer, lookup: source.seen) { try source.seen($0).1 }
            let walked = try PushWalk(policy: policy, partials: partials, source: source, writer: annotating).run()
            return (walked, source, notes, stored, rootParts)
        }
        report.notes += settling
        try source.pruneDigests()
        report.notes += source.notes
        report.skipped += source.skipped
        // A remote root still to make has nothing of its own that could not be listed.
        run.markIncomplete(remote: rootParts.isEmpty ? listedUnknown : [:], local: source.unreadable, in: &report)
        var planned = walked.planResult(actions: [])
        // Another tree at the device's address: overwrite and delete nothing there (issue 14 item 18).
        if planned.refusal == nil,
            let refusal = IdentityCheck.foreignTree(
                records: walked.records, job: job, noting: run.transitions, overlap: { walked.overlap })
        {
            planned.refusal = refusal
        }
        let quirks = DeviceQuirks(resumeWrong: ((try? store?.resumeQuirk(device: job.name)) ?? nil) != nil)
        return Planned(
            result: planned, deferred: DeferredDigests(deviceRoot: job.paths.deviceRoot, cachePrefix: cachePrefix),
            abandoned: stored, rootParts: rootParts, conflicts: RemoteConflictCopies(runStarted: run.clock()),
            quirks: quirks)
    }

    /// The listing of the device's root, and the folders of the remote root still to make
    /// (`RemoteRootCreation`): when the root cannot be listed, or lists nothing (vsftpd and
    /// busybox answer a missing folder's listing with an empty 226).
    /// - Throws: the root's listing error when the remote root exists.
    func rootListing(_ listings: RemoteWalk, on remote: RemoteFileSystem) throws -> (FolderListing, [String]) {
        do {
            let root = try listings.listing(of: .root)
            guard root.snapshot.count == 0 else { return (root, []) }
            return (root, RemoteRootCreation.missingParts(of: job.remoteRoot, on: remote))
        } catch {
            let parts = RemoteRootCreation.missingParts(of: job.remoteRoot, on: remote)
            guard !parts.isEmpty else { throw error }
            return (FolderListing(entries: []), parts)
        }
    }

    /// The device folder relative to the tree root: the key prefix of its digests in the cache.
    var cachePrefix: String {
        let root = job.paths.treeRoot.hasSuffix("/") ? job.paths.treeRoot : job.paths.treeRoot + "/"
        return job.paths.deviceRoot.hasPrefix(root)
            ? String(job.paths.deviceRoot.dropFirst(root.count)) : job.paths.deviceRoot
    }

    /// Interrupted uploads, with the bytes their temporary files hold now (SIZE; 0 when gone),
    /// and their stored rows.
    func uploadPartials(remote: RemoteFileSystem) throws -> (
        [RelativePath: UploadPartial], stored: [RelativePath: StoredPartial]
    ) {
        guard let store else { return ([:], [:]) }
        var result: [RelativePath: UploadPartial] = [:]
        var rows: [RelativePath: StoredPartial] = [:]
        for (path, stored) in try store.partials(device: job.name, direction: .push) {
            guard let size = stored.localSize else { continue }
            rows[path] = stored
            let done = (try? remote.size(stored.tempName)) ?? 0
            result[path] = UploadPartial(
                path: path, localSize: size, localModified: stored.localModified, bytesDone: done)
        }
        return (result, rows)
    }
}
