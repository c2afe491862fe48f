// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// What a pull's and a push's walk read alike (`FolderWalkSource`), served one folder at a time
/// from whole snapshots as the engine serves it from the device, the disk and the state.
class SnapshotFolderSource {
    let remote: Snapshot
    let local: Snapshot
    let records: [RelativePath: FileRecord]
    /// Folders read, in order, each side (to check the walk reads each once, parents first).
    private(set) var listed: [RelativePath] = []
    private(set) var scanned: [RelativePath] = []

    init(remote: Snapshot, local: Snapshot, records: [RelativePath: FileRecord]) {
        self.remote = remote
        self.local = local
        self.records = records
    }

    func listing(of folder: RelativePath) throws -> FolderListing {
        listed.append(folder)
        var listing = FolderListing(
            entries: remote.entries.filter { $0.path.parent == folder && !$0.path.isRoot },
            isIncomplete: remote.unknown.contains(folder), mayHideDotNames: remote.hiddenUnknown.contains(folder))
        listing.snapshot.leftOut = remote.leftOut.filter { $0.parent == folder }
        return listing
    }

    func localFolder(_ folder: RelativePath) throws -> Snapshot {
        scanned.append(folder)
        let entries = local.entries.filter { $0.path.parent == folder && !$0.path.isRoot }
        var snapshot = Snapshot(entries, unknown: local.unknown.filter { $0 == folder || $0.parent == folder })
        snapshot.leftOut = local.leftOut.filter { $0.parent == folder }
        return snapshot
    }

    /// The records directly in `folder`, in path order.
    func records(directlyIn folder: RelativePath) -> [FileRecord] {
        records.values.filter { $0.path.parent == folder }.sorted { $0.path < $1.path }
    }

    func recordFolders(in folder: RelativePath) throws -> [RelativePath] {
        var found = Set<RelativePath>()
        for path in records.keys where folder.isAncestor(of: path.parent) {
            var child = path.parent
            while child.parent != folder { child = child.parent }
            found.insert(child)
        }
        return found.sorted()
    }

    func hasRecords(below folder: RelativePath) throws -> Bool {
        records.keys.contains { folder.isAncestor(of: $0) }
    }
}

/// How many times each action occurs in `actions` (walks and whole-tree plans order them apart).
func actionCounts(_ actions: [Action]) -> [Action: Int] {
    actions.reduce(into: [:]) { $0[$1, default: 0] += 1 }
}

/// What a walk's result and writer must share with the whole-tree plan `expected`, whichever
/// the direction: the notes (each once), skipped entries, unchanged count, refusal, adoptions
/// and records to drop; and the device listed folder by folder, each once, after its parent.
func expectWalkEnd(
    notes: [String], skipped: [SkippedEntry], unchanged: Int, refusal: String?, adopted: Int, forgotten: Int,
    writer: SectionWriter, listed: [RelativePath], expected: PlanResult, seed: UInt64
) {
    #expect(Set(notes) == Set(expected.plan.notes), "seed \(seed)")
    #expect(notes.count == expected.plan.notes.count, "seed \(seed)")
    #expect(Set(skipped) == Set(expected.plan.skipped), "seed \(seed)")
    #expect(unchanged == expected.plan.unchanged, "seed \(seed)")
    #expect(refusal == expected.refusal, "seed \(seed)")
    #expect(Set(writer.adoptions) == Set(expected.adoptions), "seed \(seed)")
    #expect(adopted == writer.adoptions.count, "seed \(seed)")
    #expect(writer.forgotten.sorted() == expected.forgotten, "seed \(seed)")
    #expect(forgotten == writer.forgotten.count, "seed \(seed)")
    for (index, folder) in listed.enumerated() where !folder.isRoot {
        #expect(listed[..<index].contains(folder.parent), "seed \(seed)")
    }
    #expect(Set(listed).count == listed.count, "seed \(seed)")
}
