import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// Listing a device's tree over several connections, and the folders one of them fails.
struct ParallelListingTests {
    /// A device with 8 folders of 2 files each, listed in a dry run (nothing is transferred).
    private func device(connections: Int) throws -> TestDevice {
        let device = try TestDevice(connections: connections)
        device.job.dryRun = true
        for folder in 0..<8 {
            for file in 0..<2 { device.server.put("/d\(folder)/s/f\(file).jpg", bytes(100)) }
        }
        return device
    }

    @Test func theTreeIsListedOverSeveralConnections() throws {
        let device = try device(connections: 3)
        device.server.delay = 0.005
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(report.actions.filter { $0.kind == .download }.count == 16)
        #expect(device.server.connects > 1)
        #expect(device.server.count("LIST") == 17)
    }

    @Test func oneConnectionListsASmallTree() throws {
        let device = try TestDevice(connections: 3)
        device.job.dryRun = true
        device.server.put("/a.jpg", bytes(10))
        _ = device.runPull()
        #expect(device.server.connects == 1)
    }

    @Test func aFolderAnExtraConnectionFailsIsListedByTheFirst() throws {
        let device = try device(connections: 3)
        device.server.delay = 0.005
        device.server.listFailsOnConnections = [2, 3]
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(report.actions.filter { $0.kind == .download }.count == 16)
    }

    @Test func aFolderListedAsItsParentIsNotDescended() throws {
        let device = try device(connections: 1)
        device.server.alias("/d3", shows: "/")
        let report = device.runPull()
        #expect(report.status == .partial)
        #expect(report.error?.contains("d3") == true)
    }
}
