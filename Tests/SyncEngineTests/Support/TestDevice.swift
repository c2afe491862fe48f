// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import SyncEngine
import SyncStore

/// A device of the engine's unit tests: a local tree in a temporary folder, its state, and a
/// `MemoryServer`. Pull and push run through `runPull`/`runPush` only, so that when the two
/// engines become one device run, only these two functions change.
final class TestDevice {
    let server = MemoryServer()
    let treeRoot: String
    let store: StateStore
    var job: DeviceJob

    /// - Parameters:
    ///   - retries: the job's retries (`DeviceJob.retries`).
    ///   - connections: control connections allowed (`DeviceJob.connections`).
    init(retries: Int = 0, connections: Int = 1) throws {
        treeRoot = NSTemporaryDirectory() + "engine-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: treeRoot + "/cam", withIntermediateDirectories: true)
        store = try StateStore.open(localRoot: treeRoot)
        job = DeviceJob(
            name: "cam", remoteRoot: "/",
            paths: LocalPaths(treeRoot: treeRoot, deviceRoot: treeRoot + "/cam", device: "cam"),
            filter: [], timeZone: TimeZone(identifier: "UTC")!, policy: SyncPolicy(direction: .pull), dryRun: false)
        job.retries = retries
        job.connections = connections
        job.host = "memory:21"
    }

    deinit { try? FileManager.default.removeItem(atPath: treeRoot) }

    /// Pulls the device through the engine's real `connect` closure.
    func runPull(deleteExtraneous: Bool = false, events: SyncEventHandler? = nil) -> DeviceReport {
        var pull = job
        pull.policy = SyncPolicy(direction: .pull, deleteExtraneous: deleteExtraneous)
        return DeviceRun(job: pull, store: store, events: events, connect: server.connect).run()
    }

    /// Pushes the local tree to the device through the engine's real `connect` closure.
    func runPush(deleteExtraneous: Bool = false) -> DeviceReport {
        var push = job
        push.policy = SyncPolicy(direction: .push, deleteExtraneous: deleteExtraneous)
        return DeviceRun(job: push, store: store, connect: server.connect).run()
    }

    /// The local file at `relative` below the device's folder, nil when missing.
    func local(_ relative: String) -> [UInt8]? {
        FileManager.default.contents(atPath: job.paths.deviceRoot + "/" + relative).map { [UInt8]($0) }
    }

    /// Writes a local file below the device's folder (its folders made), modified at `modified`.
    func writeLocal(_ relative: String, _ bytes: [UInt8], modified: Date = Date(timeIntervalSince1970: 1_700_000_000))
        throws
    {
        let path = job.paths.deviceRoot + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    }
}

/// `count` bytes that differ from one `seed` to another.
func bytes(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7 &+ ($0 >> 8)) }
}
