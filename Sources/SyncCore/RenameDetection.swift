// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A path that moved on the source side: the destination renames `from` to `to` instead of
/// transferring the content again and deleting the old path.
struct DetectedRename: Hashable {
    var from: RelativePath
    var to: RelativePath
}

enum RenameDetection {
    /// Local moves for a push: a new local file (no record, absent on the device) whose XXH3
    /// digest equals the recorded digest of a path that vanished locally while the device still
    /// holds it unchanged. Each vanished path serves one new path at most.
    /// - Parameters:
    ///   - goneHere: the records whose paths the local snapshot does not hold.
    ///   - newFiles: local files with no record and absent on the device, in path order.
    static func localMoves(goneHere: [(RelativePath, FileRecord)], newFiles: [SnapshotEntry], remote: Snapshot)
        -> [DetectedRename]
    {
        guard !goneHere.isEmpty, !newFiles.isEmpty else { return [] }
        let vanished = goneHere.compactMap { path, record in
            movedFrom(record, there: remote[path]).map { (digest: $0, path: path) }
        }
        return localMoves(vanished: vanished, newFiles: newFiles)
    }

    /// The digest by which the gone record `record`, whose path holds `there` on the device, can
    /// be where a local file moved from (the device still holds it unchanged), or nil.
    static func movedFrom(_ record: FileRecord, there: SnapshotEntry?) -> String? {
        guard let digest = record.digest, let there, there.kind == .file, Comparison.remoteMatches(there, record)
        else { return nil }
        return digest
    }

    /// The renames of `localMoves(goneHere:newFiles:remote:)` from the gone paths `movedFrom`
    /// accepts, with their digests.
    static func localMoves(vanished gone: [(digest: String, path: RelativePath)], newFiles: [SnapshotEntry])
        -> [DetectedRename]
    {
        var vanished: [String: [RelativePath]] = [:]
        for (digest, path) in gone { vanished[digest, default: []].append(path) }
        for key in vanished.keys { vanished[key]?.sort() }
        var renames: [DetectedRename] = []
        for entry in newFiles {
            guard let digest = entry.digest, var candidates = vanished[digest], !candidates.isEmpty else { continue }
            renames.append(DetectedRename(from: candidates.removeFirst(), to: entry.path))
            vanished[digest] = candidates
        }
        return renames
    }

    /// Candidate remote moves for a pull: a new remote file (no record, absent here) with the
    /// same size and modification time as a recorded path that vanished from the device while
    /// the local copy is unchanged; only when exactly one vanished path matches it and it is the
    /// only new file matching that path. Candidates only: size and time prove nothing (see
    /// `MoveCandidate`); the planner renames only those `MoveEvidence` confirms.
    /// - Parameters:
    ///   - goneThere: the records whose paths the remote snapshot does not hold.
    ///   - newFiles: remote files with no record and absent here, in path order.
    ///   - remote: the device's listing, whose shared times mark defaults (`DefaultTimes`).
    static func remoteMoves(
        goneThere: [(RelativePath, FileRecord)], newFiles: [SnapshotEntry], local: Snapshot, remote: Snapshot
    ) -> [MoveCandidate] {
        guard !goneThere.isEmpty, !newFiles.isEmpty else { return [] }
        let vanished = goneThere.filter { path, record in canMove(record, here: local[path]) }.map(\.1)
        return remoteMoves(vanished: vanished, newFiles: newFiles) { DefaultTimes(remote) }
    }

    /// True when the gone record `record`, whose path holds `here` locally, can be where a
    /// device file moved from: its remote size and time are known and the local copy is
    /// unchanged.
    static func canMove(_ record: FileRecord, here: SnapshotEntry?) -> Bool {
        guard record.remoteSize != nil, record.remoteModified != nil, let here, here.kind == .file else {
            return false
        }
        return Comparison.localMatches(here, record)
    }

    /// The candidates of `remoteMoves(goneThere:newFiles:local:remote:)` from the gone records
    /// that `canMove` accepts, `defaults` giving the listing's default times (asked once, and
    /// only when there is a candidate).
    static func remoteMoves(
        vanished records: [FileRecord], newFiles: [SnapshotEntry], defaults makeDefaults: () -> DefaultTimes
    ) -> [MoveCandidate] {
        var vanished: [UInt64: [FileRecord]] = [:]
        for record in records {
            guard let size = record.remoteSize else { continue }
            vanished[size, default: []].append(record)
        }
        var matches: [RelativePath: [RelativePath]] = [:]  // vanished path -> new paths
        var pairs: [(new: SnapshotEntry, old: RelativePath)] = []
        for entry in newFiles {
            guard let size = entry.size, let time = entry.modified, let sameSize = vanished[size] else { continue }
            let candidates = sameSize.filter { $0.remoteModified.map(time.matches) ?? false }
            for candidate in candidates { matches[candidate.path, default: []].append(entry.path) }
            if candidates.count == 1, let only = candidates.first { pairs.append((entry, only.path)) }
        }
        let unique = pairs.filter { matches[$0.old]?.count == 1 }
        guard !unique.isEmpty else { return [] }
        let defaults = makeDefaults()
        return unique.map { pair in
            MoveCandidate(
                from: pair.old, to: pair.new.path, size: pair.new.size ?? 0,
                defaultTime: pair.new.modified.map(defaults.isDefault) ?? true)
        }
    }

    /// The records whose paths `side` does not hold. `hits` is how many entries of `side` have a
    /// record: when that is every record, none is missing and no lookup is made.
    static func absent(from side: Snapshot, records: [RelativePath: FileRecord], hits: Int) -> [(
        RelativePath, FileRecord
    )] {
        guard hits < records.count else { return [] }
        return records.filter { side.position(of: $0.key) == nil }.map { ($0.key, $0.value) }
    }
}
