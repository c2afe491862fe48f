// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

/// Issue 16, after review: a device folder listed with STAT and showing no dot-name
/// (`Snapshot.hiddenUnknown`) may hide its dot-files (`ls` without `-a`): every dot-name there,
/// and all below a dot-folder there, is unknown — not deleted, renamed or overwritten, and not
/// uploaded over. Other names of the folder are planned as usual.
@Suite struct HiddenDotNameTests {
    typealias F = Fixture

    /// One plan: the device's entries and folders whose dot-names are unknown, the local
    /// entries, the records, and the actions expected with and without those folders.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var direction: SyncDirection
        var remote: [SnapshotEntry]
        var hidden: [String]
        var local: [SnapshotEntry]
        var synced: [(SnapshotEntry, SnapshotEntry)] = []
        var expected: [String]
        /// What the same plan does when nothing is hidden (the data loss guarded against).
        var unguarded: [String]

        var description: String { name }
    }

    static let keep = (F.listed("keep", 1, 60), F.local("keep", 1, 60))
    static let config = (F.listed(".config", 6, 60), F.local(".config", 6, 60))
    static let head = (F.listed(".git/HEAD", 4, 60), F.local(".git/HEAD", 4, 60))
    static let old = (F.listed("old.txt", 3, 60), F.local("old.txt", 3, 60))

    static let cases: [Case] = [
        Case(
            name: "pull --delete keeps a recorded .config the STAT listing does not show",
            direction: .pull, remote: [keep.0], hidden: [""], local: [config.1, keep.1], synced: [keep, config],
            expected: [], unguarded: ["delete_local .config"]),
        Case(
            name: "pull --delete keeps a dot-folder and what lies below it",
            direction: .pull, remote: [keep.0], hidden: [""], local: [F.folder(".git"), head.1, keep.1],
            synced: [keep, head], expected: [], unguarded: ["delete_local .git/HEAD", "delete_local .git"]),
        Case(
            name: "pull --delete still deletes a name without a dot that left the device",
            direction: .pull, remote: [keep.0], hidden: [""], local: [config.1, keep.1, old.1],
            synced: [keep, config, old], expected: ["delete_local old.txt"],
            unguarded: ["delete_local .config", "delete_local old.txt"]),
        Case(
            name: "only the folder listed with STAT hides dot-names",
            direction: .pull, remote: [F.folder("d"), keep.0], hidden: ["d"],
            local: [F.folder("d"), F.local("d/.env", 2, 60), F.local(".env", 2, 60), keep.1],
            synced: [
                keep, (F.listed("d/.env", 2, 60), F.local("d/.env", 2, 60)),
                (F.listed(".env", 2, 60), F.local(".env", 2, 60)),
            ],
            expected: ["delete_local .env"], unguarded: ["delete_local .env", "delete_local d/.env"]),
        Case(
            name: "push does not upload a new .config over one the device may hide",
            direction: .push, remote: [keep.0], hidden: [""], local: [config.1, keep.1], synced: [keep],
            expected: [], unguarded: ["upload .config"]),
        Case(
            name: "push does not upload a changed .config over the recorded one",
            direction: .push, remote: [keep.0], hidden: [""], local: [F.local(".config", 9, 120), keep.1],
            synced: [keep, config], expected: [], unguarded: ["upload .config"]),
        Case(
            name: "pull --delete: a recorded .config the STAT listing does not show is kept beside a new file",
            direction: .pull, remote: [F.listed("moved.cfg", 6, 60), keep.0], hidden: [""],
            local: [config.1, keep.1], synced: [keep, config], expected: ["download moved.cfg"],
            unguarded: ["delete_local .config", "download moved.cfg"]),
        Case(
            name: "push --delete keeps a device folder that may hold hidden dot-files",
            direction: .push, remote: [F.folder("d"), F.listed("d/x", 2, 60), keep.0], hidden: ["d"],
            local: [keep.1], synced: [keep], expected: ["delete_remote d/x"],
            unguarded: ["delete_remote d", "delete_remote d/x"]),
    ]

    static func plan(_ test: Case, hidden: Bool) -> [String] {
        var remote = Snapshot(test.remote)
        if hidden { remote.hiddenUnknown = Set(test.hidden.map(F.path)) }
        let local = Snapshot(test.local)
        let records = F.records(test.synced)
        let policy = SyncPolicy(direction: test.direction, deleteExtraneous: true, maxDelete: nil)
        let result =
            test.direction == .pull
            ? PullPlanner(policy: policy).plan(remote: remote, local: local, records: records, partials: [:])
            : PushPlanner(policy: policy).plan(local: local, remote: remote, records: records, partials: [:])
        return F.kinds(result).sorted()
    }

    @Test(arguments: cases)
    func dotNamesAStatListingMayHideAreUnknown(_ test: Case) {
        #expect(Self.plan(test, hidden: true) == test.expected.sorted(), "\(test.name)")
        #expect(Self.plan(test, hidden: false) == test.unguarded.sorted(), "\(test.name), unguarded")
    }
}
