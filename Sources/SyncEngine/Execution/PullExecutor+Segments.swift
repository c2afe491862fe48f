// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncCore
import SyncStore
import Synchronization

/// Downloads fetched in segments (issue 20, `segments`): a file of at least
/// `job.segmentThreshold` bytes is cut into `job.segments` ranges (`ByteSegment`), each fetched
/// over its own connection at once — the executor's own and fresh sibling sessions — with REST
/// and a RETR cut once its range is in (the data connection closed), and written at its offset
/// into one partial file. The ranges and how far each got are kept in the partial's row, so a
/// kill, a cut connection or a failed range resumes each range where it stopped. The whole file
/// is hashed (and checked against the server's hash when it offers one) before it is placed.
extension PullExecutor {
    /// The partial file name of a download fetched in segments (beside the whole-file partials,
    /// under another name: a resume of it as one run from the start would take the holes for data).
    static func segmentedName(_ path: RelativePath) -> String { LocalPaths.partialName(path) + ".seg" }

    /// True when `action` is fetched in segments: from the start, large enough, and either
    /// sibling sessions can be opened or an earlier run kept ranges of it (those go on in
    /// segments whatever `segments` is now, over this connection alone when no sibling can be
    /// opened, rather than being fetched again from byte 0).
    func fetchesInSegments(_ action: Action, source: SnapshotEntry) -> Bool {
        guard !segmentsDistrusted, action.offset == 0, let size = source.size, size >= job.segmentThreshold
        else { return false }
        if openSegment != nil { return true }
        return (try? store?.partials(device: job.name))?[action.path]?.segments != nil
    }

    /// Downloads `action`'s file of `size` bytes in segments, places and records it.
    /// - Returns: the bytes received in this run.
    /// - Throws: the first failure of a range (the partial and its ranges are kept: the next run
    ///   resumes them), `EngineError.segmentsDiffer` when the server's hash does not match (the
    ///   partial is dropped), local errors.
    func downloadInSegments(_ action: Action, source: SnapshotEntry, size: UInt64, id: Int) throws -> UInt64 {
        let partials = try tree.partialFolder()
        let name = Self.segmentedName(action.path)
        let path = remotePath(root: job.remoteRoot, relative: action.path.string)
        // A fresh download starts as one range: the first connection fetches from byte 0 at
        // once, and each other one, once logged in, takes half of what is left of the largest
        // range (`SegmentProgress.split`), so none waits for the slowest to start.
        var segments = resumableSegments(action, source: source, size: size, in: partials, name: name)
        // The bytes kept must still be the device file's: a card formatted and filled again, a
        // file rewritten in place, keep size and time (and a server may ignore REST now).
        if let kept = segments, !keptBytesMatch(kept, file: partials.shown(name), path: path) { segments = nil }
        let fresh = segments == nil
        if fresh { segments = [ByteSegment(start: 0, end: size)] }
        guard var segments else { throw EngineError.incompleteAction("no segments") }
        let partial = PartialTransfer(
            path: action.path, remoteSize: source.size, remoteModified: source.modified, bytesDone: 0)
        var stored = StoredPartial(transfer: partial, tempName: partials.shown(name))
        stored.segments = ByteSegment.encode(segments)
        try store?.setPartial(stored, device: job.name)
        let writer = try PartialFileWriter.segmented(in: partials, name: name, fresh: fresh)
        defer { try? writer.close(sync: false) }
        let already = segments.reduce(0) { $0 + $1.done }
        // Resumed: the report's offset is what the ranges held (its action's is 0).
        if already > 0 { startedFrom = already }
        let progress = SegmentProgress(
            segments: segments, meter: transferMeter(id: id, start: already, total: size),
            save: { [store, job] text, done in
                // The ranges claim only bytes made durable first: a crash cannot leave holes
                // the row calls data.
                guard (try? writer.sync()) != nil else { return }
                _ = try? store?.updatePartialSegments(
                    path: action.path, device: job.name, segments: text, bytesDone: done)
            })
        let fetch = SegmentFetch(path: path, writer: writer, progress: progress, first: remote, open: openSegment)
        let failures = fetch.run(
            ranges: segments.indices.filter { segments[$0].left > 0 },
            connections: 1 + (openSegment == nil ? 0 : job.segmentSiblings))
        // The sibling sessions end (QUIT, a round trip) while the file is checked and placed.
        defer { fetch.waitForSiblingsToClose() }
        segments = progress.current
        if let failure = failures.first {
            // Cut (a run cap's grace, a signal, a lost connection): what each range holds is
            // saved now, not only at the last checkpoint, so the next run goes on from here.
            progress.checkpointNow()
            throw failure
        }
        guard segments.allSatisfy({ $0.left == 0 }) else {
            throw EngineError.shortTransfer(
                path: action.path.string, received: segments.reduce(0) { $0 + $1.done }, expected: size, resumes: true)
        }
        // A file still being written (its size changed since the listing) is held: the ranges
        // stop at the listed size and would never see the rest.
        try confirmStableSize(action, source: source, partial: (partials, name))
        // A server that answers REST with 350 but sends from byte 0 fills every range with the
        // file's first bytes: a range that begins with them is not trusted.
        if try Self.aRangeStartsLikeTheFile(partials.shown(name), starts: segments.map(\.start)) {
            _ = try? partials.removeFile(name)
            try? store?.removePartial(path: action.path, device: job.name)
            throw EngineError.rangeStartsLikeTheFile(path: action.path.string)
        }
        try writer.sync()
        let (digest, serverDigest) = try segmentDigests(
            action, size: size, file: partials.shown(name), name: name, in: partials)
        if let time = source.modified { try writer.setModificationTime(time) }
        var identity = try writer.identity()
        try writer.close(sync: false)
        if let copied = try place(.partial(partials, name), for: action) { identity = copied }
        return try recordSegmented(
            action, source: source, digest: (digest, serverDigest), identity: identity, received: size - already)
    }

