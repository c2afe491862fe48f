// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// A pull's three trees served one folder at a time from whole snapshots, as the engine serves
/// them from the device, the disk and the state.
final class SnapshotWalkSource: SnapshotFolderSource, PullWalkSource {
    let confirms: (MoveCandidate) -> Bool

    init(
        remote: Snapshot, local: Snapshot, records: [RelativePath: FileRecord],
        confirms: @escaping (MoveCandidate) -> Bool
    ) {
        self.confirms = confirms
        super.init(remote: remote, local: local, records: records)
    }

    func records(in folder: RelativePath, local: Snapshot) throws -> RecordTable {
        RecordTable(records(directlyIn: folder))
    }

    func hasRecord(remoteSize size: UInt64, matching time: FileTime) throws -> Bool {
        records.values.contains { $0.remoteSize == size && $0.remoteModified.map(time.matches) == true }
    }

    func refined(_ listing: Snapshot, records: RecordTable) throws -> Snapshot { listing }

    func evidence(for candidates: [MoveCandidate]) -> MoveEvidence {
        var evidence = MoveEvidence()
        for candidate in candidates {
            if confirms(candidate) {
                evidence.confirmed.insert(candidate)
            } else {
                evidence.findings[candidate] = "the sampled bytes differ"
            }
        }
        return evidence
    }
}

/// Actions kept per section, in the order added, and the adoptions and records to drop.
final class SectionWriter: PlanWriter {
    private(set) var sections: [PlanSection: [Action]] = [:]
    private(set) var adoptions: [Adoption] = []
    private(set) var forgotten: [RelativePath] = []

    func append(_ action: Action, to section: PlanSection) throws {
        sections[section, default: []].append(action)
    }

    func adopt(_ adoption: Adoption) throws { adoptions.append(adoption) }

    func forget(_ path: RelativePath) throws { forgotten.append(path) }

    /// Every action, the sections one after the other.
    var actions: [Action] { PlanSection.allCases.flatMap { sections[$0] ?? [] } }
}

/// Random pull trees from a seed: a last sync (the records), then the device and the local side
/// changed from it: files new, changed, unchanged, deleted, moved across folders, type changes,
/// folders not read in full, partial downloads, symlinks and conflict copies in the way.
struct RandomPullTrees {
    private var state: UInt64

    /// The names the trees are made of.
    let folderNames: [String]
    let fileNames: [String]

