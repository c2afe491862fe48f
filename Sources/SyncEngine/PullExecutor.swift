import FTPClient
import Foundation
import LocalTree
import SyncCore
import SyncStore

/// Why a planned action could not be carried out, beyond the errors of the layers below.
public enum EngineError: Error, CustomStringConvertible {
    /// The data connection ended before the listed size arrived; the bytes so far are kept
    /// for the next run to resume.
    case shortTransfer(path: String, received: UInt64, expected: UInt64)
    /// The server sent more bytes than it listed: the file changed while being read. The bytes
    /// are dropped; the next run lists it again and starts over.
    case longerThanListed(path: String, listed: UInt64)
    /// The plan holds an action without the entry it needs (a planner bug, reported not crashed).
    case incompleteAction(String)

    public var description: String {
        switch self {
        case .shortTransfer(let path, let received, let expected):
            return "\(path): transfer ended at \(received) of \(expected) bytes; the next run resumes it"
        case .longerThanListed(let path, let listed):
            return "\(path): the server sent more than the \(listed) bytes it listed (the file is changing?); "
                + "dropped, the next run fetches it again"
        case .incompleteAction(let what): return "internal: \(what)"
        }
    }
}

/// Carries out the actions of a pull plan one at a time over one remote session.
final class PullExecutor {
    let job: DeviceJob
    private let store: StateStore?
    private let remote: RemoteFileSystem
    /// When this run started (UTC), for the names of conflict copies.
    private let runStarted: Date
    private let files = LocalFileSystem()
    /// The records of the last sync, for the paths a rename carries over.
    private let records: [RelativePath: FileRecord]
    /// Told of each action and of transfer progress; nil for none.
    let events: SyncEventHandler?

    init(
        job: DeviceJob, store: StateStore?, remote: RemoteFileSystem, runStarted: Date,
        records: [RelativePath: FileRecord] = [:], events: SyncEventHandler? = nil
    ) {
        self.events = events
        self.job = job
        self.store = store
        self.remote = remote
        self.runStarted = runStarted
        self.records = records
    }

    /// The report of one action and the bytes it moved.
    struct Outcome {
        var report: ActionReport
        var transferred: UInt64
    }

    /// Carries out `action` (index `id` in the plan, for the events); a failure fails this action only.
    func perform(_ action: Action, id: Int) -> Outcome {
        events?(.actionStarted(device: job.name, id: id, action: action))
        let outcome = carryOut(action, id: id)
        events?(.actionFinished(device: job.name, id: id, report: outcome.report))
        return outcome
    }

    private func carryOut(_ action: Action, id: Int) -> Outcome {
        do {
            var transferred: UInt64 = 0
            switch action.kind {
            case .mkdirLocal:
                try files.makeFolders(at: job.paths.file(action.path))
            case .download:
                transferred = try download(action, id: id)
            case .conflict:
                try keepConflictCopy(action)
            case .renameLocal:
                try renameLocal(action)
            case .deleteLocal:
                try deleteLocal(action)
            default:
                throw EngineError.incompleteAction("a pull does not carry out \(action.kind.rawValue)")
            }
            return Outcome(report: ActionReport(action: action, status: .done), transferred: transferred)
        } catch {
            return Outcome(report: ActionReport(action: action, status: .failed, error: "\(error)"), transferred: 0)
        }
    }

    /// Records a pair found already in sync (first run, lost state).
    func adopt(_ adoption: Adoption) {
        guard let store, let localTime = adoption.local.modified, let size = adoption.local.size else { return }
        let record = FileRecord(
            path: adoption.remote.path, remoteSize: adoption.remote.size, remoteModified: adoption.remote.modified,
            localSize: size, localModified: localTime, digest: adoption.local.digest)
        try? store.upsertRecord(record, device: job.name)
    }

