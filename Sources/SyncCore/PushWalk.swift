import Foundation

/// Plans a push folder by folder (issue 17): the same plan as `PushPlanner.plan` over whole
/// snapshots, with memory bounded by the largest folder and what crosses folders.
///
/// A union walk in `RelativePath` order over three trees: the local folder (the source), the
/// device's listing (the destination), the records (`PushWalkSource`). Each folder is planned by
/// the entry rules of `PushPlanner` on folder-sized snapshots, and its actions go to the writer
/// at once. Kept across folders, until the end: the records gone from here that a move could
/// come from (their digest, the device still holding them unchanged), the new local files that
/// could be moves (only when some record has their size), the delete candidates (decided last,
/// after the renames, through the delete guard with the whole run's count), the unknown folders
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
    let writer: any PlanWriter
    /// Unknown folders found so far, each side (complete once the walk is done).
    var unknownSource = Set<RelativePath>()
    var unknownDestination = Set<RelativePath>()
    var hiddenSource = Set<RelativePath>()
    var hiddenDestination = Set<RelativePath>()
    /// Device listings read ahead (below a type change), kept for their folder's visit.
    var early: [RelativePath: FolderListing] = [:]
    var notes: [String] = []
    var skipped: [SkippedEntry] = []
    var adoptions: [Adoption] = []
    var forgotten: [RelativePath] = []
    var unchanged = 0
    /// Paths a type change clears (nothing below them is deleted), and the file deletes among them.
    var cleared: [RelativePath] = []
    var clearingDeletes = 0
    /// Gone records a move can come from (`RenameDetection.movedFrom`), in walk order.
    var vanished: [(digest: String, path: RelativePath)] = []
    /// Gone records whose device file is still there (the note of a run without `--delete`).
    var goneKept = 0
    /// New local files that may be moves, with the upload planned for each.
    var held: [Held] = []
    /// Device entries the local side lacks, for `--delete`.
    var deleteCandidates: [PlanEpilogue.DeleteCandidate] = []
    /// Interrupted uploads whose local file is still here (the others are abandoned).
    var resumable = Set<RelativePath>()
    /// Records seen.
    var recordsSeen = 0
    /// How much of the device's listing the records recognise, folder by folder.
    var overlap = ListingOverlap.Tally()
    /// False when the device has no record at all: no overlap is counted.
    var deviceHasRecords = true

    /// A new file held back until the end: a rename if it turns out to be a move, else its upload.
    struct Held {
        var entry: SnapshotEntry
        var transfer: Action?
    }

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
        self.writer = writer
    }

    var unknown: UnknownFolders {
        UnknownFolders(
            source: unknownSource, destination: unknownDestination, sourceHidden: hiddenSource,
            destinationHidden: hiddenDestination)
    }

    /// Walks the three trees from the root, writing each folder's actions, then plans what
    /// crosses folders (`finish`).
    /// - Throws: what the source or the writer throws.
    public consuming func run() throws -> PushWalkResult {
        deviceHasRecords = try source.hasRecords(below: .root)
        var pending = [Place(folder: .root, onDevice: true, here: true, isAnchor: true)]
        while let place = pending.popLast() {
            // Children in reverse: the smallest is taken next (depth first, in path order).
            pending += try visit(place).reversed()
        }
        return try finish()
    }

    /// Plans one folder; returns its subfolders to visit, in path order.
    private mutating func visit(_ place: Place) throws -> [Place] {
        let folder = place.folder
        var listing = FolderListing(entries: [])
        if let read = early.removeValue(forKey: folder) {
            listing = read
        } else if place.onDevice {
            listing = try list(folder)
        }
        let rawLocal = place.here ? try source.localFolder(folder) : Snapshot([])
        unknownSource.formUnion(rawLocal.unknown)
        hiddenSource.formUnion(rawLocal.hiddenUnknown)
        for entry in rawLocal.entries where entry.kind == .file && partials[entry.path] != nil {
            resumable.insert(entry.path)
        }
        let folderRecords = try source.records(in: folder)
        recordsSeen += folderRecords.count
        var records: [RelativePath: FileRecord] = [:]
        records.reserveCapacity(folderRecords.count)
        for record in folderRecords { records[record.path] = record }
        if deviceHasRecords {
            let under = unknownDestination.contains { $0 == folder || $0.isAncestor(of: folder) }
            overlap.add(listing: listing.entries, records: folderRecords, unknown: under)
        }
        let rawRemote = Snapshot(listing.entries)
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
        let unknown = unknown
        let local = PushPlanner.planned(local: rawLocal, remote: remote, unknown: unknown)
        var collected = PlanEpilogue.Collected()
        var blockedBelow = place.blockedBy.map { [$0] } ?? []
        _ = planner.walk(
            local, remote: remote, records: records, partials: partials, unknown: unknown,
            below: { there in subtrees[there.path].map { ($0.remote, $0.records) } ?? (remote, records) },
            blockedBelow: &blockedBelow, into: &collected)
        try keep(collected)
        noteGone(records: folderRecords, local: local, remote: remote, unknown: unknown)
        let suspect = try suspectFolder(place, planned: local)
        if policy.deleteExtraneous {
            let positions = remote.positions(in: local)
            for (position, entry) in remote.entries.enumerated() where positions[position] < 0 {
                deleteCandidates.append(
                    PlanEpilogue.DeleteCandidate(entry: entry, record: records[entry.path], suspect: suspect))
            }
        }
        return try children(
            of: place, listing: rawRemote, local: rawLocal, planned: local, suspect: suspect,
            blocked: Set(blockedBelow))
    }

    /// The device's listing of `folder`, its unknown folders noted.
    mutating func list(_ folder: RelativePath) throws -> FolderListing {
        let listing = try source.listing(of: folder)
        if listing.isIncomplete { unknownDestination.insert(folder) }
        if listing.mayHideDotNames { hiddenDestination.insert(folder) }
        return listing
    }
}

/// What a folder walk of a push planned, beside the actions it wrote.
public struct PushWalkResult: Sendable {
    /// The notes, what was unchanged and what was skipped (`Plan`; its actions are the writer's).
    public var notes: [String]
    public var unchanged: Int
    public var skipped: [SkippedEntry]
    /// Pairs to record as in sync, records to drop, the refusal (`PlanResult`).
    public var adoptions: [Adoption]
    public var forgotten: [RelativePath]
    public var refusal: String?
    /// Interrupted uploads whose local file is gone, sorted (`PlanResult.abandonedUploads`).
    public var abandonedUploads: [RelativePath]
    /// How many records the walk read.
    public var records: Int
    /// How much of the device's listing the records recognise (`ListingOverlap`); nil when the
    /// device has no records.
    public var overlap: ListingOverlap?

    /// The plan result of the walk, `actions` being what it wrote (its sections one after the other).
    public func planResult(actions: [Action]) -> PlanResult {
        var result = PlanResult(
            plan: Plan(actions: actions, notes: notes, unchanged: unchanged, skipped: skipped),
            adoptions: adoptions, forgotten: forgotten, refusal: refusal)
        result.abandonedUploads = abandonedUploads
        return result
    }
}