    init(seed: UInt64, folderNames: [String] = Self.folderNames, fileNames: [String] = Self.fileNames) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        self.folderNames = folderNames
        self.fileNames = fileNames
    }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    static let folderNames = ["a", "b", "c d", ".dot"]
    static let fileNames = ["1.jpg", "2.jpg", "3.mov", ".hidden", "x.conflict-20261201T112233Z.jpg", "y"]
    static let base: Double = 1_700_000_000

    mutating func folderPath() -> String {
        var parts: [String] = []
        for _ in 0..<Int(next() % 4) { parts.append(pick(folderNames)) }
        return parts.joined(separator: "/")
    }

    mutating func filePath() -> String {
        let folder = folderPath()
        let name = pick(fileNames)
        return folder.isEmpty ? name : folder + "/" + name
    }

    private mutating func time() -> FileTime {
        // A few files share one default time; most have their own second.
        if chance(15) { return FileTime(seconds: Self.base, granularity: .second) }
        return FileTime(seconds: Self.base + Double(next() % 100_000), granularity: .second)
    }

    /// One case: the device's listing, the local side, the records, the partials and a policy.
    mutating func make() -> (
        Snapshot, Snapshot, [RelativePath: FileRecord], [RelativePath: PartialTransfer], SyncPolicy
    ) {
        var synced: [String: (size: UInt64, time: FileTime)] = [:]
        for _ in 0..<Int(10 + next() % 30) { synced[filePath()] = (1 + next() % 5, time()) }
        var remote: [String: SnapshotEntry] = [:]
        var local: [String: SnapshotEntry] = [:]
        var records: [RelativePath: FileRecord] = [:]
        let localTime = FileTime(seconds: Self.base + 5, granularity: .exact)
        for (path, file) in synced.sorted(by: { $0.key < $1.key }) {
            let p = Fixture.path(path)
            if chance(85) {
                records[p] = FileRecord(
                    path: p, remoteSize: file.size, remoteModified: file.time, localSize: file.size,
                    localModified: localTime, digest: nil)
            }
            switch next() % 10 {
            case 0: break  // gone from the device
            case 1: remote[path] = entry(path, file.size + 1, file.time)  // changed there
            case 2:  // moved
                let moved = filePath()
                remote[moved] = entry(moved, file.size, file.time)
            case 3: remote[path + "/inner"] = entry(path + "/inner", 1, time())  // a folder now
            default: remote[path] = entry(path, file.size, file.time)
            }
            switch next() % 12 {
            case 0: break  // gone here
            case 1: local[path] = SnapshotEntry(path: p, kind: .file, size: file.size + 2, modified: localTime)
            case 2: local[path + "/kept"] = SnapshotEntry(path: Fixture.path(path + "/kept"), kind: .file, size: 1)
            case 3: local[path] = SnapshotEntry(path: p, kind: .symlink)
            default: local[path] = SnapshotEntry(path: p, kind: .file, size: file.size, modified: localTime)
            }
        }
        for _ in 0..<Int(next() % 8) {
            let path = filePath()
            remote[path] = entry(path, 1 + next() % 5, time())
        }
        for _ in 0..<Int(next() % 5) {
            let path = filePath()
            local[path] = SnapshotEntry(
                path: Fixture.path(path), kind: .file, size: 1 + next() % 5, modified: localTime)
        }
        if chance(20) {
            let path = folderPath()
            if !path.isEmpty { local[path] = SnapshotEntry(path: Fixture.path(path), kind: .symlink) }
        }
        var remoteSide = tree(remote)
        var localSide = tree(local)
        // Folders not read in full: on the device (nothing below them listed, or their dot-names
        // unknown) and here.
        if chance(25), let folder = randomFolder(of: remoteSide) {
            remoteSide = Snapshot(remoteSide.entries.filter { !folder.isAncestor(of: $0.path) }, unknown: [folder])
        }
        if chance(15), let folder = randomFolder(of: remoteSide) {
            remoteSide.hiddenUnknown = [folder]
        }
        if chance(15), let folder = randomFolder(of: localSide) {
            localSide = Snapshot(localSide.entries.filter { !folder.isAncestor(of: $0.path) }, unknown: [folder])
        }
        var partials: [RelativePath: PartialTransfer] = [:]
        for entry in remoteSide.entries where entry.kind == .file && chance(10) {
            partials[entry.path] = PartialTransfer(
                path: entry.path, remoteSize: entry.size, remoteModified: entry.modified, bytesDone: 1)
        }
        let policy = SyncPolicy(
            direction: .pull, deleteExtraneous: chance(60), maxDelete: pick([nil, 0, 2, 50]),
            minimumAge: chance(20) ? 50_000 : 0, now: Date(timeIntervalSince1970: Self.base + 100_000))
        // The offload (drawn last: the cases above stay what they were): some records offloaded
        // by an earlier run, and a run that offloads.
        var offloading = policy
        for path in records.keys.sorted() where chance(10) { records[path]?.offloaded = true }
        offloading.removeSource = chance(40)
        offloading.removeSourceFolders = chance(50)
        offloading.maxOffload = pick([nil, nil, 3])
        return (remoteSide, localSide, records, partials, offloading)
    }

    private func entry(_ path: String, _ size: UInt64, _ time: FileTime) -> SnapshotEntry {
        SnapshotEntry(path: Fixture.path(path), kind: .file, size: size, modified: time)
    }

    /// The entries with every folder above them (a path that is a file as well as a folder's
    /// parent stays the folder).
    func tree(_ files: [String: SnapshotEntry]) -> Snapshot {
        var entries: [RelativePath: SnapshotEntry] = [:]
        for entry in files.values {
            var folder = entry.path.parent
            while !folder.isRoot {
                entries[folder] = SnapshotEntry(path: folder, kind: .directory)
                folder = folder.parent
            }
        }
        for entry in files.values where entries[entry.path] == nil { entries[entry.path] = entry }
        return Snapshot(Array(entries.values))
    }

    mutating func randomFolder(of side: Snapshot) -> RelativePath? {
        let folders = side.entries.filter { $0.kind == .directory }.map(\.path)
        return folders.isEmpty ? nil : pick(folders)
    }
}
