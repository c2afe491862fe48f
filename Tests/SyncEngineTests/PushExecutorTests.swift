// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// Uploads (whole, resumed, refused resumes, checked before RNTO), deletes, renames and
/// conflicts of a push, against the in-memory device.
struct PushExecutorTests {
    private let time = Date(timeIntervalSince1970: 1_700_000_000)
    private let size = 300_000

    /// The temporary an upload of `relative` goes to on the device.
    private func temporary(_ relative: String) throws -> String {
        remotePath(root: "/", relative: UploadNaming.temporaryPath(for: try RelativePath(validating: relative)).string)
    }

    @Test func uploadsNewFilesWithTheirTimes() throws {
        let device = try TestDevice()
        try device.writeLocal("a.jpg", bytes(1000), modified: time)
        try device.writeLocal("d/b.jpg", bytes(size, seed: 3), modified: time)
        let report = device.runPush()
        #expect(report.status == .ok)
        #expect(device.server.file("/a.jpg")?.bytes == bytes(1000))
        #expect(device.server.file("/d/b.jpg")?.bytes == bytes(size, seed: 3))
        #expect(device.server.file("/d/b.jpg")?.modified == time)
        #expect(device.server.filePaths == ["/a.jpg", "/d/b.jpg"])
    }

    /// The records awaiting the listed size and time stay bounded: once `relistLimit` of them
    /// wait, their folders are listed (and again at the end for the rest), and every record
    /// ends up final.
    @Test func theRecordsAwaitingAListingStayBounded() throws {
        let device = try TestDevice()
        let count = PushExecutor.relistLimit + 6
        for index in 0..<count { try device.writeLocal("d/\(index).txt", bytes(10 + index % 7), modified: time) }
        let report = device.runPush()
        #expect(report.status == .ok)
        // Once by the plan's listing (of an empty device), then d by the executor: once at the
        // limit, once at the end for the rest.
        #expect(device.server.count("LIST") == 1 + 2)
        #expect(try device.store.records(device: "cam").count == count)
    }

    /// A folder receiving many files is listed again less and less often (once a quarter of
    /// what it listed waits), not at every `relistLimit` files: 16 times the limit took 16
    /// listings of the growing folder (a folder of 100,000 files, some 100 of them: 4 ms a
    /// file), now 11.
    @Test func aBigFolderIsListedAgainLessAndLessOften() throws {
        let device = try TestDevice()
        let count = PushExecutor.relistLimit * 16
        for index in 0..<count { try device.writeLocal("d/\(index).txt", bytes(3), modified: time) }
        let report = device.runPush()
        #expect(report.status == .ok)
        // The plan's listing of the empty device, then d: at 1, 2, 3, 4, 5, 6.25, 7.8, 9.8,
        // 12.2 and 15.3 times the limit, and at the end.
        #expect(device.server.count("LIST") == 1 + 11)
        #expect(try device.store.records(device: "cam").count == count)
    }

    /// A push whose local folder is missing (a typo in `local`, a disk not mounted) fails and
    /// changes nothing, also with `--delete` on a first push: no empty tree is mirrored.
    @Test func aMissingLocalFolderDeletesNothingOnTheDevice() throws {
        let device = try TestDevice()
        for name in ["v1.txt", "v2.txt", "v3.txt"] { device.server.put("/" + name, bytes(10)) }
        try FileManager.default.removeItem(atPath: device.treeRoot + "/cam")
        let report = device.runPush(deleteExtraneous: true)
        #expect(report.status == .failed)
        #expect(report.error?.contains("does not exist") == true, "\(report.error ?? "")")
        #expect(device.server.filePaths == ["/v1.txt", "/v2.txt", "/v3.txt"])
        #expect(device.server.count("DELE") == 0)
    }

