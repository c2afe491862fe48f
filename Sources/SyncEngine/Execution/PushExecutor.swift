// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// Carries out the actions of a push plan one at a time over one remote session.
///
/// An upload goes to `.NAME.ftpsync-part` beside its target and is renamed into place when
/// complete, so the device never shows a half file. The record written for it holds what the
/// server lists afterwards (`finishRecords()` re-lists the folders touched), so the next run
/// sees no change whatever the server's clock, zone or listing precision.
final class PushExecutor: ActionExecutor {
    let job: DeviceJob
    private let store: StateStore?
    let remote: RemoteFileSystem
    /// Hashes new files while they upload (or when adopted).
    private let deferred: DeferredDigests
    /// The time the upload under way sets on its temporary, sent behind its data (`send`).
    private var uploadTime: Date?
    /// Where the last upload really began, when not at its action's offset (`ActionExecutor`).
    var startedFrom: UInt64?
    /// The bytes this executor's transfers moved, whatever came of them.
    let moved: ByteTally
    /// The device's notes of the action being carried out (`takeNotes`).
    var notes: [String] = []
    /// True once this connection noted that transfers are checked by size only.
    var notedSizeOnly = false
    /// Times an upload whose temporary's digest differs from the local file's is sent in all.
    static let hashAttempts = 3
    /// Records of the files uploaded or renamed this run, awaiting their folder's listing,
    /// shared by the device's connections (`UploadRelist`).
    let relist: UploadRelist
    /// Records kept for `finishRecords` before it runs on its own (`UploadRelist.limit`).
    static let relistLimit = UploadRelist.limit
    /// Told of each action and of transfer progress; nil for none.
    let events: SyncEventHandler?
    /// The time source (UTC) for the upload intents.
    private let clock: () -> Date
    /// The device-side conflict copies of the run (`keep-both`), shared by its workers.
    let conflicts: RemoteConflictCopies
    /// What this run learnt of the device's RNTO, shared by the push's connections.
    let quirks: DeviceQuirks

    init(
        job: DeviceJob, store: StateStore?, remote: RemoteFileSystem, deferred: DeferredDigests = DeferredDigests(),
        events: SyncEventHandler? = nil,
        clock: @escaping () -> Date = Date.init,
        conflicts: RemoteConflictCopies = RemoteConflictCopies(runStarted: Date()),
        quirks: DeviceQuirks = DeviceQuirks(), relist: UploadRelist = UploadRelist(), moved: ByteTally = ByteTally()
    ) {
        self.moved = moved
        self.relist = relist
        self.quirks = quirks
        self.clock = clock
        self.conflicts = conflicts
        self.events = events
        self.deferred = deferred
        self.job = job
        self.store = store
        self.remote = remote
    }

    /// Carries out `action` (index `id` in the plan, for progress).
    /// - Returns: the bytes sent.
    /// - Throws: why it failed; it fails this action only.
    func carryOut(_ action: Action, id: Int) throws -> UInt64 {
        startedFrom = nil
        switch action.kind {
        case .mkdirRemote:
            try remote.makeDirectory(absolute(action.path))
        case .upload:
            return try upload(action, id: id)
        case .renameRemote:
            try rename(action)
        case .deleteRemote:
            try delete(action)
        case .conflict:
            try resolveConflict(action)
        default:
            throw EngineError.incompleteAction("a push does not carry out \(action.kind.rawValue)")
        }
        return 0
    }

    /// A push keeps nothing pending between actions: each upload is recorded as it finishes.
    func flush() {}

    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    /// Re-lists the folders that received files (`finishRecords`).
    func finish() { finishRecords() }

    /// Records a pair found already in sync.
    func adopt(_ adoption: Adoption) {
        guard let localTime = adoption.local.modified, let size = adoption.local.size else { return }
        let record = FileRecord(
            path: adoption.local.path, remoteSize: adoption.remote.size, remoteModified: adoption.remote.modified,
            localSize: size, localModified: localTime,
            digest: adoption.local.digest ?? deferred.digestNow(adoption.local, store: store))
        try? store?.upsertRecord(record, device: job.name)
    }