    /// Bytes compared at the start of each range with the file's first bytes.
    static let rangeCheckBytes = 4_096

    /// True when a range starting past byte 0 begins with the same `rangeCheckBytes` as the
    /// file (the partial at `file`): what a server that ignores REST sends. A file whose content
    /// repeats there (a zero-filled head and a zero-filled region) reads the same and is fetched
    /// whole too: slower, never wrong.
    /// - Throws: `LocalFileError` when the partial cannot be read.
    static func aRangeStartsLikeTheFile(_ file: String, starts: [UInt64]) throws -> Bool {
        let reader = try LocalFileReader(path: file, followingSymlink: false)
        let head = try reader.read(from: 0, count: rangeCheckBytes)
        guard !head.isEmpty else { return false }
        for start in starts where start > 0 {
            let bytes = try reader.read(from: start, count: head.count)
            if bytes.count == head.count, bytes == head { return true }
            if bytes.count < head.count, bytes == Array(head.prefix(bytes.count)) { return true }
        }
        return false
    }

    /// The ranges of an earlier run's partial of `action`, when its row has them, the device
    /// file kept its size and time, and the file is still there; nil to start over.
    private func resumableSegments(
        _ action: Action, source: SnapshotEntry, size: UInt64, in partials: TreeFolder, name: String
    ) -> [ByteSegment]? {
        guard let row = (try? store?.partials(device: job.name))?[action.path], let text = row.segments,
            row.transfer.remoteSize == source.size, let was = row.transfer.remoteModified, let now = source.modified,
            was.matches(now),
            let status = try? partials.status(name), status.kind == .file
        else { return nil }
        return ByteSegment.decode(text, size: size)
    }

    /// Whether each range's last bytes kept (up to 4 KiB before where it goes on) are the device
    /// file's own, read back with REST and a short RETR; false when one differs or either side
    /// cannot be read (the download then starts over).
    private func keptBytesMatch(_ segments: [ByteSegment], file: String, path: String) -> Bool {
        guard let partial = try? LocalFileReader(path: file, followingSymlink: false) else { return false }
        // Within its range only: a range with fewer bytes done is read from its start.
        return segments.allSatisfy { segment in
            segment.done == 0 || keptBytesMatch(partial, before: segment.next, within: segment.done, remote: path)
        }
    }

