// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Plans a pull folder by folder (issue 17): the same plan as `PullPlanner.plan` over whole
/// snapshots, with memory bounded by the largest folder and what crosses folders.
///
/// A union walk in `RelativePath` order over three trees: the device's listing, the local
/// folder, the records (`PullWalkSource`). Each folder is planned by the entry rules of
/// `PullPlanner` on folder-sized snapshots, and its actions go to the writer at once. Kept
/// across folders, until the end: the records gone from the device that a move could come
/// from, the new device files that could be moves (only when some record has their size and
/// time), the delete candidates a rename may take over and the folders above them (the others
/// are weighed on the way, `DeleteQueue`; the delete guard counts the whole run's), the unknown
/// folders, the times of the listing
/// (`DefaultTimes`) and the identity overlap (`ListingOverlap.Tally`).
///
/// One difference from the whole-tree plan, on purpose: a local file where the device now has
/// a folder is cleared (to the trash, or set aside as a conflict copy when it changed) once
/// that folder's own listing is read; a folder deeper below it that cannot be listed in full
/// no longer keeps the file in place (the whole-tree planner, seeing the whole listing first,
/// leaves it). Nothing is lost either way.
///
/// Pure: everything read comes through the source.
public struct PullWalk {
    public let policy: SyncPolicy
    let planner: PullPlanner
    let partials: [RelativePath: PartialTransfer]
    let source: any PullWalkSource
    /// What crosses folders alike in a pull and a push.
    var ledger: WalkLedger
    /// Local non-folders below which nothing is pulled, noted once each.
    var blocked = Set<RelativePath>()
    /// Gone records a move can come from (`RenameDetection.canMove`), in walk order.
    var vanished: [FileRecord] = []
    /// How many files of the planned listing have each time (`DefaultTimes`).
    var times = TimeTally()

    /// How a folder stands, handed down from its parent's visit.
    struct Place {
        var folder: RelativePath
        /// The device lists it as a folder (its listing is read).
        var onDevice = false
        /// The local side has it as a folder (it is scanned).
        var here = false
        /// The topmost local non-folder at or above it, and whether a type change clears it.
        var nonFolderAncestor: SnapshotEntry?
        var ancestorCleared = false
        /// The local non-folder at its path when the device has a folder there (noted here
        /// unless something below was left out and named it already).
        var inTheWay: SnapshotEntry?
        /// The folder that makes deleting in it suspect (`DeleteGuard.suspectFolder`), when it
        /// is not in the planned listing itself (then its parent's answer holds).
        var suspect: RelativePath?
        /// True when the planned listing holds it as a folder (or it is the root): it settles
        /// the answer itself, from its own planned listing.
        var isAnchor = false
        /// Its listing when it was read early (`plan`: a type change waits for it).
        var listing: FolderListing?
    }

    /// A walk of a pull under `policy`.
    /// - Parameters:
    ///   - partials: interrupted downloads waiting to be resumed, by path (all of them: few).
    ///   - source: where the folders are read.
    ///   - writer: where the actions go, by section.
    public init(
        policy: SyncPolicy, partials: [RelativePath: PartialTransfer], source: any PullWalkSource,
        writer: any PlanWriter
    ) {
        self.policy = policy
        planner = PullPlanner(policy: policy)
        self.partials = partials
        self.source = source
        ledger = WalkLedger(policy: policy, direction: .pull, writer: writer)
    }

    /// Walks the three trees from the root, writing each folder's actions, then plans what
    /// crosses folders (`finish`).
    /// - Throws: what the source or the writer throws.
    public consuming func run() throws -> PullWalkResult {
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
        if let early = place.listing {
            listing = early
        } else if place.onDevice {
            listing = try source.listing(of: folder)
            ledger.noteDevice(listing, of: folder)
        }
        let scanned = place.here ? try source.localFolder(folder) : Snapshot([])
        ledger.unknownDestination.formUnion(scanned.unknown)
        let (listed, local, records) = ledger.filtered(
            source: listing.snapshot, destination: scanned, records: try source.records(in: folder, local: scanned))
        ledger.take(records: records, folder: folder, listing: listed)
        let unknown = ledger.unknown
        let raw = try source.refined(listed, records: records)
        let offloadsBefore = ledger.offloads
        let (remote, planned, early) = try plan(raw, local: local, records: records, place: place, unknown: unknown)
        ledger.noteDeviceKeeps(folder, listing: listing, offloaded: ledger.offloads - offloadsBefore)
        for entry in remote.entries where ledger.deviceHasRecords && entry.kind == .file {
            if let seconds = entry.modified?.seconds { times.add(seconds) }
        }
        let suspect = try ledger.suspect(
            folder, isAnchor: place.isAnchor, inherited: place.suspect, planned: remote,
            hasRecordsBelow: source.hasRecords(below:))
        let gone = vanished.count
        try noteGone(records: records, remote: remote, local: local, unknown: unknown)
        if try ledger.givesUpMoves(vanished: vanished.count) { vanished = [] }
        // The local files a move found at the end may rename: their deletes wait for it.
        let moveSources = Set(vanished.dropFirst(gone).map(\.path))
        try ledger.addDeleteCandidates(
            destination: local, planned: remote, records: records, suspect: suspect, moveSources: moveSources)
        return try children(
            of: place, listing: raw, planned: remote, local: local, suspect: suspect,
            cleared: planned.cleared, inTheWay: planned.inTheWay, early: early)
    }

