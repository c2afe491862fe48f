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
}