    private func absolute(_ path: RelativePath) -> String {
        remotePath(root: job.remoteRoot, relative: path.string)
    }

    private func upload(_ action: Action, id: Int) throws -> UInt64 {
        guard let source = action.source, let size = source.size, let localTime = source.modified else {
            throw EngineError.incompleteAction("upload without its entry")
        }
        if action.resolution == .keepBoth { try conflicts.requireSetAside(action.path) }
        let localPath = job.paths.file(action.path)
        let target = absolute(action.path)
        let temporary = absolute(UploadNaming.temporaryPath(for: action.path))
        let partial = StoredPartial(
            transfer: PartialTransfer(
                path: action.path, remoteSize: nil, remoteModified: nil, bytesDone: action.offset),
            direction: .push, tempName: temporary, localSize: size, localModified: localTime)
        try store?.setPartial(partial, device: job.name)

        // Any write to the file moves its status-change time (ctime), even when its modification
        // time is put back afterwards.
        let before = LocalFileStamp(localPath)
        // A new file's digest is made while it uploads, on a thread of its own.
        let hashing = source.digest == nil ? deferred.start(action.path, seen: action.seen) : nil
        // Where resumed uploads came out wrong before, every upload starts from byte 0; and so
        // does one whose temporary's bytes are not the local file's (the server's hash of them).
        var offset = quirks.resumeIsWrong ? 0 : action.offset
        if offset > 0, temporaryMatches(temporary, count: offset, localPath: localPath) == false { offset = 0 }
        startedFrom = offset == action.offset ? nil : offset
        uploadTime = Self.timeToSet(localTime)
        defer { uploadTime = nil }
        var (sent, resumedAt) = try sendRetrying(localPath, to: temporary, offset: offset, id: id, size: size)
        let digest = source.digest ?? hashing?.wait()
        // The file must still be what was planned, untouched while it was sent and hashed, else
        // the device would get a mix of two versions (or the record a digest of other bytes):
        // left under its temporary name, sent again by the next run.
        if let now = LocalFileStamp(localPath), now.size != size || now.modified != localTime || now != before {
            // Nothing of this upload may be resumed: its bytes may come from two versions.
            try? store?.removePartial(path: action.path, device: job.name, direction: .push)
            try? remote.delete(temporary)
            throw EngineError.changedWhileSent(path: action.path.string)
        }
        var serverDigest: String?
        do {
            var resumes = (offset > 0 ? [offset] : []) + resumedAt
            var tries = 1
            while true {
                do {
                    serverDigest = try verifyTemporary(
                        temporary, path: action.path, size: size, local: localPath, resumedAt: resumes)
                    break
                } catch let error as EngineError
                    where error.isUploadCheck && !error.isStillWriting && tries < Self.hashAttempts
                    && (resumes.contains { $0 > 0 } || error.isHashMismatch)
                {
                    if resumes.contains(where: { $0 > 0 }) {
                        // A resume came out wrong (the server kept only the tail, appended
                        // elsewhere, zero-filled): remembered for the device, and the file sent
                        // whole (issue 14 item 9).
                        try? store?.setResumeQuirk(
                            "resumed upload of \(action.path) came out wrong: \(error)", device: job.name)
                        quirks.learnResumeIsWrong()
                    } else {
                        // Other bytes arrived than were sent (a link that flipped a bit): again.
                        notes.append("\(error.description.prefix { $0 != ";" }); sent again")
                    }
                    tries += 1
                    startedFrom = 0
                    let again = try sendRetrying(localPath, to: temporary, offset: 0, id: id, size: size)
                    sent = Saturating.add(sent, again.sent)
                    resumes = again.resumedAt
                    // A session may answer from the digests it computed before (ProFTPD keeps
                    // them by path and time, and the copy sent again has both): asked afresh.
                    if error.isHashMismatch { remote.startAfresh() }
                }
            }
        } catch let error as EngineError where error.isUploadCheck {
            // A temporary holding more than the file, or other bytes, is no base to resume.
            var resumable = false
            if case .uploadWrongSize(_, let held, _) = error { resumable = held < size }
            if !resumable {
                try? store?.removePartial(path: action.path, device: job.name, direction: .push)
                try? remote.delete(temporary)
            }
            throw error
        }
        if job.policy.direction == .sync, action.resolution == nil {
            try confirmTarget(target, path: action.path, expected: action.destination)
        }
        let whole = Self.timeToSet(localTime)
        // What is about to be placed, stored before RNTO: should the run end between RNTO and
        // the record, the next run finds the device's file to be ours (`UploadReconciler`).
        let intent = UploadIntent(
            path: action.path, temporaryName: temporary, localSize: size, localModified: localTime, digest: digest,
            sentSize: size, timeToSet: whole, stored: clock())
        try store?.setUploadIntent(intent, device: job.name)
        // The time goes on the checked temporary (asked behind the upload: no round trip more)
        // and stays through the rename; the listing read at the end is what is recorded.
        var timeSet = (try? remote.setModificationTime(temporary, whole)) != nil
        do {
            try place(temporary, at: target, path: action.path, size: size)
        } catch let error as FTPError where error.isRefusal {
            // Refused: nothing was placed. (A timeout may have renamed it: the intent stays.)
            try? store?.removeUploadIntent(path: action.path, device: job.name)
            throw error
        } catch let error as EngineError where error.isPlacement {
            // Not placed; the temporary and its partial row stay, so the next run completes it.
            try? store?.removeUploadIntent(path: action.path, device: job.name)
            throw error
        }
        // MFMT, else MDTM with two arguments; when both are refused the listed time is recorded.
        if !timeSet { timeSet = (try? remote.setModificationTime(target, whole)) != nil }
        var record = FileRecord(
            path: action.path, remoteSize: size,
            remoteModified: timeSet ? FileTime(date: whole, granularity: .second) : nil, localSize: size,
            localModified: localTime, digest: digest)
        record.serverDigest = serverDigest
        if hashing != nil, let digest = record.digest, let seen = action.seen {
            deferred.remember(digest, of: action.path, seen: seen, in: store)
        }
        try store?.transaction {
            try store?.upsertRecord(record, device: job.name)
            try store?.removePartial(path: action.path, device: job.name, direction: .push)
        }
        awaitListing(record)
        return sent
    }

