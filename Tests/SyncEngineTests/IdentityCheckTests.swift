// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import RemoteTestSupport
import Testing

@testable import SyncEngine

/// The identity check of a device run, through `RemoteFileSystem.identity()`.
struct IdentityCheckTests {
    @Test func anotherServerAtTheAddressIsRefused() throws {
        let device = try TestDevice()
        device.server.put("/a.jpg", bytes(10))
        #expect(device.runPull().status == .ok)
        device.server.identity.system = "215 Windows_NT"
        device.server.put("/b.jpg", bytes(10))
        let report = device.runPull()
        #expect(report.status == .refused)
        #expect(device.local("b.jpg") == nil)
    }

    @Test func aNewBannerIsTakenForAFirmwareUpdate() throws {
        let device = try TestDevice()
        #expect(device.runPull().status == .ok)
        device.server.identity.banner = "220 memory FTP 2.0"
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(report.notes.contains { $0.contains("firmware update") })
    }
}
