// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import RemoteTestSupport
import SyncCore
import SyncStore
import Testing

@testable import SyncEngine

/// The checks an offload makes before its DELE (`PullExecutor.offload`), on a memory server:
/// a copy here that no longer holds the device's bytes (same size and time, other content)
/// keeps the device file, whether the server's hash or the sampled bytes tell.
struct OffloadCheckTests {
    private func offload(_ device: TestDevice) -> DeviceReport {
        var job = device.job
        job.policy = SyncPolicy(direction: .pull)
        job.policy.removeSource = true
        return DeviceRun(job: job, store: device.store, connect: device.server.connect).run()
    }

    @Test(arguments: [false, true])
    func aCopyHereWithOtherBytesKeepsTheDeviceFile(hash: Bool) throws {
        let device = try TestDevice()
        device.server.offersHash = hash
        device.server.put("/a.jpg", bytes(50_000))
        device.server.put("/b.jpg", bytes(50_000, seed: 2))
        #expect(device.runPull().status == .ok)
        // The copy here rots: same size, same time, other bytes in its middle.
        var rotten = bytes(50_000)
        rotten[25_000] ^= 0xFF
        try device.writeLocal("a.jpg", rotten)
        let report = offload(device)
        #expect(report.status == .ok, "\(report)")
        let why = hash ? "the server's" : "the sampled bytes on the device differ"
        #expect(report.notes.contains { $0.hasPrefix("a.jpg: not offloaded, \(why)") }, "\(report.notes)")
        #expect(device.server.file("/a.jpg") != nil)
        #expect(device.server.file("/b.jpg") == nil)
        #expect(report.actions.map(\.path) == ["b.jpg"] && report.actions.map(\.kind) == [.deleteRemote])
        #expect(try device.store.record(path: RelativePath(validating: "b.jpg"), device: "cam")?.offloaded == true)
    }
}
