// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// Carries out the actions of a pull plan one at a time over one remote session.
final class PullExecutor: ActionExecutor {
    let job: DeviceJob
    let store: StateStore?
    let remote: RemoteFileSystem
    /// When this run started (UTC), for the names of conflict copies.
    let runStarted: Date
    /// The device's local roots, when the plan's scan began and the conflict copies made.
    let tree: PullTree
    /// Told of each action and of transfer progress; nil for none.
    let events: SyncEventHandler?
    /// Where the records of small new files go (committed in batches); nil: each download is
    /// recorded as it finishes.
    private let batch: PullRecordBatch?
    /// The device's listing of a folder read last for the offloads (`offload`), and when.
    var relisted: (folder: RelativePath, at: Date, entries: Snapshot)?
    /// The action this connection carries out after the current one, and whether it may still
    /// start (`expect(next:mayStart:)`).
    private var upcoming: Action?
    private var upcomingMayStart: (@Sendable () -> Bool)?
    /// Opens a fresh sibling session of the device for a range of a download fetched in
    /// segments (`downloadInSegments`); nil: downloads are fetched whole.
    var openSegment: (() throws -> RemoteFileSystem)?
    /// Set once a download fetched in segments could not be trusted (a range began with the
    /// file's first bytes: the server may ignore REST): this executor's later large files are
    /// fetched whole.
    var segmentsDistrusted = false
    /// Where the last download really began, when not at its action's offset (`ActionExecutor`).
    var startedFrom: UInt64?
    /// The bytes this executor's transfers moved, whatever came of them.
    let moved: ByteTally
    /// The device's notes of the action being carried out (`takeNotes`).
    var notes: [String] = []
    /// True once this connection noted that transfers are checked by size only.
    var notedSizeOnly = false

    /// Files up to this size (bytes) arrive in one or a few reads of the data connection (its
    /// buffer is 256 KiB): a download of one killed midway leaves nothing worth resuming, so no
    /// partial row is stored before it.
    static let smallFileLimit: UInt64 = 256 * 1024

    /// Files up to this size (bytes) get their server digest asked behind their transfer,
    /// pipelined (`TransferFollowUp.hashAfter`).
    static let hashAheadLimit: UInt64 = 16 << 20

    init(
        job: DeviceJob, store: StateStore?, remote: RemoteFileSystem, runStarted: Date, tree: PullTree,
        events: SyncEventHandler? = nil, batch: PullRecordBatch? = nil, moved: ByteTally = ByteTally()
    ) {
        self.moved = moved
        self.tree = tree
        self.batch = batch
        self.events = events
        self.job = job
        self.store = store
        self.remote = remote
        self.runStarted = runStarted
    }

    /// Carries out `action` (index `id` in the plan, for progress).
    /// - Returns: the bytes received.
    /// - Throws: why it failed; it fails this action only.
    func carryOut(_ action: Action, id: Int) throws -> UInt64 {
        startedFrom = nil
        switch action.kind {
        case .mkdirLocal:
            _ = try tree.folder(action.path, create: true)
        case .download:
            return try downloadChecked(action, id: id)
        case .conflict:
            try resolveConflict(action)
        case .renameLocal:
            try renameLocal(action)
        case .deleteLocal:
            try deleteLocal(action)
        case .deleteRemote:
            try offload(action)
        default:
            throw EngineError.incompleteAction("a pull does not carry out \(action.kind.rawValue)")
        }
        return 0
    }

    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    /// Commits the records of small downloads waiting in the batch.
    func flush() { batch?.flush() }

    func expect(next: Action?, mayStart: (@Sendable () -> Bool)?) {
        upcoming = next
        upcomingMayStart = mayStart
    }

