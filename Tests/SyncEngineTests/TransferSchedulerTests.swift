// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// The transfers of a plan spread over several connections, and the connections that die or
/// cannot be opened.
struct TransferSchedulerTests {
    private func device(connections: Int, files: Int = 12) throws -> TestDevice {
        let device = try TestDevice(connections: connections)
        for index in 0..<files { device.server.put("/f\(index).jpg", bytes(20_000, seed: UInt8(index))) }
        return device
    }

    private func expectAllPulled(_ device: TestDevice, files: Int = 12) {
        for index in 0..<files { #expect(device.local("f\(index).jpg") == bytes(20_000, seed: UInt8(index))) }
    }

    @Test func transfersGoOverSeveralConnections() throws {
        let device = try device(connections: 3)
        device.server.delay = 0.01
        let report = device.runPull()
        #expect(report.status == .ok)
        expectAllPulled(device)
        #expect(device.server.mostOpenConnections == 3)
        // Every extra connection ends with QUIT.
        #expect(device.server.count("QUIT") == device.server.connects)
    }

    @Test func aConnectionLimitLeavesTheDeviceWithTheConnectionsItHas() throws {
        let device = try device(connections: 3)
        device.server.connectionLimit = 1
        let report = device.runPull()
        #expect(report.status == .ok)
        expectAllPulled(device)
        #expect(device.server.mostOpenConnections == 1)
        #expect(report.notes.contains { $0.contains("refused an extra connection") })
    }

    @Test func aSiblingThatCannotOpenIsLeftOut() throws {
        let device = try device(connections: 3)
        device.server.connectsFailFrom = 2
        let report = device.runPull()
        #expect(report.status == .ok)
        expectAllPulled(device)
        #expect(device.server.connects == 1)
    }

    /// A run stopped before its extra connections open reports the stop, not a server that
    /// "refused an extra connection".
    @Test func aStoppedRunIsNoRefusedConnection() throws {
        let device = try device(connections: 3)
        let token = device.job.cancellation
        let report = device.runPull(events: { event in
            if case .planned = event { token.cancel() }
        })
        #expect(report.status == .partial)
        #expect(report.error?.hasPrefix("interrupted") == true, "\(report.error ?? "")")
        #expect(!report.notes.contains { $0.contains("refused an extra connection") }, "\(report.notes)")
    }

    @Test func aReconnectingRemoteThatWentDownIsNotUsable() throws {
        let server = MemoryServer()
        let remote = try ResilientRemote.open(
            policy: RetryPolicy(retries: 0, baseDelay: 0.01, maximumDelay: 0.01), cancellation: CancellationToken(),
            connect: server.connect)
        let worker = ConnectionWorker(remote: remote, executor: RecordingExecutor())
        #expect(worker.isUsable())
        server.dropAtCommand = 1
        server.connectsFailFrom = 2
        #expect(throws: (any Error).self) { try remote.list("/") }
        #expect(!worker.isUsable())
    }

    @Test func aLostPlainConnectionIsNotUsable() throws {
        let server = MemoryServer()
        let remote = try server.connect()
        let worker = ConnectionWorker(remote: remote, executor: RecordingExecutor())
        server.dropAtCommand = 1
        #expect(throws: (any Error).self) { try remote.list("/") }
        #expect(!worker.isUsable())
    }

    @Test func theOutcomesComeBackInThePlansOrder() throws {
        let device = try device(connections: 3)
        let report = device.runPull()
        let paths = report.actions.map(\.path)
        #expect(paths.count == 12)
        #expect(Set(paths).count == 12)
        #expect(report.stats.filesTransferred == 12)
    }
}