    /// Records a download fetched in segments and drops its partial row, in one transaction.
    private func recordSegmented(
        _ action: Action, source: SnapshotEntry, digest: (local: String, server: String?), identity: FileIdentity,
        received: UInt64
    ) throws -> UInt64 {
        var record = FileRecord(
            path: action.path, remoteSize: source.size, remoteModified: source.modified,
            localSize: identity.size, localModified: identity.modified, digest: digest.local)
        record.serverDigest = digest.server
        try store?.transaction {
            try store?.upsertRecord(record, device: job.name)
            try store?.removePartial(path: action.path, device: job.name)
        }
        return received
    }
}

/// The ranges of one download fetched in segments, taken by several sessions at once: the
/// first over the executor's session (on the calling thread), the others each over a sibling
/// session opened for it on a thread of its own (closed at the end); a sibling that cannot be
/// opened leaves its ranges to the others. `@unchecked Sendable`: what the threads share is the
/// queue and the failures (behind their mutexes), the writer (`pwrite` at distinct offsets) and
/// the progress (a `Sendable` class).
final class SegmentFetch: @unchecked Sendable {
    private let path: String
    private let writer: PartialFileWriter
    private let progress: SegmentProgress
    private let first: RemoteFileSystem
    private let open: (() throws -> RemoteFileSystem)?
    private let pending = Mutex<[Int]>([])
    private let failures = Mutex<[Error]>([])
    /// Left by each sibling session's thread once its session ended (`waitForSiblingsToClose`).
    private let closing = DispatchGroup()

    init(
        path: String, writer: PartialFileWriter, progress: SegmentProgress, first: RemoteFileSystem,
        open: (() throws -> RemoteFileSystem)?
    ) {
        self.path = path
        self.writer = writer
        self.progress = progress
        self.first = first
        self.open = open
    }

    /// Fetches `ranges` (indices into the progress's ranges) over `connections` sessions at
    /// once; a session with no range left to take splits the largest one still being fetched.
    /// - Returns: the failures of the ranges (none when every range is in).
    func run(ranges: [Int], connections: Int) -> [Error] {
        pending.withLock { $0 = ranges }
        let group = DispatchGroup()
        for _ in 0..<max(0, connections - 1) {
            group.enter()
            closing.enter()
            let thread = Thread { [self] in
                defer { closing.leave() }
                guard let sibling = try? open?() else { return group.leave() }
                work(over: sibling)
                // Its ranges are in: the caller goes on while the session ends.
                group.leave()
                sibling.close()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        work(over: first)
        group.wait()
        if failures.withLock({ $0.isEmpty }), pending.withLock({ !$0.isEmpty }) {
            // Ranges no session took: every sibling failed to open and the first one gave up.
            return [EngineError.incompleteAction("a segment had no connection left")]
        }
        return failures.withLock { $0 }
    }

    /// Waits until every sibling session of `run` has ended (QUIT).
    func waitForSiblingsToClose() { closing.wait() }

    /// Takes ranges from the queue over `remote`, then halves of the largest ranges still being
    /// fetched, until none is left worth splitting or the connection is gone.
    private func work(over remote: RemoteFileSystem) {
        while let index = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) ?? progress.split() {
            do {
                try fetchRange(index, over: remote)
            } catch {
                failures.withLock { $0.append(error) }
                if !remote.isConnected { return }
            }
        }
    }

    /// Fetches what is left of range `index` over `remote`: REST at its next byte, RETR, its
    /// bytes written at their offsets, the data connection cut once the range is in.
    private func fetchRange(_ index: Int, over remote: RemoteFileSystem) throws {
        let segment = progress.segment(index)
        guard segment.left > 0 else { return }
        do {
            _ = try remote.retrieve(path, from: segment.next) { chunk in
                let (offset, take) = progress.claim(index, count: chunk.count)
                if take > 0 {
                    try writer.write(UnsafeRawBufferPointer(rebasing: chunk[0..<take]), at: offset)
                    progress.wrote(index, count: take)
                }
                if progress.segment(index).left == 0 { throw SegmentDone() }
            }
        } catch is SegmentDone {
            return
        }
        let now = progress.segment(index)
        if now.left > 0 {
            throw EngineError.shortTransfer(path: path, received: now.done, expected: now.length, resumes: true)
        }
    }
}

/// Thrown by a range's sink once the range is in: the transfer is cut there.
private struct SegmentDone: Error {}

/// A session for a range that a full server refused (421): not tried again, the ranges go to
/// the sessions already open.
struct SegmentSessionRefused: Error, CustomStringConvertible {
    var cause: String
    var description: String { "no session for a range: \(cause)" }
}

/// How far each range of a download fetched in segments got, shared by the threads fetching
/// them: the bytes each may still write (never past its end, whatever the server sends), the
/// progress events, and a checkpoint of the ranges in the state every `saveEvery` bytes.
/// `@unchecked Sendable`: its state is behind a mutex, and `save` is called under another, one
/// checkpoint at a time.
final class SegmentProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var segments: [ByteSegment]
    private let meter: TransferMeter?
    private var unsaved: UInt64 = 0
    /// Numbers the checkpoints, so that an older one is never saved after a newer one.
    private var checkpoints = 0
    /// Held while a checkpoint is saved; the number of the last one saved.
    private let saving = NSLock()
    private var saved = 0
    private let save: (String, UInt64) -> Void
    /// Bytes written between checkpoints of the ranges.
    static let saveEvery: UInt64 = 8 << 20

