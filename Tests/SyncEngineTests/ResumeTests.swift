// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// Resuming a download: over a broken transfer in one run, and from a partial an earlier run kept.
struct ResumeTests {
    private let size = 300_000

    @Test func aTransferCutMidwayResumesWithREST() throws {
        let device = try TestDevice(retries: 1)
        device.server.put("/big.mov", bytes(size))
        device.server.cut("/big.mov", after: 40_000)
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(device.local("big.mov") == bytes(size))
        #expect(device.server.count("RETR") == 2)
        #expect(device.server.count("REST") == 1)
    }

    /// A first run whose transfer of `/big.mov` ends early, after 100 000 bytes: the partial is kept.
    private func deviceWithAPartial() throws -> TestDevice {
        let device = try TestDevice()
        device.server.put("/big.mov", bytes(size))
        device.server.shortRetrieve("/big.mov", bytes: 100_000)
        let first = device.runPull()
        #expect(first.status == .partial)
        #expect(device.local("big.mov") == nil)
        device.server.heal()
        return device
    }

    @Test func aPartialOfAnEarlierRunIsResumed() throws {
        let device = try deviceWithAPartial()
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(device.local("big.mov") == bytes(size))
        #expect(report.actions.first?.offset == 100_000)
        #expect(report.stats.bytesTransferred < UInt64(size))
    }

    @Test func aRefusedRESTStartsTheFileOver() throws {
        let device = try deviceWithAPartial()
        device.server.refused = ["REST"]
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(device.local("big.mov") == bytes(size))
    }

    @Test func keptBytesThatNoLongerMatchAreNotSpliced() throws {
        let device = try deviceWithAPartial()
        // The same size and time, other bytes: the kept 100 000 bytes are no longer the file's.
        let file = try #require(device.server.file("/big.mov"))
        device.server.put("/big.mov", bytes(size, seed: 77), modified: file.modified)
        let report = device.runPull()
        #expect(report.status == .ok)
        #expect(device.local("big.mov") == bytes(size, seed: 77))
    }
}