    /// Announces what follows the download of `action` right before it starts (its RETR is the
    /// next one sent): a SIZE when the file may still be written (`confirmStableSize` then asks
    /// it without a round trip), and the next download when this connection's next action is a
    /// download from byte 0.
    func announceFollowUp(_ action: Action, source: SnapshotEntry, from offset: UInt64) {
        var followUp = TransferFollowUp(sizeAfter: source.size != nil && mayStillBeWritten(action, source: source))
        // The digest of a small file is asked behind its transfer; a large one takes the server
        // longer to hash than a reply sent ahead may wait.
        followUp.hashAfter = job.verify != .off && (source.size ?? .max) <= Self.hashAheadLimit
        followUp.expectedBytes = source.size.map { $0 >= offset ? $0 - offset : 0 }
        if let next = upcoming, next.kind == .download, next.offset == 0,
            !tree.conflicted.contains(next.path)
        {
            followUp.next = remotePath(root: job.remoteRoot, relative: next.path.string)
            // Not once a cap was reached or a stop asked for: that download will not be made.
            // Asked when its commands would go out: a yes makes it a started transfer.
            let (caps, cancellation, mayStart) = (job.caps, job.cancellation, upcomingMayStart)
            followUp.nextStillWanted = {
                !cancellation.isCancelled && (mayStart?() ?? (caps?.reached == nil))
            }
        }
        remote.announce(followUp)
    }

    /// Nothing is left for the end of a pull's connection.
    func finish() {}

    /// Records a pair found already in sync (first run, lost state).
    func adopt(_ adoption: Adoption) {
        guard let store, let localTime = adoption.local.modified, let size = adoption.local.size else { return }
        let record = FileRecord(
            path: adoption.remote.path, remoteSize: adoption.remote.size, remoteModified: adoption.remote.modified,
            localSize: size, localModified: localTime, digest: adoption.local.digest)
        try? store.upsertRecord(record, device: job.name)
    }

    /// Downloads `action`'s file, sets its time, puts it in place and records it.
    ///
    /// A small file (at most `smallFileLimit`, not resumed) is written with no name in its own
    /// folder and linked in when whole (`receiveInPlace`); where the file system cannot do that,
    /// and for every other file, the bytes go to its partial under `.ftpsync/`, renamed into
    /// place. A large file (over `smallFileLimit`, or one being resumed) gets a partial row
    /// before the first byte (so a later run resumes with REST), an `fsync` before the rename,
    /// and its record committed right after. A small file stores no partial row; when it had no
    /// record and a batch is in use, it is not synced on its own and its record joins the batch
    /// (see `PullRecordBatch` for what a crash leaves then).
    ///
    /// A download that follows a conflict copy is not done when that copy was not made; one
    /// whose local file changed since the plan is placed beside it (see `place`).
    func downloadOnce(_ action: Action, id: Int) throws -> UInt64 {
        guard let source = action.source else { throw EngineError.incompleteAction("download without its entry") }
        if tree.conflicted.contains(action.path) {
            switch tree.conflict(action.path) {
            case .some(.none): break
            case .some(.some(let cause)):
                throw EngineError.conflictCopyFailed(path: action.path.string, cause: cause)
            case .none:
                throw EngineError.conflictCopyFailed(path: action.path.string, cause: "it was not made")
            }
        }
        if fetchesInSegments(action, source: source), let size = source.size {
            do {
                return try downloadInSegments(action, source: source, size: size, id: id)
            } catch EngineError.rangeStartsLikeTheFile {
                // Its partial is gone: fetched whole from byte 0 below, the ranges no more.
                segmentsDistrusted = true
            }
        }
        let small = action.offset == 0 && (source.size ?? .max) <= Self.smallFileLimit
        let batched = small && batch != nil && action.record == nil
        if small, let received = try receiveInPlace(action, source: source, id: id, sync: !batched) {
            return try record(action, source: source, received, batched: batched)
        }
        let partialPath = job.paths.partial(action.path)
        let partials = try tree.partialFolder()
        let partialName = LocalPaths.partialName(action.path)
        if !small {
            let partial = PartialTransfer(
                path: action.path, remoteSize: source.size, remoteModified: source.modified, bytesDone: action.offset)
            try store?.setPartial(StoredPartial(transfer: partial, tempName: partialPath), device: job.name)
        }
        var transfer: Received
        // A device file of the same size and time can still be another file (a card formatted and
        // filled again): the bytes kept are resumed only when their last few match the device's.
        let offset = action.offset > 0 && resumeMatches(action, partialPath: partialPath) ? action.offset : 0
        if offset != action.offset {
            startedFrom = offset
            notes.append(
                "\(action.path): the \(action.offset) bytes kept from an earlier run are not confirmed the device"
                    + " file's (its hash of them, or their last bytes read back, differ): fetched from the start")
        }
        do {
            transfer = try receive(
                action, source: source, into: (partials, partialName), from: offset, id: id, sync: !batched)
        } catch FTPError.reply(let code, _, let command)
            where offset > 0 && command.hasPrefix("REST")
            && (500..<600).contains(code)
        {
            // The server cannot resume (no REST): start over from the first byte.
            startedFrom = 0
            transfer = try receive(
                action, source: source, into: (partials, partialName), from: 0, id: id, sync: !batched)
        }
        // A short transfer of a file whose size changed is held; a short one of a file that
        // kept its size (a cut data connection) resumes.
        try confirmStableSize(action, source: source, partial: (partials, partialName))
        if let expected = source.size, transfer.size != expected {
            throw EngineError.shortTransfer(
                path: action.path.string, received: transfer.size, expected: expected, resumes: true)
        }
        do {
            transfer.serverDigest = try verifyDownload(
                action, size: transfer.size, streamed: transfer.check,
                file: { try LocalFileReader(path: partialPath, followingSymlink: false) })
        } catch let error as EngineError where error.isHashMismatch {
            // Not the device's bytes: fetched again from byte 0, the partial no help.
            _ = try? partials.removeFile(partialName)
            try? store?.removePartial(path: action.path, device: job.name)
            throw error
        }
        do {
            if let copied = try place(.partial(partials, partialName), for: action) {
                // Copied across file systems: a new inode, whose times the copy may not keep.
                transfer.identity = copied
            }
        } catch let error as EngineError {
            // Placed beside the local file: the partial is gone, the record stays as it was.
            try? store?.removePartial(path: action.path, device: job.name)
            throw error
        }
        return try record(action, source: source, transfer, batched: batched)
    }

