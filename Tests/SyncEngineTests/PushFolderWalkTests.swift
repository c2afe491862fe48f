// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// A push planned folder by folder (`PushWalk` over `PushFolderSource`): the digest cache is read
/// and pruned one folder at a time, and a move across folders is still found by digest.
struct PushFolderWalkTests {
    private let time = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aFileMovedToAnotherFolderIsRenamedOnTheDevice() throws {
        let device = try TestDevice()
        try device.writeLocal("a/clip.mov", bytes(5000, seed: 7), modified: time)
        try device.writeLocal("a/other.jpg", bytes(10), modified: time)
        #expect(device.runPush().status == .ok)
        try FileManager.default.createDirectory(
            atPath: device.job.paths.deviceRoot + "/b", withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            atPath: device.job.paths.deviceRoot + "/a/clip.mov", toPath: device.job.paths.deviceRoot + "/b/clip.mov")
        let stores = device.server.count("STOR")
        let report = device.runPush()
        #expect(report.status == .ok)
        #expect(device.server.count("RNFR") >= 1)
        #expect(device.server.count("STOR") == stores)
        #expect(device.server.file("/b/clip.mov")?.bytes == bytes(5000, seed: 7))
        #expect(device.server.file("/a/clip.mov") == nil)
    }

    @Test func theDigestsOfAFolderGoneAreForgotten() throws {
        let device = try TestDevice()
        try device.writeLocal("a/one.jpg", bytes(100), modified: time)
        try device.writeLocal("b/two.jpg", bytes(200), modified: time)
        #expect(device.runPush().status == .ok)
        // The uploads hashed both files on the way: their digests are cached.
        #expect(Set(try device.store.loadHashCache().map(\.path)) == ["cam/a/one.jpg", "cam/b/two.jpg"])
        try FileManager.default.removeItem(atPath: device.job.paths.deviceRoot + "/b")
        #expect(device.runPush().status == .ok)
        #expect(try device.store.loadHashCache().map(\.path) == ["cam/a/one.jpg"])
    }
}
