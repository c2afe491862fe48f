// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import RemoteTestSupport
import SyncCore
import SyncStore
import Testing

@testable import SyncEngine

/// The transitions a real device run records in the state (`DeviceEvent`): offline and back,
/// another identity, the delete guard, a jump of the device clock's offset; a dry run none.
struct DeviceTransitionTests {
    private func kinds(_ device: TestDevice) throws -> [DeviceEvent.Kind] {
        try device.store.recentEvents(device: "cam").map(\.kind)
    }

    @Test func offlineOnceThenBackOnce() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(10))
        #expect(device.runPull().status == .ok)
        #expect(try kinds(device).isEmpty)
        device.server.connectsFailFrom = 1
        #expect(device.runPull().status == .failed)
        #expect(device.runPull().status == .failed)
        let offline = try #require(try device.store.recentEvents(device: "cam").first)
        #expect(try kinds(device) == [.offline])
        #expect(offline.detail?.contains("connection refused") == true, "\(offline)")
        device.server.connectsFailFrom = nil
        #expect(device.runPull().status == .ok)
        #expect(device.runPull().status == .ok)
        #expect(try kinds(device) == [.back, .offline])
        let back = try #require(try device.store.recentEvents(device: "cam").first)
        #expect(back.detail?.contains("offline since") == true, "\(back)")
    }

    /// The sync's time is the attempt's: the metrics file's last success is never before the
    /// last run of the same successful run (it was a few milliseconds before it).
    @Test func aSuccessfulRunsSyncTimeIsItsAttemptsTime() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(10))
        #expect(device.runPull().status == .ok)
        let attempt = try #require(try device.store.lastAttempt(device: "cam"))
        #expect(try device.store.lastSync(device: "cam") == attempt.at)
        device.server.connectsFailFrom = 1
        #expect(device.runPull().status == .failed)
        #expect(try device.store.lastSync(device: "cam") == attempt.at)
    }

    @Test func aFirstRunThatCannotConnectIsOffline() throws {
        let device = try TestDevice()
        device.server.connectsFailFrom = 1
        #expect(device.runPull().status == .failed)
        #expect(try kinds(device) == [.offline])
    }

    @Test func aDryRunRecordsNothing() throws {
        let device = try TestDevice()
        device.server.connectsFailFrom = 1
        device.job.dryRun = true
        #expect(device.runPull().status == .failed)
        #expect(try kinds(device).isEmpty)
    }

    @Test func anotherIdentityRefusedOrAcceptedIsRecorded() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(10))
        #expect(device.runPull().status == .ok)
        device.server.identity.system = "215 Windows_NT"
        #expect(device.runPull().status == .refused)
        #expect(try kinds(device) == [.identityChanged])
        #expect(try device.store.recentEvents(device: "cam").first?.detail?.contains("refused") == true)
        device.job.acceptNewIdentity = true
        #expect(device.runPull().status == .ok)
        #expect(try kinds(device) == [.identityChanged, .identityChanged])
        #expect(try device.store.recentEvents(device: "cam").first?.detail?.contains("accepted") == true)
    }

    /// Another tree at the device's address (`ListingOverlap`) is a changed identity, not the
    /// delete guard.
    @Test func anotherTreeAtTheAddressIsAChangedIdentity() throws {
        let device = try TestDevice()
        for index in 0..<25 { device.server.put("/f\(index).jpg", bytes(10, seed: UInt8(index))) }
        #expect(device.runPull().status == .ok)
        for index in 0..<25 {
            device.server.remove("/f\(index).jpg")
            device.server.put("/other\(index).jpg", bytes(20, seed: UInt8(index)))
        }
        let report = device.runPull()
        #expect(report.status == .refused, "\(report.error ?? "")")
        #expect(try kinds(device) == [.identityChanged])
    }

    @Test func aPlanRefusedByTheDeleteGuardIsRecorded() throws {
        let device = try TestDevice()
        for index in 0..<3 { device.server.put("/f\(index).jpg", bytes(10, seed: UInt8(index))) }
        #expect(device.runPull().status == .ok)
        for index in 0..<3 { device.server.remove("/f\(index).jpg") }
        device.server.put("/kept.jpg", bytes(10))
        var job = device.job
        job.policy = SyncPolicy(direction: .pull, deleteExtraneous: true, maxDelete: 1)
        let report = DeviceRun(job: job, store: device.store, connect: device.server.connect).run()
        #expect(report.status == .refused, "\(report.error ?? "")")
        #expect(try kinds(device) == [.deleteGuard])
    }

    @Test func aClockOffsetThatMovesMoreThanADayIsAJump() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(10))
        var offset: Double? = 0
        let connect = { [server = device.server] () throws -> RemoteFileSystem in
            let remote = try server.connect()
            remote.learned.clockOffset = offset
            return remote
        }
        let run = { DeviceRun(job: device.job, store: device.store, connect: connect).run() }
        #expect(run().status == .ok)
        #expect(try device.store.clockOffset(device: "cam") == 0)
        offset = 3_600  // within the threshold: no event, stored
        #expect(run().status == .ok)
        #expect(try kinds(device).isEmpty)
        offset = -2 * 365 * 86_400  // a reset clock
        #expect(run().status == .ok)
        #expect(try kinds(device) == [.clockJump])
        let detail = try #require(try device.store.recentEvents(device: "cam").first?.detail)
        #expect(detail.contains("+0.0 days") && detail.contains("-730.0 days"), "\(detail)")
        offset = nil  // not measured: the stored value stays
        #expect(run().status == .ok)
        #expect(try device.store.clockOffset(device: "cam") == -2 * 365 * 86_400)
        #expect(try kinds(device) == [.clockJump])
    }

    @Test(
        arguments: [
            (nil, 10.0, false), (0, nil, false), (0, 86_400, false), (0, 86_401, true), (86_401, 0, true),
            (-63_072_000, -63_072_000 + 60, false), (.nan, 0, false),
        ] as [(Double?, Double?, Bool)])
    func theJumpDecision(stored: Double?, measured: Double?, jumps: Bool) {
        #expect((ClockOffsetCheck.jump(from: stored, to: measured) != nil) == jumps)
    }

    @Test func theReachDecision() {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let offline = DeviceEvent(device: "cam", at: at, kind: .offline, detail: nil)
        let back = DeviceEvent(device: "cam", at: at, kind: .back, detail: nil)
        #expect(DeviceTransitions.reachEvent(reached: true, last: nil, error: nil) == nil)
        #expect(DeviceTransitions.reachEvent(reached: true, last: back, error: nil) == nil)
        #expect(DeviceTransitions.reachEvent(reached: true, last: offline, error: nil)?.0 == .back)
        #expect(DeviceTransitions.reachEvent(reached: false, last: nil, error: "x")?.0 == .offline)
        #expect(DeviceTransitions.reachEvent(reached: false, last: back, error: "x")?.1 == "x")
        #expect(DeviceTransitions.reachEvent(reached: false, last: offline, error: "x") == nil)
        #expect(DeviceTransitions.reached(after: FTPError.connectionClosed) == false)
        #expect(DeviceTransitions.reached(after: RunInterrupted()) == nil)
    }
}