    /// The time an upload of a file modified at `localTime` gets on the device: its whole
    /// seconds (MFMT and MDTM take no fraction).
    static func timeToSet(_ localTime: FileTime) -> Date {
        Date(timeIntervalSince1970: localTime.seconds.rounded(.down))
    }

    /// Sends the local file from `offset`: APPE when resuming, else REST + STOR, else from the
    /// start when the server refuses both.
    func send(_ localPath: String, to temporary: String, offset: UInt64, id: Int, size: UInt64) throws -> UInt64 {
        func attempt(from start: UInt64, append: Bool) throws -> UInt64 {
            let reader = try LocalFileReader(path: localPath)
            let meter = transferMeter(id: id, start: start, total: size)
            // Never more than the planned size: a file that grows meanwhile is caught below.
            // The temporary's SIZE (its check before RNTO) and its time go out behind the upload.
            var followUp = TransferFollowUp(
                sizeAfter: true, setTime: uploadTime, expectedBytes: size > start ? size - start : 0)
            // The temporary's digest too, for a small file (`verifyTemporary`): decided first how
            // the session asks for it, so that its command can go out behind the upload.
            if job.verify != .off, size <= PullExecutor.hashAheadLimit, (try? remote.fileHashAlgorithm()) != nil {
                followUp.hashAfter = true
            }
            remote.announce(followUp)
            return try remote.store(
                temporary, from: append ? 0 : start, append: append, source: reader, sourceOffset: start,
                length: size > start ? size - start : 0
            ) { count in meter?.add(count) }
        }
        guard offset > 0 else { return try attempt(from: 0, append: false) }
        do {
            return try attempt(from: offset, append: true)
        } catch let error as FTPError where error.isRefusal {
            do {
                return try attempt(from: offset, append: false)
            } catch let error as FTPError where error.isRefusal {
                startedFrom = 0
                return try attempt(from: 0, append: false)
            }
        }
    }