    init(segments: [ByteSegment], meter: TransferMeter?, save: @escaping (String, UInt64) -> Void) {
        self.segments = segments
        self.meter = meter
        self.save = save
    }

    /// The ranges now.
    var current: [ByteSegment] { lock.withLock { segments } }

    /// Range `index` now.
    func segment(_ index: Int) -> ByteSegment { lock.withLock { segments[index] } }

    /// A range no session fetches yet shorter than this is not split.
    static let smallestSplit: UInt64 = 1 << 19

    /// Cuts what is left of the range with the most left in two: the range ends halfway, its
    /// second half is a new range (appended; the ranges are stored in order of their start).
    /// - Returns: the new range's index, for the caller to fetch; nil when no range has
    ///   `smallestSplit` bytes or more left to give away.
    func split() -> Int? {
        lock.withLock {
            guard let largest = segments.indices.max(by: { segments[$0].left < segments[$1].left }),
                segments[largest].left >= 2 * Self.smallestSplit
            else { return nil }
            let range = segments[largest]
            let middle = range.next + range.left / 2
            segments[largest].end = middle
            segments.append(ByteSegment(start: middle, end: range.end))
            return segments.count - 1
        }
    }

    /// Where the next `count` bytes of range `index` go, and how many of them belong to it.
    func claim(_ index: Int, count: Int) -> (offset: UInt64, take: Int) {
        lock.withLock {
            let segment = segments[index]
            return (segment.next, Int(min(UInt64(max(0, count)), segment.left)))
        }
    }

    /// Saves the ranges as they are now (once no range is being fetched any more).
    func checkpointNow() {
        let checkpoint = lock.withLock { nextCheckpoint() }
        saving.lock()
        store(checkpoint)
    }

    /// Counts `count` bytes written to range `index`; checkpoints the ranges now and then (the
    /// ranges are taken after their bytes were written, and saved in order).
    func wrote(_ index: Int, count: Int) {
        let checkpoint: Checkpoint? = lock.withLock {
            segments[index].done += UInt64(count)
            meter?.add(count)
            unsaved += UInt64(count)
            guard unsaved >= Self.saveEvery || segments[index].left == 0 else { return nil }
            return nextCheckpoint()
        }
        // A range never waits for another's checkpoint (its fsync): while one is being saved,
        // the next one covers this one's bytes.
        guard let checkpoint, saving.try() else { return }
        store(checkpoint)
    }

    /// A checkpoint: its number, the ranges encoded, the bytes they hold.
    private typealias Checkpoint = (number: Int, text: String, done: UInt64)

    /// The next checkpoint of the ranges as they are; call with `lock` held.
    private func nextCheckpoint() -> Checkpoint {
        unsaved = 0
        checkpoints += 1
        return (
            checkpoints, ByteSegment.encode(segments.sorted { $0.start < $1.start }),
            segments.reduce(0) { $0 + $1.done }
        )
    }

    /// Saves `checkpoint` unless a newer one was saved; call with `saving` held (released here).
    private func store(_ checkpoint: Checkpoint) {
        defer { saving.unlock() }
        guard checkpoint.number > saved else { return }
        save(checkpoint.text, checkpoint.done)
        saved = checkpoint.number
    }
}
