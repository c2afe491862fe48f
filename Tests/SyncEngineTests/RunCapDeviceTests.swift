// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import SyncCore
import Testing

@testable import SyncEngine

/// A device run under a run cap: what it starts, what it defers, how it reports, and that a
/// transfer the cap cuts resumes on the next run.
struct RunCapDeviceTests {
    /// `device` with `caps` made by `make` under the device's own token, set on its job.
    private func capped(_ device: TestDevice, _ make: (CancellationToken) -> RunCaps?) throws -> RunCaps {
        let caps = try #require(make(device.job.cancellation))
        device.job.caps = caps
        device.job.cancellation = caps.cancellation
        return caps
    }

    /// With one connection, the transfers start in the plan's order while the run is below the
    /// cap; the one that crosses it finishes; the rest is deferred, and so is every other action
    /// after it (a delete may rest on a transfer). Nothing failed: the device is `stopped`.
    @Test func theCapStopsStartingActionsAndTheNextRunDoesTheRest() throws {
        let device = try TestDevice(connections: 1)
        device.server.put("/gone.jpg", bytes(10))
        #expect(device.runPull().status == .ok)
        let synced = try device.store.lastSync(device: "cam")
        device.server.remove("/gone.jpg")
        for index in 0..<5 { device.server.put("/f\(index).jpg", bytes(20_000, seed: UInt8(index))) }
        _ = try capped(device) { RunCaps(maxBytes: 50_000, maxSeconds: nil, within: $0) }
        let report = device.runPull(deleteExtraneous: true)
        #expect(report.status == .stopped, "\(report.error ?? "")")
        #expect(report.error == "--max-transfer was reached; the next run continues")
        let done = report.actions.filter { $0.status == .done }.map(\.path)
        #expect(done == ["f0.jpg", "f1.jpg", "f2.jpg"])
        let deferred = report.actions.filter { $0.status == .deferred }
        #expect(deferred.map(\.path) == ["f3.jpg", "f4.jpg", "gone.jpg"])
        #expect(deferred.allSatisfy { $0.error?.hasPrefix("not started: --max-transfer was reached") == true })
        #expect(report.left?.files == 2 && report.left?.bytes == 40_000 && report.left?.actions == 3)
        #expect(report.left?.cut == 0)
        #expect(report.stats.failed == 0 && report.stats.filesTransferred == 3)
        #expect(device.local("f3.jpg") == nil)
        // The delete waited for the next run: the file is still there.
        #expect(device.local("gone.jpg") == bytes(10))
        // Not a sync: the last sync stays the first run's.
        #expect(try device.store.lastSync(device: "cam") == synced)

        device.job.caps = nil
        device.job.cancellation = CancellationToken()
        let next = device.runPull(deleteExtraneous: true)
        #expect(next.status == .ok, "\(next.error ?? "")")
        #expect(next.actions.map(\.path).sorted() == ["f3.jpg", "f4.jpg", "gone.jpg"])
        #expect(next.left == nil)
        #expect(try device.store.lastSync(device: "cam") ?? .distantPast > synced ?? .distantFuture)
        for index in 0..<5 { #expect(device.local("f\(index).jpg") == bytes(20_000, seed: UInt8(index))) }
    }

    /// Offloads go on after a cap (found by a user): a capped run that defers the backlog still
    /// deletes on the device what is copied and verified here, else a camera's card under
    /// `--max-duration` never empties while its backlog outlasts one run.
    @Test func offloadsStillRunAfterTheCap() throws {
        let device = try TestDevice(connections: 1)
        device.server.put("/old.jpg", bytes(10_000, seed: 7))
        #expect(device.runPull().status == .ok)
        for index in 0..<3 { device.server.put("/f\(index).jpg", bytes(20_000, seed: UInt8(index))) }
        _ = try capped(device) { RunCaps(maxBytes: 10_000, maxSeconds: nil, within: $0) }
        var job = device.job
        job.policy = SyncPolicy(direction: .pull)
        job.policy.removeSource = true
        let report = DeviceRun(job: job, store: device.store, connect: device.server.connect).run()
        #expect(report.status == .stopped, "\(report.error ?? "")")
        let onDevice = ["old.jpg", "f0.jpg", "f1.jpg", "f2.jpg"].filter { device.server.file("/" + $0) != nil }
        // f0 crossed the cap: its download finished, so it is offloaded too.
        #expect(onDevice == ["f1.jpg", "f2.jpg"], "\(report.actions)")
        #expect(device.local("old.jpg") == bytes(10_000, seed: 7) && device.local("f0.jpg") == bytes(20_000, seed: 0))
        #expect(device.local("f1.jpg") == nil)
    }

    /// The transfer in flight when the grace runs out is cut at its next chunk: deferred, not
    /// failed; its bytes stay under `.ftpsync/partial/`, and the next run resumes it (REST)
    /// instead of fetching it again.
    @Test func aTransferCutAfterTheGraceResumesOnTheNextRun() throws {
        let device = try TestDevice(connections: 1)
        let big = bytes(400_000, seed: 9)
        device.server.put("/big.mov", big)
        // The grace runs out at once: the cut comes at the chunk after the cap.
        _ = try capped(device) { run in
            RunCaps(maxBytes: 100_000, maxSeconds: nil, within: run, schedule: { _, work in work() })
        }
        let report = device.runPull()
        #expect(report.status == .stopped, "\(report.error ?? "")")
        let action = try #require(report.actions.first)
        #expect(action.status == .deferred)
        #expect(action.error == "cut 10 s after --max-transfer was reached; the next run resumes from here")
        #expect(report.left?.cut == 1 && report.left?.files == 1 && report.stats.failed == 0)
        let path = try RelativePath(validating: "big.mov")
        let kept = (try? FileManager.default.attributesOfItem(atPath: device.job.paths.partial(path)))?[.size] as? Int
        #expect((kept ?? 0) >= 100_000 && (kept ?? 0) < 400_000, "\(kept ?? -1)")
        #expect(device.local("big.mov") == nil)

        device.job.caps = nil
        device.job.cancellation = CancellationToken()
        let next = device.runPull()
        #expect(next.status == .ok, "\(next.error ?? "")")
        #expect(next.actions.first?.offset == UInt64(kept ?? 0))
        #expect(device.local("big.mov") == big)
    }

    /// A push under a cap that is reached by its first upload defers the rest.
    @Test func aPushStopsStartingUploads() throws {
        let device = try TestDevice(connections: 1)
        for index in 0..<3 { try device.writeLocal("u\(index).bin", bytes(30_000, seed: UInt8(index))) }
        _ = try capped(device) { RunCaps(maxBytes: 1, maxSeconds: nil, within: $0) }
        let report = device.runPush()
        #expect(report.status == .stopped, "\(report.error ?? "")")
        #expect(report.actions.filter { $0.status == .done }.count == 1)
        #expect(report.left?.files == 2 && report.left?.bytes == 60_000)
        #expect(device.server.filePaths.filter { $0.hasSuffix(".bin") }.count == 1)
    }

    /// A cap reached before the plan is carried out defers everything; skipped entries still
    /// make the device `partial` (an error outweighs a cap).
    @Test func aDurationReachedBeforeTheFirstActionDefersThemAll() throws {
        let device = try TestDevice(connections: 2)
        for index in 0..<4 { device.server.put("/f\(index).jpg", bytes(1_000, seed: UInt8(index))) }
        _ = try capped(device) { RunCaps(maxBytes: nil, maxSeconds: 0, within: $0) }
        let report = device.runPull()
        #expect(report.status == .stopped)
        #expect(report.actions.count == 4 && report.actions.allSatisfy { $0.status == .deferred })
        #expect(report.left?.files == 4 && report.left?.actions == 4)
        #expect(device.server.count("RETR") == 0)
        // No extra connection is opened only to defer actions.
        #expect(device.server.connects == 1)

        var stopped = DeviceReport(name: "cam")
        stopped.status = .stopped
        stopped.error = "--max-duration was reached; the next run continues"
        stopped.skip(path: "odd", reason: "unsafe name")
        stopped.settleSkipped()
        #expect(stopped.status == .partial)
        #expect(stopped.error == "--max-duration was reached; the next run continues; 1 entry skipped")
    }

    /// A cut that comes before the plan was made (the device still connecting or listing)
    /// stops the device too: `stopped`, nothing failed, what it had to do unknown.
    @Test func aCutBeforeThePlanStopsTheDeviceWithNothingKnownLeft() throws {
        let device = try TestDevice(connections: 1)
        device.server.put("/f.jpg", bytes(1_000))
        _ = try capped(device) { run in
            RunCaps(maxBytes: nil, maxSeconds: 0, within: run, schedule: { _, work in work() })
        }
        let report = device.runPull()
        #expect(report.status == .stopped, "\(report.error ?? "")")
        #expect(report.error == "cut 10 s after --max-duration was reached; the next run resumes from here")
        #expect(report.left == .unknown)
        #expect(report.actions.isEmpty && report.stats.failed == 0)
    }
}
