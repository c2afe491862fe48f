// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// Downloads, deletes to the trash, conflict copies and renames of a pull, against the
/// in-memory device.
struct PullExecutorTests {
    private let time = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func downloadsEveryFileWithItsTime() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(1000), modified: time)
        device.server.put("/d/e/b.jpg", bytes(300_000, seed: 2), modified: time.addingTimeInterval(60))
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(device.local("a.jpg") == bytes(1000))
        #expect(device.local("d/e/b.jpg") == bytes(300_000, seed: 2))
        let attributes = try FileManager.default.attributesOfItem(atPath: device.job.paths.deviceRoot + "/d/e/b.jpg")
        #expect((attributes[.modificationDate] as? Date) == time.addingTimeInterval(60))
    }

    @Test func aSecondPullTransfersNothing() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(1000))
        _ = device.runPull()
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(report.actions.isEmpty)
        #expect(device.server.count("RETR") == 1)
    }

    @Test func aFileGoneFromTheDeviceGoesToTheTrash() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(1000))
        device.server.put("/keep.jpg", bytes(10))
        _ = device.runPull()
        device.server.remove("/a.jpg")
        let report = device.runPull(deleteExtraneous: true)
        #expect(report.status == .ok)
        #expect(device.local("a.jpg") == nil)
        let trash = device.treeRoot + "/.ftpsync/trash"
        let found = FileManager.default.enumerator(atPath: trash)?.allObjects.compactMap { $0 as? String } ?? []
        #expect(found.contains { $0.hasSuffix("cam/a.jpg") })
    }

    @Test func aConflictKeepsBothVersions() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(1000), modified: time)
        _ = device.runPull()
        try device.writeLocal("a.jpg", bytes(1200, seed: 9), modified: time.addingTimeInterval(100))
        device.server.put("/a.jpg", bytes(1100, seed: 5), modified: time.addingTimeInterval(200))
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(device.local("a.jpg") == bytes(1100, seed: 5))
        let names = try FileManager.default.contentsOfDirectory(atPath: device.job.paths.deviceRoot)
        let copies = names.filter { $0 != "a.jpg" }
        #expect(copies.count == 1)
        #expect(copies.first.flatMap { device.local($0) } == bytes(1200, seed: 9))
    }

    @Test func aFileMovedOnTheDeviceIsRenamedHereNotDownloaded() throws {
        let device = try TestDevice()
        device.server.offersHash = true
        device.server.put("/a/x.jpg", bytes(5000), modified: time)
        _ = device.runPull()
        device.server.remove("/a/x.jpg")
        device.server.put("/b/x.jpg", bytes(5000), modified: time)
        let report = device.runPull(deleteExtraneous: true)
        #expect(report.status == .ok)
        #expect(device.local("b/x.jpg") == bytes(5000))
        #expect(device.local("a/x.jpg") == nil)
        #expect(device.server.count("RETR") == 1)
        // One checks the first pull's download (`verify: auto`), one proves the move.
        #expect(device.server.count("HASH") == 2)
    }

    @Test func aShortTransferIsNotPlaced() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(1000))
        device.server.shortRetrieve("/a.jpg", bytes: 600)
        let report = device.runPull()
        #expect(report.status == .partial)
        #expect(report.actions.first?.status == .failed)
        #expect(device.local("a.jpg") == nil)
    }
}