    /// Whether the last bytes (up to `resumeCheckSpan`, and up to `within`) `partial` holds
    /// before byte `end` are the device file's at `path` (REST + a short RETR); false when they
    /// differ or either side cannot be read.
    func keptBytesMatch(_ partial: LocalFileReader, before end: UInt64, within: UInt64, remote path: String) -> Bool {
        let count = Int(min(within, end, UInt64(Self.resumeCheckSpan)))
        let start = end - UInt64(count)
        guard let kept = try? partial.read(from: start, count: count), kept.count == count else { return false }
        return (try? remote.readRange(path, from: start, count: count)) == kept
    }

    /// Records a finished download: into the batch, or committed at once (removing its partial row).
    /// - Returns: the bytes received.
    private func record(_ action: Action, source: SnapshotEntry, _ transfer: Received, batched: Bool) throws
        -> UInt64
    {
        var record = FileRecord(
            path: action.path, remoteSize: source.size, remoteModified: source.modified,
            localSize: transfer.identity.size, localModified: transfer.identity.modified, digest: transfer.digest)
        record.serverDigest = transfer.serverDigest
        if batched, let batch {
            batch.add(record)
        } else {
            try store?.transaction {
                try store?.upsertRecord(record, device: job.name)
                try store?.removePartial(path: action.path, device: job.name)
            }
        }
        return transfer.received
    }