    /// What a folder's plan leaves for its children: the paths a type change clears, the
    /// local non-folders where the device has a folder.
    struct Planned {
        var cleared = Set<RelativePath>()
        var inTheWay: [SnapshotEntry] = []
    }

    /// The entry rules over one folder's snapshots, a slice of the listing at a time
    /// (`WalkLedger.planSlice`), each slice's actions written before the next is planned (a new
    /// file's transfer and note wait for the end when it may be a move).
    private mutating func plan(
        _ raw: Snapshot, local: Snapshot, records: RecordTable, place: Place, unknown: UnknownFolders
    ) throws -> (Snapshot, Planned, [RelativePath: FolderListing]) {
        // A local file where the device now has a folder is cleared unless that folder is not
        // known in full: its listing is read now (and kept for its visit) to tell.
        var unknown = unknown
        var early: [RelativePath: FolderListing] = [:]
        for entry in raw.entries where entry.kind == .directory && local[entry.path]?.kind == .file {
            let listing = try source.listing(of: entry.path)
            ledger.noteDevice(listing, of: entry.path)
            early[entry.path] = listing
            unknown = ledger.unknown
        }
        var typeChanged = Set(
            raw.entries.filter {
                $0.kind == .directory && local[$0.path]?.kind == .file && unknown.forbidsDelete(of: $0.path) == nil
            }.map(\.path))
        let ancestor = place.nonFolderAncestor
        if let ancestor, place.ancestorCleared { typeChanged.insert(ancestor.path) }
        var subtrees: [RelativePath: Subtree] = [:]
        for entry in raw.entries where entry.kind == .file {
            guard let here = local[entry.path], here.kind == .directory else { continue }
            subtrees[here.path] = try subtree(here.path, unknown: unknown)
        }
        let around = PullPlanner.Surroundings(
            nonFolderAncestor: { _ in ancestor }, typeChanged: typeChanged,
            below: { here in
                let tree = subtrees[here.path]
                return (tree?.local ?? Snapshot([]), tree?.records ?? RecordTable(), tree?.unknown ?? unknown)
            }, defersInTheWay: true)
        // What the rules left out of the listing (upload temporaries, what lies below a local
        // non-folder), by position: the slices themselves are not kept.
        var leftOut: [Int] = []
        var planned = Planned()
        let slices = ledger.slices(of: raw.count)
        for (index, slice) in slices.enumerated() {
            var collected = PlanEpilogue.Collected()
            let (part, _) = planner.walk(
                slices.count == 1 ? raw : raw.slice(slice), local: local, records: records, partials: partials,
                unknown: unknown, around: around, blocked: &blocked, into: &collected)
            if index == slices.count - 1, let inTheWay = place.inTheWay, !blocked.contains(inTheWay.path) {
                collected.skipped.append(PullPlanner.inTheWay(inTheWay))
            }
            planned.cleared.formUnion(collected.clearing.map(\.path))
            planned.inTheWay += collected.inTheWay
            try ledger.keep(collected, holdingNotes: true, mayBeMove: mayBeMove)
            if slices.count == 1 { return (part, planned, early) }
            leftOut += raw.positions(leftOutOf: slice, by: part)
        }
        return (raw.removing(positions: leftOut), planned, early)
    }
}

/// What a folder walk planned, beside the actions it wrote.
public struct PullWalkResult: Sendable {
    /// The notes, what was unchanged and what was skipped (`Plan`; its actions are the writer's).
    public var notes: [String]
    public var unchanged: Int
    public var skipped: [SkippedEntry]
    /// How many pairs to record as in sync and records to drop went to the writer
    /// (`PlanWriter.adopt`, `forget`); the refusal (`PlanResult`).
    public var adopted: Int
    public var forgotten: Int
    public var refusal: String?
    /// The moves proposed (all were checked through `PullWalkSource.evidence(for:)`).
    public var moveCandidates: [MoveCandidate]
    /// How much of the listing the records recognise (`ListingOverlap`); nil when the device
    /// has no records.
    public var overlap: ListingOverlap?
    /// How many records the walk read.
    public var records: Int
}