    @Test func aCutUploadIsResumedFromWhatTheDeviceHolds() throws {
        let device = try TestDevice(retries: 1)
        try device.writeLocal("b.mov", bytes(size), modified: time)
        device.server.cut(try temporary("b.mov"), after: 100_000)
        let report = device.runPush()
        #expect(report.status == .ok)
        #expect(device.server.file("/b.mov")?.bytes == bytes(size))
        #expect(device.server.count("APPE") == 1)
        #expect(report.stats.bytesTransferred < UInt64(2 * size))
    }

    @Test func aRefusedAPPEResumesWithRESTAndSTOR() throws {
        let device = try TestDevice(retries: 1)
        try device.writeLocal("b.mov", bytes(size), modified: time)
        device.server.cut(try temporary("b.mov"), after: 100_000)
        device.server.refused = ["APPE"]
        let report = device.runPush()
        #expect(report.status == .ok)
        #expect(device.server.file("/b.mov")?.bytes == bytes(size))
        // The cut STOR, the refused APPE, then REST + STOR from what the device holds.
        #expect(device.server.count("APPE") == 1)
        #expect(device.server.count("STOR") == 2)
        #expect(report.stats.bytesTransferred < UInt64(2 * size))
    }

    @Test func anUploadTheDeviceKeptShortIsNotRenamedIntoPlace() throws {
        let device = try TestDevice()
        try device.writeLocal("b.mov", bytes(size), modified: time)
        device.server.shortStore(try temporary("b.mov"), bytes: 1000)
        let report = device.runPush()
        #expect(report.status == .partial)
        #expect(device.server.file("/b.mov") == nil)
    }

    @Test func aSIZEThatLiesKeepsTheUploadFromPlace() throws {
        let device = try TestDevice()
        try device.writeLocal("b.mov", bytes(size), modified: time)
        device.server.lieAboutSize(try temporary("b.mov"), 5)
        let report = device.runPush()
        #expect(report.status == .partial)
        #expect(report.actions.first?.error?.contains("5 of 300000") == true)
        #expect(device.server.file("/b.mov") == nil)
    }

    @Test func aFileGoneHereIsDeletedOnTheDevice() throws {
        let device = try TestDevice()
        try device.writeLocal("a.jpg", bytes(1000), modified: time)
        try device.writeLocal("keep.jpg", bytes(10), modified: time)
        _ = device.runPush()
        try FileManager.default.removeItem(atPath: device.job.paths.deviceRoot + "/a.jpg")
        let report = device.runPush(deleteExtraneous: true)
        #expect(report.status == .ok)
        #expect(device.server.filePaths == ["/keep.jpg"])
    }

    @Test func aFileMovedHereIsRenamedOnTheDevice() throws {
        let device = try TestDevice()
        try device.writeLocal("a/x.jpg", bytes(5000), modified: time)
        _ = device.runPush()
        try FileManager.default.createDirectory(
            atPath: device.job.paths.deviceRoot + "/b", withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            atPath: device.job.paths.deviceRoot + "/a/x.jpg", toPath: device.job.paths.deviceRoot + "/b/x.jpg")
        let report = device.runPush(deleteExtraneous: true)
        #expect(report.status == .ok)
        #expect(device.server.file("/b/x.jpg")?.bytes == bytes(5000))
        #expect(device.server.file("/a/x.jpg") == nil)
        #expect(device.server.count("RNFR") == 2)  // the first upload's RNTO, then the move
        #expect(device.server.count("STOR") == 1)
    }

    @Test func aFileChangedOnBothSidesIsNotOverwritten() throws {
        let device = try TestDevice()
        try device.writeLocal("a.jpg", bytes(1000), modified: time)
        _ = device.runPush()
        try device.writeLocal("a.jpg", bytes(1200, seed: 4), modified: time.addingTimeInterval(100))
        device.server.put("/a.jpg", bytes(1100, seed: 6), modified: time.addingTimeInterval(200))
        let report = device.runPush()
        #expect(report.status != .ok)
        #expect(device.server.file("/a.jpg")?.bytes == bytes(1100, seed: 6))
    }
}