    private func rename(_ action: Action) throws {
        guard let to = action.to, let source = action.source else {
            throw EngineError.incompleteAction("rename without its target")
        }
        try remote.rename(from: absolute(action.path), to: absolute(to))
        guard let old = action.record, let size = source.size, let time = source.modified else { return }
        let moved = FileRecord(
            path: to, remoteSize: old.remoteSize, remoteModified: old.remoteModified, localSize: size,
            localModified: time, digest: source.digest ?? old.digest)
        try store?.transaction {
            try store?.upsertRecord(moved, device: job.name)
            try store?.deleteRecord(path: action.path, device: job.name)
        }
        awaitListing(moved)
    }

    private func delete(_ action: Action) throws {
        if action.source?.kind == .directory {
            try remote.removeDirectory(absolute(action.path))
        } else {
            try remote.delete(absolute(action.path))
        }
        try store?.deleteRecord(path: action.path, device: job.name)
    }

    /// Keeps `record` (of a file just placed) for `finishRecords`, which runs once
    /// `relistLimit` records wait.
    private func awaitListing(_ record: FileRecord) {
        if relist.add(record) { finishRecords(all: false) }
    }

    /// Lists each folder that received files since it was last listed (by any of the device's
    /// connections) once and records the size and time the server lists for them. A folder
    /// that cannot be listed keeps the provisional records.
    /// - Parameter all: list every folder with records waiting (the end of the run), or only
    ///   those `UploadRelist.take(all:)` gives before.
    /// The MDTM times (UTC) of the files of `records`, whose listing gave only minutes: a
    /// record to the minute could not tell a change of the same size made later in that minute
    /// (`ListingPrecision`). None when the server has no MDTM.
    private func preciseTimes(of records: [FileRecord]) -> [RelativePath: Date] {
        guard !records.isEmpty,
            let answers = try? remote.preciseModificationTimes(records.map { absolute($0.path) })
        else { return [:] }
        var times: [RelativePath: Date] = [:]
        for (record, answer) in zip(records, answers) {
            if case .success(let date) = answer { times[record.path] = date }
        }
        return times
    }

    func finishRecords(all: Bool = true) {
        for (folder, placed) in relist.take(all: all) {
            guard let listing = try? remote.list(absolute(folder)) else { continue }
            relist.listed(folder, entries: listing.entries.count)
            // Only the names waiting are kept of the listing.
            let wanted = Set(placed.map(\.path.name))
            var byName: [String: ListingEntry] = [:]
            for entry in listing.entries where wanted.contains(entry.name) { byName[entry.name] = entry }
            let precise = preciseTimes(
                of: placed.filter { byName[$0.path.name]?.modified.map(FileTime.init(listed:))?.granularity == .minute }
            )
            for var record in placed {
                let path = record.path
                guard let entry = byName[path.name], entry.type == .file else { continue }
                if entry.sizeIsExact, let size = entry.size { record.remoteSize = size }
                record.remoteModified = entry.modified.map(FileTime.init(listed:))
                if let listed = record.remoteModified, let answer = precise[path] {
                    record.remoteModified = ListingPrecision.refined(listed, answer: answer)
                }
                // The record is final now: the upload's intent has done its work.
                try? store?.transaction {
                    try store?.upsertRecord(record, device: job.name)
                    try store?.removeUploadIntent(path: path, device: job.name)
                }
            }
        }
    }
}
