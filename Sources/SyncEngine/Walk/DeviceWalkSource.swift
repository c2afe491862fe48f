// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// What a pull's folder walk (`PullWalk`) reads of one device, one folder at a time: the
/// device's listings (`RemoteWalk`), the local folder (`LocalScanner.scan(root:folder:)`), the
/// records of the folder (`StateStore.records(device:folder:)`, with the downloads a killed
/// run placed, `PlacedDownloads`), the precise times (`PreciseTimes`) and the move evidence
/// (`MoveEvidenceCheck`).
///
/// What the local scans tell beside their entries is collected for the report; the identities
/// of the files are kept for the folder being planned and its ancestors only (`identity(of:)`).
final class DeviceWalkSource: PullWalkSource {
    private let job: DeviceJob
    private let store: StateStore?
    private let remote: ResilientRemote
    private let listings: RemoteWalk
    private let scanner: LocalScanner
    /// Whether the device's local folder exists (a first pull: it does not, and is empty).
    private let localExists: Bool
    /// The device's interrupted downloads as stored, by path (all of them: they are few).
    let stored: [RelativePath: PartialTransfer]
    private let lastSync: Date?
    private let now: Date
    /// The local scans' notes, skipped names, leftovers and unreadable folders.
    private(set) var notes: [String] = []
    private(set) var skipped: [SkippedEntry] = []
    private(set) var leftovers: [RelativePath] = []
    private(set) var unreadable: [RelativePath: String] = [:]
    /// File identities and records of the folders read that are the last one or above it.
    private var identities: [RelativePath: PathTable<FileIdentity>] = [:]
    private var folderRecords: [RelativePath: RecordTable] = [:]

    /// - Parameters:
    ///   - excludes: the device's excludes, for the local scans.
    ///   - now: the current time (UTC), for `PreciseTimes`.
    /// - Throws: `StoreError` when the state cannot be read; `LocalFileError` when the local
    ///   folder cannot be examined.
    init(
        job: DeviceJob, store: StateStore?, remote: ResilientRemote, listings: RemoteWalk, excludes: FilterRules,
        now: Date
    ) throws {
        self.job = job
        self.store = store
        self.remote = remote
        self.listings = listings
        self.now = now
        scanner = LocalScanner(excludes: excludes, skipsStateFolder: false)
        localExists = try LocalFileSystem().status(at: job.paths.deviceRoot) != nil
        stored = try store?.partialTransfers(device: job.name) ?? [:]
        lastSync = try? store?.lastSync(device: job.name)
    }

    func listing(of folder: RelativePath) throws -> FolderListing {
        try listings.listing(of: folder)
    }

    func localFolder(_ folder: RelativePath) throws -> Snapshot {
        guard localExists else { return Snapshot([]) }
        let scan = try scanner.scan(root: job.paths.deviceRoot, folder: folder)
        notes += scan.notes
        skipped += scan.skipped
        leftovers += scan.leftovers
        unreadable.merge(scan.unreadable) { first, _ in first }
        identities = identities.filter { $0.key == folder || $0.key.isAncestor(of: folder) }
        identities[folder] = scan.identities
        return scan.snapshot
    }

    /// The identity the scan saw of the local file at `path` and the record of `path`, while
    /// its folder is the one being planned (or above it).
    func seen(_ path: RelativePath) -> (FileIdentity?, FileRecord?) {
        (identities[path.parent]?[path], folderRecords[path.parent]?[path])
    }

    func records(in folder: RelativePath, local: Snapshot) throws -> RecordTable {
        guard let store else { return RecordTable() }
        var records = try store.records(device: job.name, folder: folder)
        let partials = stored.filter { $0.key.parent == folder }
        if !partials.isEmpty {
            let placed = PlacedDownloads.records(partials: partials, local: local, records: records)
            // Placed files are recorded before planning (a dry run only plans with them).
            if !placed.isEmpty && !job.dryRun { try store.upsertRecords(placed, device: job.name) }
            // The table keeps the last record of a path: the placed one.
            if !placed.isEmpty { records = RecordTable(Array(records) + placed) }
        }
        folderRecords = folderRecords.filter { $0.key == folder || $0.key.isAncestor(of: folder) }
        folderRecords[folder] = records
        return records
    }

    func recordFolders(in folder: RelativePath) throws -> [RelativePath] {
        try store?.recordFolders(device: job.name, in: folder) ?? []
    }

    func hasRecords(below folder: RelativePath) throws -> Bool {
        try store?.hasRecords(device: job.name, below: folder) ?? false
    }

    func hasRecord(remoteSize size: UInt64, matching time: FileTime) throws -> Bool {
        try store?.hasRecord(device: job.name, remoteSize: size, matching: time) ?? false
    }

    func refined(_ listing: Snapshot, records: RecordTable) throws -> Snapshot {
        try PreciseTimes.resolve(
            listing, remote: remote, root: job.remoteRoot, records: records, lastSync: lastSync, now: now,
            cancellation: job.cancellation)
    }

    func evidence(for candidates: [MoveCandidate]) -> MoveEvidence {
        MoveEvidenceCheck(remote: remote, job: job).check(candidates)
    }
}
