// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import SyncConfig
import SyncCore
import SyncEngine
import Testing

@testable import SyncRunner

/// `RunOptions.job(for:localRoot:)`: the option wins over the device's key, which wins over the default.
@Suite struct RunOptionsTests {
    private func device(onConflict: ConflictPolicy? = nil, connections: Int = 2, accept: Bool = false) -> DeviceConfig {
        var device = DeviceConfig(
            name: "cam", host: "::1", localPath: "/tree/cam", port: 2121, connections: connections, retries: 5,
            acceptNewIdentity: accept)
        device.onConflict = onConflict
        device.minAge = 7
        return device
    }

    /// The offload is a pull's: the option or the device's key turns it on, a push ignores
    /// both; only a `--max-delete` given limits it.
    @Test(arguments: [
        // (option, device key, direction, offloads)
        (true, false, SyncDirection.pull, true), (false, true, .pull, true), (false, false, .pull, false),
        (true, true, .push, false),
    ])
    func removeSourceIsAPullsOnly(option: Bool, key: Bool, direction: SyncDirection, offloads: Bool) {
        var options = RunOptions(direction: direction)
        options.removeSource = option
        options.removeSourceFolders = option
        var device = device()
        device.removeSource = key
        device.removeSourceFolders = key
        let policy = options.job(for: device, localRoot: "/tree").policy
        #expect(policy.removeSource == offloads && policy.removeSourceFolders == offloads)
        #expect(policy.maxOffload == nil)
        options.maxOffload = 10
        #expect(options.job(for: device, localRoot: "/tree").policy.maxOffload == (direction == .pull ? 10 : nil))
    }

    /// `hidden: false` leaves dot files and folders out on both sides, before every other rule
    /// (found by a user: the device's plain LIST hid `.hidden.txt`, so a push uploaded over it
    /// and a pull with `--delete` trashed the copy here).
    @Test func hiddenFalseLeavesDotFilesOut() throws {
        var options = RunOptions(direction: .push)
        options.filters.include = ["**"]
        var device = device()
        let shown = try FilterRules(options.job(for: device, localRoot: "/tree").filter)
        #expect(!shown.excludes(path: ".hidden.txt", isFolder: false))
        device.hidden = false
        let hidden = try FilterRules(options.job(for: device, localRoot: "/tree").filter)
        #expect(hidden.excludes(path: ".hidden.txt", isFolder: false))
        #expect(hidden.excludes(path: "DCIM/.thumbnails", isFolder: true))
        #expect(!hidden.excludes(path: "DCIM/a.jpg", isFolder: false))
    }

    @Test(arguments: [
        // (option, device key, direction, resolved)
        (ConflictPolicy?.some(.localWins), ConflictPolicy?.some(.report), SyncDirection.pull, ConflictPolicy.localWins),
        (nil, .some(.newerWins), .pull, .newerWins), (nil, nil, .pull, .keepBoth), (nil, nil, .push, .report),
        (.some(.keepBoth), nil, .push, .keepBoth),
    ])
    func onConflictFlagOverDeviceOverDefault(
        option: ConflictPolicy?, key: ConflictPolicy?, direction: SyncDirection, resolved: ConflictPolicy
    ) {
        let options = RunOptions(direction: direction, onConflict: option)
        #expect(options.job(for: device(onConflict: key), localRoot: "/tree").policy.onConflict == resolved)
    }

    @Test(arguments: [(Int?.some(5), 2, 5), (nil, 3, 3), (nil, 0, 1), (.some(0), 4, 1)])
    func connectionsFlagOverDeviceAtLeastOne(option: Int?, key: Int, resolved: Int) {
        let options = RunOptions(direction: .pull, connections: option)
        #expect(options.job(for: device(connections: key), localRoot: "/tree").connections == resolved)
    }

    @Test(arguments: [(false, false, false), (true, false, true), (false, true, true), (true, true, true)])
    func acceptNewIdentityFromFlagOrDevice(option: Bool, key: Bool, resolved: Bool) {
        let options = RunOptions(direction: .push, acceptNewIdentity: option)
        #expect(options.job(for: device(accept: key), localRoot: "/tree").acceptNewIdentity == resolved)
    }

    @Test func theRestComesFromTheDeviceAndTheDefaults() {
        let job = RunOptions(direction: .pull, dryRun: true).job(for: device(), localRoot: "/tree")
        #expect(job.policy.maxDelete == 50 && RunOptions.defaultMaxDelete == 50)
        #expect(job.policy.deleteExtraneous == false && job.policy.direction == .pull)
        #expect(job.policy.minimumAge == 7)
        #expect(job.retries == 5 && job.dryRun)
        #expect(job.host == "[::1]:2121")
        #expect(job.paths.deviceRoot == "/tree/cam")
        let unlimited = RunOptions(direction: .pull, deleteExtraneous: true, maxDelete: nil)
        #expect(unlimited.job(for: device(), localRoot: "/tree").policy.maxDelete == nil)
        #expect(RunOptions(direction: .pull).jobs == 4)
        #expect(RunOptions(direction: .pull, jobs: 0).boundedJobs == 1)
        #expect(RunOptions(direction: .pull, jobs: 9999).boundedJobs == 256)
    }

    @Test func theSessionOfATLSDeviceHasItsModeAndPin() {
        var device = DeviceConfig(
            name: "cam", host: "10.0.0.9", localPath: "/tree/cam", user: "op", tls: .explicit,
            fingerprint: "sha256:AA:BB", encoding: "latin1")
        var session = device.sessionConfiguration
        #expect(session.tls == .explicit)
        #expect(session.certificateCheck == .pinned(sha256: "sha256:AA:BB"))
        #expect(session.encoding == "latin1" && session.password == "anonymous@")
        device.insecure = true
        device.tls = .implicit
        session = device.sessionConfiguration
        #expect(session.tls == .implicit && session.certificateCheck == .insecure)
        #expect(device.insecureWarning?.contains("NOT verified") == true)
    }
}

/// `--order` over the device's `order`; neither: the plan's order (nil).
@Test(arguments: [
    (TransferOrder?.some(.newestFirst), TransferOrder?.some(.name), TransferOrder?.some(.newestFirst)),
    (nil, .some(.largestFirst), .some(.largestFirst)), (nil, nil, nil),
])
func orderFlagOverDevice(option: TransferOrder?, key: TransferOrder?, resolved: TransferOrder?) {
    var device = DeviceConfig(name: "cam", host: "h", localPath: "/tree/cam")
    device.order = key
    #expect(RunOptions(direction: .pull, order: option).job(for: device, localRoot: "/tree").order == resolved)
}
