// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import Testing

/// `TrashPurge`: the old trash folders go, with all they hold; nothing is followed.
struct TrashPurgeTests {
    /// The decision's "now" and when the run began (an hour before).
    private let now = Date(timeIntervalSince1970: 1_796_180_400)
    private var runStarted: Date { now.addingTimeInterval(-3_600) }

    private func stamp(daysAgo: Double) -> String {
        let folder = LocalFileSystem.trashFolder(localRoot: "", at: now.addingTimeInterval(-daysAgo * 86_400))
        return String(folder.split(separator: "/").last ?? "")
    }

    @Test func oldFoldersGoRecentAndForeignOnesStay() throws {
        let tree = try TempTree()
        let old = stamp(daysAgo: 40)
        let recent = stamp(daysAgo: 2)
        try tree.write(".ftpsync/trash/\(old)/cam/DCIM/a.jpg", "a")
        try tree.write(".ftpsync/trash/\(old)/cam/b.txt", "b")
        try tree.folder(".ftpsync/trash/\(old)/cam/empty")
        try tree.write(".ftpsync/trash/\(recent)/cam/c.txt", "c")
        try tree.write(".ftpsync/trash/keep-me/d.txt", "d")
        let outcome = TrashPurge(localRoot: tree.path, retentionSeconds: 30 * 86_400)
            .run(now: now, runStarted: runStarted)
        #expect(outcome.removedFolders == [old])
        #expect(outcome.removedEntries == 6)  // 2 files, 3 folders below the stamp, the stamp
        #expect(outcome.foreignNames == ["keep-me"])
        #expect(outcome.errors.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tree.url(".ftpsync/trash/\(old)")))
        #expect(try tree.read(".ftpsync/trash/\(recent)/cam/c.txt") == Array("c".utf8))
        #expect(try tree.read(".ftpsync/trash/keep-me/d.txt") == Array("d".utf8))
    }

    @Test func aSymlinkInTheTrashGoesAsALinkItsTargetStays() throws {
        let tree = try TempTree()
        let old = stamp(daysAgo: 40)
        try tree.write("outside/precious.txt", "keep")
        try tree.folder(".ftpsync/trash/\(old)/cam")
        try FileManager.default.createSymbolicLink(
            atPath: tree.url(".ftpsync/trash/\(old)/cam/link"), withDestinationPath: tree.url("outside"))
        try FileManager.default.createSymbolicLink(
            atPath: tree.url(".ftpsync/trash/\(old)/cam/file-link"),
            withDestinationPath: tree.url("outside/precious.txt"))
        let outcome = TrashPurge(localRoot: tree.path, retentionSeconds: 86_400).run(now: now, runStarted: runStarted)
        #expect(outcome.removedFolders == [old], "\(outcome)")
        #expect(try tree.read("outside/precious.txt") == Array("keep".utf8))
        #expect(!FileManager.default.fileExists(atPath: tree.url(".ftpsync/trash/\(old)")))
    }

    @Test func aTrashThatIsASymlinkIsNotFollowed() throws {
        let tree = try TempTree()
        try tree.write("elsewhere/\(stamp(daysAgo: 40))/x.txt", "x")
        try tree.folder(".ftpsync")
        try FileManager.default.createSymbolicLink(
            atPath: tree.url(".ftpsync/trash"), withDestinationPath: tree.url("elsewhere"))
        let outcome = TrashPurge(localRoot: tree.path, retentionSeconds: 86_400).run(now: now, runStarted: runStarted)
        #expect(outcome.removedFolders.isEmpty)
        #expect(outcome.errors.count == 1, "\(outcome)")
        #expect(try tree.read("elsewhere/\(stamp(daysAgo: 40))/x.txt") == Array("x".utf8))
    }

    @Test func theLimitStopsThePurgeAndTheNextRunGoesOn() throws {
        let tree = try TempTree()
        let old = stamp(daysAgo: 40)
        for index in 0..<5 { try tree.write(".ftpsync/trash/\(old)/cam/\(index).txt", "\(index)") }
        let purge = TrashPurge(localRoot: tree.path, retentionSeconds: 86_400, entryLimit: 4)
        let first = purge.run(now: now, runStarted: runStarted)
        #expect(first.stoppedAtLimit && first.removedEntries == 4 && first.removedFolders.isEmpty, "\(first)")
        let second = purge.run(now: now, runStarted: runStarted)
        #expect(second.removedFolders == [old] && !second.stoppedAtLimit, "\(second)")
    }

    @Test func noTrashAndRetentionZeroDoNothing() throws {
        let tree = try TempTree()
        #expect(
            TrashPurge(localRoot: tree.path, retentionSeconds: 86_400).run(now: now, runStarted: runStarted) == .init())
        let old = stamp(daysAgo: 4_000)
        try tree.write(".ftpsync/trash/\(old)/cam/a.txt", "a")
        #expect(TrashPurge(localRoot: tree.path, retentionSeconds: 0).run(now: now, runStarted: runStarted) == .init())
        #expect(FileManager.default.fileExists(atPath: tree.url(".ftpsync/trash/\(old)/cam/a.txt")))
    }
}
