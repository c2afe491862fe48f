// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// A device run carries its plan out from the spool: nothing of it stays, a dry run reports
/// from it and makes nothing in the tree.
struct SpoolRunTests {
    private func spoolFolder(_ device: TestDevice) -> String { device.treeRoot + "/.ftpsync/spool/cam" }

    @Test func aRunLeavesNoSpoolBehind() throws {
        let device = try TestDevice(connections: 3)
        for index in 0..<20 { device.server.put("/d\(index % 3)/f\(index).jpg", bytes(100 + index)) }
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(report.actions.filter { $0.kind == .download && $0.status == .done }.count == 20)
        #expect(device.local("d1/f7.jpg") == bytes(107))
        #expect(try FileManager.default.contentsOfDirectory(atPath: spoolFolder(device)) == [])
    }

    @Test func aDryRunReportsFromTheSpoolAndMakesNothingInTheTree() throws {
        let device = try TestDevice()
        device.server.put("/d/a.jpg", bytes(10))
        device.server.put("/b.jpg", bytes(20))
        device.job.dryRun = true
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(report.actions.map(\.path).sorted() == ["b.jpg", "d", "d/a.jpg"])
        #expect(report.actions.allSatisfy { $0.status == .planned })
        #expect(!FileManager.default.fileExists(atPath: device.treeRoot + "/.ftpsync/spool"))
        let scratch = "ftpsync-\(ProcessInfo.processInfo.processIdentifier)-cam-"
        let left = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        #expect(!left.contains { $0.hasPrefix(scratch) })
    }

    /// The pairs a pull finds in sync and the records of files gone from both sides reach the
    /// state from the spool once the plan is accepted (issue 17: the walk holds none of them).
    @Test func adoptionsAndDroppedRecordsReachTheStateFromTheSpool() throws {
        let device = try TestDevice(connections: 2)
        let count = 2_500
        for index in 0..<count { device.server.put("/d\(index % 5)/f\(index).jpg", bytes(10 + index % 7)) }
        #expect(device.runPull().status == .ok)
        #expect(try device.store.stats(device: "cam").files == count)
        // The state lost: every file is found in sync again, nothing transferred.
        for index in 0..<count {
            try device.store.deleteRecord(
                path: try RelativePath(validating: "d\(index % 5)/f\(index).jpg"), device: "cam")
        }
        #expect(try device.store.stats(device: "cam").files == 0)
        let adopting = device.runPull()
        #expect(adopting.status == .ok && adopting.stats.filesTransferred == 0)
        #expect(try device.store.stats(device: "cam").files == count)
        // Gone from both sides: their records are dropped.
        for index in 0..<10 {
            device.server.remove("/d0/f\(index * 5).jpg")
            try FileManager.default.removeItem(atPath: device.treeRoot + "/cam/d0/f\(index * 5).jpg")
        }
        #expect(device.runPull().status == .ok)
        #expect(try device.store.stats(device: "cam").files == count - 10)
        #expect(try device.store.record(path: try RelativePath(validating: "d0/f0.jpg"), device: "cam") == nil)
    }
}
