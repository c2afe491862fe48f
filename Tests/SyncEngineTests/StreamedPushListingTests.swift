// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// A push plans folder by folder (issue 17): each device folder is listed as the walk reaches
/// it, a bounded window ahead (`RemoteWalk`), never the whole tree before the first action.
struct StreamedPushListingTests {
    /// Notes, at each action the walk writes, how many folders the device listed so far.
    private final class ListingCounter: PlanWriter {
        let server: MemoryServer
        var listedAt: [(path: RelativePath, listed: Int)] = []

        init(_ server: MemoryServer) { self.server = server }

        func append(_ action: Action, to section: PlanSection) throws {
            listedAt.append((action.path, server.count("LIST")))
        }

        func adopt(_ adoption: Adoption) throws {}

        func forget(_ path: RelativePath) throws {}
    }

    @Test func aPushListsTheDeviceFolderByFolderABoundedWindowAhead() throws {
        let connections = 2
        let device = try TestDevice(connections: connections)
        device.job.policy = SyncPolicy(direction: .push)
        device.job.dryRun = true
        let folders = 60
        for folder in 0..<folders {
            let name = "d" + String(100 + folder)
            device.server.put("/\(name)/old.jpg", bytes(10))
            try device.writeLocal("\(name)/new.jpg", bytes(20))
        }
        let run = DeviceRun(job: device.job, store: device.store, connect: device.server.connect)
        let remote = try ResilientRemote.open(
            policy: RetryPolicy(retries: 0), cancellation: device.job.cancellation, connect: device.server.connect)
        defer { remote.close() }
        let counter = ListingCounter(device.server)
        var report = DeviceReport(name: "cam")
        _ = try PushDirection(run: run, started: Date()).plan(remote: remote, into: counter, report: &report)
        let uploads = counter.listedAt.filter { $0.path.name == "new.jpg" }
        #expect(uploads.count == folders)
        // The root, the folders walked so far, and at most the window ahead (or being listed).
        let ahead = connections * RemoteWalk.windowPerConnection + connections
        for (walked, upload) in uploads.enumerated() {
            #expect(upload.listed <= 1 + walked + 1 + ahead, "\(upload.listed) folders listed at \(upload.path)")
        }
        #expect(uploads.first.map { $0.listed < 1 + folders } == true)
        #expect(device.server.count("LIST") == 1 + folders)
    }
}
