import Foundation

/// A path that both sides already hold with the same content although no record says so
/// (first run, lost state): the engine records it without transferring anything.
public struct Adoption: Sendable, Hashable {
    public var remote: SnapshotEntry
    public var local: SnapshotEntry

    public init(remote: SnapshotEntry, local: SnapshotEntry) {
        self.remote = remote
        self.local = local
    }
}

/// Plans a pull: what to download, which folders to make, what to set aside.
///
/// Pure: the snapshots, records and partial transfers come in as values, and the plan goes out.
/// Each side is compared with its own record from the last successful sync, so clock skew and
/// time zones never cause a transfer.
public struct PullPlanner: Sendable {
    public var policy: SyncPolicy

    public init(policy: SyncPolicy) {
        self.policy = policy
    }

    /// The plan and the pairs to adopt as in sync.
    public struct Result: Sendable {
        public var plan: Plan
        public var adoptions: [Adoption]
    }

    /// Plans a pull of `remote` into `local`.
    /// - Parameters:
    ///   - remote: what the device lists under its root.
    ///   - local: what the local folder of the device holds.
    ///   - records: the last successful sync of this device, by path.
    ///   - partials: interrupted downloads waiting to be resumed, by path.
    public func plan(
        remote: Snapshot, local: Snapshot, records: [RelativePath: FileRecord],
        partials: [RelativePath: PartialTransfer]
    ) -> Result {
        var actions: [Action] = []
        var notes: [String] = []
        var adoptions: [Adoption] = []
        var unchanged = 0

        for entry in remote.entries {
            let here = local[entry.path]
            switch entry.kind {
            case .directory:
                if let here, here.kind == .directory { continue }
                if let here {
                    notes.append("\(entry.path): a folder on the device but a \(here.kind.rawValue) here; skipped")
                    continue
                }
                actions.append(Action(kind: .mkdirLocal, path: entry.path, source: entry, reason: "new folder"))
            case .symlink, .other:
                notes.append("\(entry.path): \(entry.kind.rawValue) on the device; not transferred")
            case .file:
                if let here, here.kind != .file {
                    notes.append("\(entry.path): a file on the device but a \(here.kind.rawValue) here; skipped")
                    continue
                }
                switch decideFile(remote: entry, local: here, record: records[entry.path]) {
                case .nothing:
                    unchanged += 1
                case .adopt(let localEntry):
                    unchanged += 1
                    adoptions.append(Adoption(remote: entry, local: localEntry))
                case .download(let reason):
                    actions.append(download(entry, partial: partials[entry.path], reason: reason))
                case .conflictThenDownload(let reason):
                    actions.append(Action(kind: .conflict, path: entry.path, source: here, reason: reason))
                    actions.append(download(entry, partial: partials[entry.path], reason: reason))
                case .keepLocal(let reason):
                    unchanged += 1
                    notes.append("\(entry.path): \(reason)")
                }
            }
        }
        return Result(plan: Plan(actions: actions, notes: notes, unchanged: unchanged), adoptions: adoptions)
    }

    private enum FileDecision {
        case nothing
        case adopt(SnapshotEntry)
        case download(String)
        case conflictThenDownload(String)
        case keepLocal(String)
    }

    private func decideFile(remote: SnapshotEntry, local: SnapshotEntry?, record: FileRecord?) -> FileDecision {
        guard let local else {
            return .download(record == nil ? "new on the device" : "missing here")
        }
        guard let record else {
            if sameContent(remote: remote, local: local) { return .adopt(local) }
            return .conflictThenDownload("differs here and no earlier sync says which is newer")
        }
        let remoteChanged = !remoteMatches(remote, record)
        let localChanged = !localMatches(local, record)
        switch (remoteChanged, localChanged) {
        case (false, false): return .nothing
        case (true, false): return .download("changed on the device")
        case (true, true): return .conflictThenDownload("changed on both sides since the last sync")
        case (false, true): return .keepLocal("changed here since the last sync; kept")
        }
    }

    /// Size and time as listed now equal what was listed at the last sync.
    private func remoteMatches(_ remote: SnapshotEntry, _ record: FileRecord) -> Bool {
        guard remote.size == record.remoteSize else { return false }
        switch (remote.modified, record.remoteModified) {
        case (nil, nil): return true
        case (let a?, let b?): return a.matches(b)
        default: return false
        }
    }

    private func localMatches(_ local: SnapshotEntry, _ record: FileRecord) -> Bool {
        guard local.size == record.localSize, let modified = local.modified else { return false }
        return modified.matches(record.localModified)
    }

    /// With no record: equal size and time within the listing's precision mean the same file.
    private func sameContent(remote: SnapshotEntry, local: SnapshotEntry) -> Bool {
        guard let size = remote.size, size == local.size, let a = remote.modified, let b = local.modified else {
            return false
        }
        return a.matches(b)
    }

    private func download(_ entry: SnapshotEntry, partial: PartialTransfer?, reason: String) -> Action {
        let size = entry.size ?? 0
        var offset: UInt64 = 0
        if let partial, partial.remoteSize == entry.size, partial.bytesDone <= size,
            let was = partial.remoteModified, let now = entry.modified, was.matches(now)
        {
            offset = partial.bytesDone
        }
        return Action(
            kind: .download, path: entry.path, bytes: size - offset, offset: offset, source: entry,
            reason: offset > 0 ? "\(reason); resuming at byte \(offset)" : reason)
    }
}
