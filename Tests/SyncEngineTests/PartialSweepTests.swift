// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import SyncStore
import Testing

@testable import SyncEngine

/// Leftovers of small downloads in the partial folder are removed; resumable partials stay.
struct PartialSweepTests {
    @Test func removesOnlySmallFilesNoRowNames() throws {
        let root = NSTemporaryDirectory() + "sweep-test-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try StateStore.open(localRoot: root)
        let paths = LocalPaths(treeRoot: root, deviceRoot: root + "/cam", device: "cam")
        let folder = paths.stateFolder + "/partial/cam"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

        let resumable = try RelativePath(validating: "video/clip.mp4")
        let named = paths.partial(resumable)
        try Data(count: 1000).write(to: URL(fileURLWithPath: named))
        try store.setPartial(
            StoredPartial(
                transfer: PartialTransfer(path: resumable, remoteSize: 9_000_000, remoteModified: nil, bytesDone: 1000),
                tempName: named), device: "cam")
        let leftover = paths.partial(try RelativePath(validating: "gone.jpg"))
        try Data(count: 4096).write(to: URL(fileURLWithPath: leftover))
        let large = folder + "/large-unnamed"
        try Data(count: Int(PullExecutor.smallFileLimit) + 1).write(to: URL(fileURLWithPath: large))
        try FileManager.default.createDirectory(atPath: folder + "/a-folder", withIntermediateDirectories: true)
        // Another device's partials are not looked at.
        let other = LocalPaths(treeRoot: root, deviceRoot: root + "/phone", device: "phone")
        let otherLeftover = other.partial(try RelativePath(validating: "gone.jpg"))
        try FileManager.default.createDirectory(
            atPath: other.stateFolder + "/partial/phone", withIntermediateDirectories: true)
        try Data(count: 10).write(to: URL(fileURLWithPath: otherLeftover))

        #expect(sweepUnnamedPartials(paths: paths, store: store) == 1)
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        #expect(exists(named))
        #expect(!exists(leftover))
        #expect(exists(large))
        #expect(exists(folder + "/a-folder"))
        #expect(exists(otherLeftover))
        // Nothing left to remove: a second sweep changes nothing.
        #expect(sweepUnnamedPartials(paths: paths, store: store) == 0)
    }
}