    private func download(_ action: Action, id: Int) throws -> UInt64 {
        guard let source = action.source else { throw EngineError.incompleteAction("download without its entry") }
        let partialPath = job.paths.partial(action.path)
        let finalPath = job.paths.file(action.path)
        try files.makeFolders(at: parentFolder(partialPath))
        let partial = PartialTransfer(
            path: action.path, remoteSize: source.size, remoteModified: source.modified, bytesDone: action.offset)
        try store?.setPartial(StoredPartial(transfer: partial, tempName: partialPath), device: job.name)

        var transfer: (received: UInt64, digest: String, size: UInt64)
        do {
            transfer = try receive(action, source: source, into: partialPath, from: action.offset, id: id)
        } catch FTPError.reply(let code, _, let command)
            where action.offset > 0 && command.hasPrefix("REST")
            && (500..<600).contains(code)
        {
            // The server cannot resume (no REST): start over from the first byte.
            transfer = try receive(action, source: source, into: partialPath, from: 0, id: id)
        }
        if let expected = source.size, transfer.size != expected {
            throw EngineError.shortTransfer(path: action.path.string, received: transfer.size, expected: expected)
        }
        if let time = source.modified { try files.setModificationTime(time, at: partialPath) }
        try files.makeFolders(at: parentFolder(finalPath))
        try files.move(from: partialPath, to: finalPath)
        guard let status = try files.status(at: finalPath) else {
            throw LocalFileError(operation: "stat", path: finalPath, code: ENOENT)
        }
        let record = FileRecord(
            path: action.path, remoteSize: source.size, remoteModified: source.modified,
            localSize: status.identity.size, localModified: status.identity.modified, digest: transfer.digest)
        try store?.transaction {
            try store?.upsertRecord(record, device: job.name)
            try store?.removePartial(path: action.path, device: job.name)
        }
        return transfer.received
    }

    /// Downloads `action`'s file into `partialPath` from byte `offset`, hashing as it writes
    /// (the bytes already there first). Never accepts more than the listed size: a file that
    /// grows while it is read is dropped, to be fetched whole by a later run.
    /// - Returns: bytes received, the digest of the whole file, and its size.
    private func receive(
        _ action: Action, source: SnapshotEntry, into partialPath: String, from offset: UInt64, id: Int
    ) throws -> (received: UInt64, digest: String, size: UInt64) {
        let hasher = try XXH3Hasher()
        if offset > 0 { try hasher.update(fileAt: partialPath, length: offset) }
        let writer = try files.openPartial(at: partialPath, offset: offset)
        let meter = transferMeter(id: id, start: offset, total: source.size)
        let received: UInt64
        do {
            received = try remote.retrieve(remotePath(root: job.remoteRoot, relative: action.path.string), from: offset)
            { chunk in
                if let expected = source.size, writer.size + UInt64(chunk.count) > expected {
                    throw EngineError.longerThanListed(path: action.path.string, listed: expected)
                }
                try writer.write(chunk)
                hasher.update(chunk)
                meter?.add(chunk.count)
            }
            try writer.close()
        } catch let error as EngineError {
            try? writer.close()
            _ = try? files.removeFile(at: partialPath)
            try? store?.removePartial(path: action.path, device: job.name)
            throw error
        } catch {
            try? writer.close()
            if let local = error as? LocalFileError, local.isNoSpace {
                // A full disk: the bytes so far would only keep the other files from fitting.
                _ = try? files.removeFile(at: partialPath)
                try? store?.removePartial(path: action.path, device: job.name)
            }
            throw error
        }
        return (received, hasher.finalize(), writer.size)
    }

    /// Moves the local copy of a file the device moved; the record follows it.
    private func renameLocal(_ action: Action) throws {
        guard let to = action.to else { throw EngineError.incompleteAction("rename without its target") }
        let destination = job.paths.file(to)
        try files.makeFolders(at: parentFolder(destination))
        try files.move(from: job.paths.file(action.path), to: destination)
        guard let status = try files.status(at: destination) else {
            throw LocalFileError(operation: "stat", path: destination, code: ENOENT)
        }
        let record = FileRecord(
            path: to, remoteSize: action.source?.size ?? records[action.path]?.remoteSize,
            remoteModified: action.source?.modified ?? records[action.path]?.remoteModified,
            localSize: status.identity.size, localModified: status.identity.modified,
            digest: records[action.path]?.digest)
        try store?.transaction {
            try store?.upsertRecord(record, device: job.name)
            try store?.deleteRecord(path: action.path, device: job.name)
        }
    }

    /// Never unlinks: a file goes to `.ftpsync/trash/<UTC time>/<device>/<path>`; an empty
    /// folder is removed, one still holding something (excluded files) goes to the trash too.
    private func deleteLocal(_ action: Action) throws {
        let path = job.paths.file(action.path)
        if action.source?.kind == .directory, (try? files.removeEmptyFolder(at: path)) != nil {
            return
        }
        try files.moveToTrash(
            path, localRoot: job.paths.treeRoot, device: job.name, path: action.path, at: runStarted)
        try store?.deleteRecord(path: action.path, device: job.name)
    }

    private func keepConflictCopy(_ action: Action) throws {
        try files.move(from: job.paths.file(action.path), to: job.paths.conflictCopy(action.path, at: runStarted))
    }
}

/// The folder holding `path`.
func parentFolder(_ path: String) -> String {
    (path as NSString).deletingLastPathComponent
}