    /// Downloads a small file into a file with no name in its final folder (`O_TMPFILE`) and
    /// links it in under its final name when whole: no partial under `.ftpsync/`, no rename
    /// across folders, and a kill leaves nothing behind.
    /// - Returns: nil when the file system cannot make such a file (the caller uses a partial).
    /// - Throws: transfer and local errors; the unnamed file is gone then.
    private func receiveInPlace(_ action: Action, source: SnapshotEntry, id: Int, sync: Bool) throws -> Received? {
        let folder = try tree.folder(action.path.parent, create: true)
        guard let writer = PartialFileWriter.anonymous(in: folder, name: action.path.name) else { return nil }
        defer { try? writer.close(sync: false) }
        let hasher = try XXH3Hasher()
        let check = streamingHasher()
        let meter = transferMeter(id: id, start: 0, total: source.size)
        announceFollowUp(action, source: source, from: 0)
        let received = try remote.retrieve(remotePath(root: job.remoteRoot, relative: action.path.string), from: 0) {
            chunk in
            if let expected = source.size, Saturating.add(writer.size, UInt64(chunk.count)) > expected {
                throw EngineError.longerThanListed(path: action.path.string, listed: expected)
            }
            try writer.write(chunk)
            hasher.update(chunk)
            check?.update(chunk)
            meter?.add(chunk.count)
        }
        try confirmStableSize(action, source: source)
        if let expected = source.size, writer.size != expected {
            // Nothing is kept: a small file is fetched whole by the next run.
            throw EngineError.shortTransfer(
                path: action.path.string, received: writer.size, expected: expected, resumes: false)
        }
        // Read back (when the server's digest came in another algorithm) through the file's
        // descriptor: it has no name yet.
        let serverDigest = try verifyDownload(
            action, size: writer.size, streamed: check,
            file: { try LocalFileReader(path: "/proc/self/fd/\(writer.descriptor)") })
        if let time = source.modified { try writer.setModificationTime(time) }
        let identity = try writer.identity()
        if sync { try writer.sync() }
        _ = try place(.anonymous(writer), for: action)
        return Received(received: received, digest: hasher.finalize(), identity: identity, serverDigest: serverDigest)
    }

    /// What `receive` got: bytes received, the digest and identity (size, time) of the whole file.
    struct Received {
        var received: UInt64
        var digest: String
        var identity: FileIdentity
        /// The server's digest of the file, once checked (`verifyDownload`), as recorded.
        var serverDigest: String?
        /// The whole file's bytes hashed by the server's algorithm, when known (`streamingHasher`).
        var check: ContentHasher?
        var size: UInt64 { identity.size }
    }

    /// Downloads `action`'s file into the partial `name` of `folder` from byte `offset`,
    /// hashing as it writes (the bytes already there first). Never accepts more than the
    /// listed size: a file that grows while it is read is dropped, to be fetched whole by a
    /// later run. When the file is complete it gets the listed modification time; `sync` makes
    /// it durable (`fsync`) before it is closed.
    private func receive(
        _ action: Action, source: SnapshotEntry, into partial: (folder: TreeFolder, name: String), from offset: UInt64,
        id: Int, sync: Bool
    ) throws -> Received {
        let hasher = try XXH3Hasher()
        let check = streamingHasher()
        if offset > 0 {
            let kept = try LocalFileReader(path: partial.folder.shown(partial.name), followingSymlink: false)
            try kept.forEachChunk(upTo: offset) {
                hasher.update($0)
                check?.update($0)
            }
        }
        let writer = try partial.folder.openPartial(partial.name, offset: offset)
        let meter = transferMeter(id: id, start: offset, total: source.size)
        let received: UInt64
        let identity: FileIdentity
        do {
            announceFollowUp(action, source: source, from: offset)
            received = try remote.retrieve(remotePath(root: job.remoteRoot, relative: action.path.string), from: offset)
            { chunk in
                if let expected = source.size, Saturating.add(writer.size, UInt64(chunk.count)) > expected {
                    throw EngineError.longerThanListed(path: action.path.string, listed: expected)
                }
                try writer.write(chunk)
                hasher.update(chunk)
                check?.update(chunk)
                meter?.add(chunk.count)
            }
            if let time = source.modified, writer.size == source.size ?? writer.size {
                try writer.setModificationTime(time)
            }
            identity = try writer.identity()
            try writer.close(sync: sync)
        } catch let error as EngineError {
            try? writer.close()
            _ = try? partial.folder.removeFile(partial.name)
            try? store?.removePartial(path: action.path, device: job.name)
            throw error
        } catch {
            try? writer.close()
            if let local = error as? LocalFileError, local.isNoSpace {
                // A full disk: the bytes so far would only keep the other files from fitting.
                _ = try? partial.folder.removeFile(partial.name)
                try? store?.removePartial(path: action.path, device: job.name)
            }
            throw error
        }
        return Received(received: received, digest: hasher.finalize(), identity: identity, check: check)
    }
}
