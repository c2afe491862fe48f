// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Plans a push folder by folder (issue 17): the same plan as `PushPlanner.plan` over whole
/// snapshots, with memory bounded by the largest folder and what crosses folders.
///
/// A union walk in `RelativePath` order over three trees: the local folder (the source), the
/// device's listing (the destination), the records (`PushWalkSource`). Each folder is planned by
/// the entry rules of `PushPlanner` on folder-sized snapshots, and its actions go to the writer
/// at once. Kept across folders, until the end: the records gone from here that a move could
/// come from (their digest, the device still holding them unchanged), the new local files that
/// could be moves (only when some record has their size), the delete candidates a rename may
/// take over and the folders above them (the others are weighed on the way, `DeleteQueue`; the
/// delete guard counts the whole run's), the unknown folders
/// and the interrupted uploads (all of them: few), and the identity overlap
/// (`ListingOverlap.Tally`). A device folder where the local side now has
/// a file is read ahead as a whole (clearing it looks at all it holds), and so is a local folder
/// where the device has a file (an unreadable folder below it forbids the clearing).
///
/// Pure: everything read comes through the source.
public struct PushWalk {
    public let policy: SyncPolicy
    let planner: PushPlanner
    let partials: [RelativePath: UploadPartial]
    let source: any PushWalkSource
    /// What crosses folders alike in a pull and a push.
    var ledger: WalkLedger
    /// Device listings read ahead (below a type change), kept for their folder's visit.
    var early: [RelativePath: FolderListing] = [:]
    /// Gone records a move can come from (`RenameDetection.movedFrom`), in walk order.
    var vanished: [(digest: String, path: RelativePath)] = []
    /// Interrupted uploads whose local file is still here (the others are abandoned).
    var resumable = Set<RelativePath>()

    /// How a folder stands, handed down from its parent's visit.
    struct Place {
        var folder: RelativePath
        /// The device lists it as a folder (its listing is read).
        var onDevice = false
        /// The local side has it as a folder (it is scanned).
        var here = false
        /// The local folder at or above it whose device file a conflict keeps in its way: no
        /// file is sent below it.
        var blockedBy: RelativePath?
        /// The folder that makes deleting in it suspect (`DeleteGuard.suspectFolder`), when it
        /// is not in the planned local side itself (then its parent's answer holds).
        var suspect: RelativePath?
        /// True when the planned local side holds it as a folder (or it is the root): it settles
        /// the answer itself, from its own planned content.
        var isAnchor = false
    }

    /// A walk of a push under `policy`.
    /// - Parameters:
    ///   - partials: interrupted uploads, by path, with the bytes their temporary files hold (all
    ///     of them: few).
    ///   - source: where the folders are read.
    ///   - writer: where the actions go, by section.
    public init(
        policy: SyncPolicy, partials: [RelativePath: UploadPartial], source: any PushWalkSource,
        writer: any PlanWriter
    ) {
        self.policy = policy
        planner = PushPlanner(policy: policy)
        self.partials = partials
        self.source = source
        ledger = WalkLedger(policy: policy, direction: .push, writer: writer)
    }

    /// Walks the three trees from the root, writing each folder's actions, then plans what
    /// crosses folders (`finish`).
    /// - Throws: what the source or the writer throws.
    public consuming func run() throws -> PushWalkResult {
        ledger.deviceHasRecords = try source.hasRecords(below: .root)
        try WalkLedger.depthFirst(from: Place(folder: .root, onDevice: true, here: true, isAnchor: true)) {
            try visit($0)
        }
        return try finish()
    }

