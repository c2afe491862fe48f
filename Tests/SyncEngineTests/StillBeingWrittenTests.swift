// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// Files still being written (issue 19): a download whose file's size changed between the
/// listing and the end of the transfer is held — not placed, not recorded, noted, not a
/// failure — and the next run takes it once its size holds.
struct StillBeingWrittenTests {
    @Test(arguments: [1_000, 300_000])
    func aRecentFileTheDeviceReportsAnotherSizeForOnceDownloadedIsHeld(size: Int) throws {
        let device = try TestDevice()
        device.server.put("/clip.mov", bytes(size), modified: Date().addingTimeInterval(-60))
        device.server.lieAboutSize("/clip.mov", UInt64(size + 4_096))
        let first = device.runPull()
        #expect(first.status == .ok, "\(first.actions)")
        #expect(first.actions.map(\.status) == [.held])
        #expect(first.notes.contains { $0.contains("clip.mov: still being written") }, "\(first.notes)")
        #expect(device.local("clip.mov") == nil)
        #expect(first.stats.failed == 0)
        device.server.heal()
        let second = device.runPull()
        #expect(second.status == .ok)
        #expect(second.actions.map(\.status) == [.done])
        #expect(device.local("clip.mov") == bytes(size))
    }

    @Test func anOldFileIsNotAskedAgain() throws {
        let device = try TestDevice()
        device.server.put("/old.mov", bytes(1_000), modified: Date(timeIntervalSince1970: 1_700_000_000))
        device.server.lieAboutSize("/old.mov", 9_999)
        let report = device.runPull()
        #expect(report.actions.map(\.status) == [.done])
        #expect(device.local("old.mov") == bytes(1_000))
    }

    /// A recorded file whose size changed but not its time (a device that sets the time when it
    /// closes the file): its size is checked once downloaded, however old its time.
    @Test func aRecordedFileWithANewSizeButTheSameTimeIsCheckedOnceDownloaded() throws {
        let device = try TestDevice()
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        device.server.put("/rec.mov", bytes(1_000), modified: time)
        _ = device.runPull()
        device.server.put("/rec.mov", bytes(2_000, seed: 3), modified: time)
        device.server.lieAboutSize("/rec.mov", 3_000)
        let held = device.runPull()
        #expect(held.actions.map(\.status) == [.held], "\(held.actions)")
        #expect(device.local("rec.mov") == bytes(1_000))
        device.server.heal()
        let taken = device.runPull()
        #expect(taken.actions.map(\.status) == [.done])
        #expect(device.local("rec.mov") == bytes(2_000, seed: 3))
    }
}
