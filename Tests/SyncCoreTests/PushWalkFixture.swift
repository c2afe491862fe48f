// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// A push's three trees served one folder at a time from whole snapshots, as the engine serves
/// them from the disk, the device and the state.
final class SnapshotPushSource: SnapshotFolderSource, PushWalkSource {
    /// The local sizes asked about (`hasRecord(localSize:)`).
    private(set) var sizesAsked: [UInt64] = []

    init(local: Snapshot, remote: Snapshot, records: [RelativePath: FileRecord]) {
        super.init(remote: remote, local: local, records: records)
    }

    func records(in folder: RelativePath) throws -> RecordTable { RecordTable(records(directlyIn: folder)) }

    func hasRecord(localSize size: UInt64) throws -> Bool {
        sizesAsked.append(size)
        return records.values.contains { $0.digest != nil && $0.localSize == size }
    }
}

/// Random push trees from a seed: a last sync (the records, most with digests), then the local
/// side and the device changed from it: files new, changed, touched, unchanged, deleted, moved
/// across folders (same content), copied, type changes either way, folders not read in full on
/// either side, local folders come back empty, upload temporaries and leftovers on the device,
/// interrupted uploads, symlinks and conflict copies.
struct RandomPushTrees {
    private var random: RandomPullTrees

    init(
        seed: UInt64, folderNames: [String] = RandomPullTrees.folderNames,
        fileNames: [String] = RandomPullTrees.fileNames
    ) {
        random = RandomPullTrees(seed: seed, folderNames: folderNames, fileNames: fileNames)
    }

    private mutating func chance(_ percent: UInt64) -> Bool { random.chance(percent) }
    private mutating func next() -> UInt64 { random.next() }
    private mutating func pick<T>(_ items: [T]) -> T { random.pick(items) }

    private mutating func remoteTime() -> FileTime {
        FileTime(seconds: RandomPullTrees.base + Double(next() % 100_000), granularity: .second)
    }

    /// One case: the local side, the device's listing, the records, the interrupted uploads and a policy.
    mutating func make() -> (Snapshot, Snapshot, [RelativePath: FileRecord], [RelativePath: UploadPartial], SyncPolicy)
    {
        struct Synced {
            var size: UInt64
            var time: FileTime
            var digest: String
        }
        var synced: [String: Synced] = [:]
        // A digest says the size: one content, one size (copies share both).
        for _ in 0..<Int(10 + next() % 30) {
            let content = next() % 25
            synced[random.filePath()] = Synced(size: 1 + content % 5, time: remoteTime(), digest: "d\(content)")
        }
        var local: [String: SnapshotEntry] = [:]
        var remote: [String: SnapshotEntry] = [:]
        var records: [RelativePath: FileRecord] = [:]
        let localTime = FileTime(seconds: RandomPullTrees.base + 5, granularity: .exact)
        let touched = FileTime(seconds: RandomPullTrees.base + 9, granularity: .exact)
        for (path, file) in synced.sorted(by: { $0.key < $1.key }) {
            let p = Fixture.path(path)
            if chance(85) {
                records[p] = FileRecord(
                    path: p, remoteSize: file.size, remoteModified: file.time, localSize: file.size,
                    localModified: localTime, digest: chance(90) ? file.digest : nil)
            }
            switch next() % 12 {
            case 0: break  // gone here
            case 1: local[path] = localFile(path, file.size + 2, localTime, "changed\(path)")
            case 2: local[path] = localFile(path, file.size, touched, file.digest)  // touched
            case 3, 4:  // moved here (same content)
                let moved = random.filePath()
                local[moved] = localFile(moved, file.size, localTime, file.digest)
            case 5: local[path + "/kept"] = localFile(path + "/kept", 1, localTime, "k")  // a folder now
            case 6: local[path] = SnapshotEntry(path: p, kind: .symlink)
            default: local[path] = localFile(path, file.size, localTime, file.digest)
            }
            switch next() % 10 {
            case 0: break  // gone from the device
            case 1: remote[path] = remoteFile(path, file.size + 1, file.time)  // changed there
            case 2: remote[path + "/inner"] = remoteFile(path + "/inner", 1, remoteTime())  // a folder there
            default: remote[path] = remoteFile(path, file.size, file.time)
            }
        }
        for _ in 0..<Int(next() % 6) {
            let path = random.filePath()
            let content = next() % 30
            local[path] = localFile(path, 1 + content % 5, localTime, "d\(content)")
        }
        for _ in 0..<Int(next() % 6) {
            let path = random.filePath()
            remote[path] = remoteFile(path, 1 + next() % 5, remoteTime())
        }
        if chance(30) {
            let path = random.filePath()
            let temporary = UploadNaming.temporaryPath(for: Fixture.path(path)).string
            remote[temporary] = remoteFile(temporary, 1, remoteTime())
            remote[path + ".ftpsync-copy"] = remoteFile(path + ".ftpsync-copy", 1, remoteTime())
        }
        if chance(20) {
            let path = random.folderPath()
            if !path.isEmpty { local[path] = SnapshotEntry(path: Fixture.path(path), kind: .symlink) }
        }
        var localSide = random.tree(local)
        var remoteSide = random.tree(remote)
        // A local folder come back empty (a card not mounted): deleting below it is suspect.
        if chance(25), let folder = random.randomFolder(of: localSide) {
            localSide = Snapshot(localSide.entries.filter { !folder.isAncestor(of: $0.path) })
        }
        if chance(20), let folder = random.randomFolder(of: localSide) {
            localSide = Snapshot(localSide.entries.filter { !folder.isAncestor(of: $0.path) }, unknown: [folder])
        }
        if chance(25), let folder = random.randomFolder(of: remoteSide) {
            remoteSide = Snapshot(remoteSide.entries.filter { !folder.isAncestor(of: $0.path) }, unknown: [folder])
        }
        if chance(15), let folder = random.randomFolder(of: remoteSide) {
            remoteSide.hiddenUnknown = [folder]
        }
        var partials: [RelativePath: UploadPartial] = [:]
        for entry in localSide.entries where entry.kind == .file && chance(10) {
            partials[entry.path] = UploadPartial(
                path: entry.path, localSize: entry.size ?? 0, localModified: entry.modified, bytesDone: 1)
        }
        if chance(30) {
            let path = Fixture.path(random.filePath())
            partials[path] = UploadPartial(path: path, localSize: 3, localModified: localTime, bytesDone: 2)
        }
        let policy = SyncPolicy(
            direction: .push, deleteExtraneous: chance(60), maxDelete: pick([nil, 0, 2, 50]),
            onConflict: pick(ConflictPolicy.allCases))
        return (localSide, remoteSide, records, partials, policy)
    }

    private func localFile(_ path: String, _ size: UInt64, _ time: FileTime, _ digest: String) -> SnapshotEntry {
        SnapshotEntry(path: Fixture.path(path), kind: .file, size: size, modified: time, digest: digest)
    }

    private func remoteFile(_ path: String, _ size: UInt64, _ time: FileTime) -> SnapshotEntry {
        SnapshotEntry(path: Fixture.path(path), kind: .file, size: size, modified: time)
    }
}