    /// Plans one folder; returns its subfolders to visit, in path order.
    private mutating func visit(_ place: Place) throws -> [Place] {
        let folder = place.folder
        try ledger.leaveFolders(before: folder)
        var listing = FolderListing(entries: [])
        if let read = early.removeValue(forKey: folder) {
            listing = read
        } else if place.onDevice {
            listing = try list(folder)
        }
        let scanned = place.here ? try source.localFolder(folder) : Snapshot([])
        let (rawLocal, rawRemote, records) = ledger.filtered(
            source: scanned, destination: listing.snapshot, records: try source.records(in: folder))
        ledger.unknownSource.formUnion(rawLocal.unknown)
        ledger.hiddenSource.formUnion(rawLocal.hiddenUnknown)
        for entry in rawLocal.entries where entry.kind == .file && partials[entry.path] != nil {
            resumable.insert(entry.path)
        }
        ledger.take(records: records, folder: folder, listing: rawRemote)
        let remote = PushPlanner.planned(remote: rawRemote)
        // A type change looks at all the device folder holds, and at what lies unread below
        // the local folder: both are read ahead.
        var subtrees: [RelativePath: Subtree] = [:]
        for entry in rawLocal.entries {
            switch (entry.kind, remote[entry.path]?.kind) {
            case (.file, .directory?): subtrees[entry.path] = try remoteSubtree(entry.path)
            case (.directory, .file?): try scanAhead(entry.path)
            default: continue
            }
        }
        let unknown = ledger.unknown
        let local = PushPlanner.planned(local: rawLocal, remote: remote, unknown: unknown)
        var blockedBelow = place.blockedBy.map { [$0] } ?? []
        // A slice of the folder at a time (`WalkLedger.planSlice`), its actions written before
        // the next is planned; a new file's upload waits for the end when it may be a move (its
        // notes do not).
        let slices = ledger.slices(of: local.count)
        for slice in slices {
            var collected = PlanEpilogue.Collected()
            _ = planner.walk(
                slices.count == 1 ? local : local.slice(slice), remote: remote, records: records, partials: partials,
                unknown: unknown,
                below: { there in subtrees[there.path].map { ($0.remote, $0.records) } ?? (remote, records) },
                blockedBelow: &blockedBelow, into: &collected)
            try ledger.keep(collected, holdingNotes: false, mayBeMove: mayBeMove)
        }
        let gone = vanished.count
        try noteGone(records: records, local: local, remote: remote, unknown: unknown)
        if try ledger.givesUpMoves(vanished: vanished.count) { vanished = [] }
        // The device files a move found at the end may rename: their deletes wait for it.
        let moveSources = Set(vanished.dropFirst(gone).map(\.1))
        let suspect = try ledger.suspect(
            folder, isAnchor: place.isAnchor, inherited: place.suspect, planned: local,
            hasRecordsBelow: source.hasRecords(below:))
        try ledger.addDeleteCandidates(
            destination: remote, planned: local, records: records, suspect: suspect, moveSources: moveSources)
        return try children(
            of: place, listing: rawRemote, local: rawLocal, planned: local, suspect: suspect,
            blocked: Set(blockedBelow))
    }

    /// The device's listing of `folder`, its unknown folders noted.
    mutating func list(_ folder: RelativePath) throws -> FolderListing {
        let listing = try source.listing(of: folder)
        ledger.noteDevice(listing, of: folder)
        return listing
    }
}

/// What a folder walk of a push planned, beside the actions it wrote.
public struct PushWalkResult: Sendable {
    /// The notes, what was unchanged and what was skipped (`Plan`; its actions are the writer's).
    public var notes: [String]
    public var unchanged: Int
    public var skipped: [SkippedEntry]
    /// How many pairs to record as in sync and records to drop went to the writer
    /// (`PlanWriter.adopt`, `forget`); the refusal (`PlanResult`).
    public var adopted: Int
    public var forgotten: Int
    public var refusal: String?
    /// Interrupted uploads whose local file is gone, sorted (`PlanResult.abandonedUploads`).
    public var abandonedUploads: [RelativePath]
    /// How many records the walk read.
    public var records: Int
    /// How much of the device's listing the records recognise (`ListingOverlap`); nil when the
    /// device has no records.
    public var overlap: ListingOverlap?

    /// The plan result of the walk, `actions` being what it wrote (its sections one after the
    /// other); its adoptions and records to drop are the writer's.
    public func planResult(actions: [Action]) -> PlanResult {
        var result = PlanResult(
            plan: Plan(actions: actions, notes: notes, unchanged: unchanged, skipped: skipped), refusal: refusal)
        result.abandonedUploads = abandonedUploads
        return result
    }
}
