// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore
import Testing

@testable import SyncEngine

/// A local rename of a device move never replaces a file and never carries a local change away.
struct LocalRenameCheckTests {
    /// (what is done after the last sync, refused?)
    @Test(arguments: [("nothing", false), ("a file appears at the new name", true), ("the copy is edited", true)])
    func checkedRightBeforeTheMove(change: String, refused: Bool) throws {
        let root = NSTemporaryDirectory() + "rename-check-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let source = root + "/A.MP4"
        let destination = root + "/B.MP4"
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: source))
        let modified = try #require(
            (try FileManager.default.attributesOfItem(atPath: source))[.modificationDate] as? Date)
        let record = FileRecord(
            path: try RelativePath(validating: "A.MP4"), remoteSize: 4096,
            remoteModified: FileTime(seconds: 946_684_800, granularity: .second), localSize: 4096,
            localModified: FileTime(date: modified, granularity: .exact), digest: nil)
        switch change {
        case "a file appears at the new name": try Data([2]).write(to: URL(fileURLWithPath: destination))
        case "the copy is edited": try Data(repeating: 3, count: 5000).write(to: URL(fileURLWithPath: source))
        default: break
        }
        var thrown: Error?
        do {
            let files = LocalFileSystem()
            try LocalRenameCheck.check(
                record.path, current: try files.status(at: source), to: try RelativePath(validating: "B.MP4"),
                occupied: try files.status(at: destination) != nil, record: record)
        } catch {
            thrown = error
        }
        #expect((thrown is EngineError) == refused, "\(String(describing: thrown))")
    }
}
