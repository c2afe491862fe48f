// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncConfig
import SyncEngine
import SyncStore
import Testing

@testable import SyncRunner

/// `SyncRunner.run()` against a device nothing listens for (127.0.0.1 port 9, `retries: 0`):
/// the lock, the dry run, the selection, the events and the cancellation token.
@Suite struct SyncRunnerTests {
    /// A fresh local tree and a configuration of two unreachable devices in it.
    private func configuration() throws -> Configuration {
        let root = NSTemporaryDirectory() + "sync-runner-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let devices = ["a", "b"].map { name in
            DeviceConfig(name: name, host: "127.0.0.1", localPath: root + "/" + name, port: 9, timeout: 2, retries: 0)
        }
        return Configuration(localRoot: root, devices: devices, configPath: root + "/device.yaml")
    }

    @Test func aHeldLockIsAResultNotACrash() throws {
        let configuration = try configuration()
        let lock = try RunLock.acquire(localRoot: configuration.localRoot)
        defer { lock.release() }
        let result = try SyncRunner(configuration: configuration, options: RunOptions(direction: .pull)).run()
        guard case .locked(let held) = result else {
            Issue.record("ran while the lock was held: \(result)")
            return
        }
        #expect(held.localRoot == configuration.localRoot)
        #expect(held.pid == getpid())
        #expect(held.description.contains("holds the lock on \(configuration.localRoot); nothing was done"))
        #expect(result.reports.isEmpty)
    }

    @Test func aDryRunCreatesNothing() throws {
        let configuration = try configuration()
        let runner = try SyncRunner(configuration: configuration, options: RunOptions(direction: .push, dryRun: true))
        let reports = try runner.run().reports
        #expect(reports.map(\.name) == ["a", "b"])
        #expect(reports.allSatisfy { $0.status == .failed })
        #expect(try FileManager.default.contentsOfDirectory(atPath: configuration.localRoot).isEmpty)
    }

    @Test func aRealRunTakesTheLockAndOpensTheState() throws {
        let configuration = try configuration()
        let options = RunOptions(direction: .pull, devices: ["b"])
        let reports = try SyncRunner(configuration: configuration, options: options).run().reports
        #expect(reports.map(\.name) == ["b"])
        #expect(FileManager.default.fileExists(atPath: configuration.localRoot + "/.ftpsync/state.sqlite"))
        // Released at the end of the run: the next one takes it.
        let lock = try RunLock.acquire(localRoot: configuration.localRoot)
        lock.release()
    }

    @Test func anUnknownDeviceIsRefusedBeforeTheRun() throws {
        let configuration = try configuration()
        #expect(throws: UnknownDeviceError.self) {
            try SyncRunner(configuration: configuration, options: RunOptions(direction: .pull, devices: ["x"]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: configuration.localRoot).isEmpty)
    }

    @Test func aCancelledTokenStopsEveryDeviceBeforeItConnects() throws {
        let configuration = try configuration()
        let token = CancellationToken()
        token.cancel()
        let runner = try SyncRunner(
            configuration: configuration, options: RunOptions(direction: .pull, dryRun: true), cancellation: token)
        let reports = try runner.run().reports
        #expect(reports.count == 2)
        // Interrupted is not failed: nothing went wrong, the next run does the work (`partial`).
        for report in reports {
            #expect(report.status == .partial)
            #expect(report.error == RunInterrupted().description, "\(report.error ?? "")")
        }
    }

    @Test func aTokenCancelledDuringTheWaitEndsIt() throws {
        let token = CancellationToken()
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { token.cancel() }
        #expect(throws: RunInterrupted.self) { try token.sleep(30) }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(token.isCancelled)
    }

    @Test func theHandlerAndTheStreamGetEveryDevicesEvents() async throws {
        let configuration = try configuration()
        let seen = Seen()
        let runner = try SyncRunner(
            configuration: configuration, options: RunOptions(direction: .pull, dryRun: true, jobs: 1),
            events: { seen.add($0) })
        let stream = runner.eventStream()
        let result = try await runner.runInBackground()
        var streamed: [String] = []
        for await event in stream { streamed.append(Seen.describe(event)) }
        #expect(result.reports.count == 2)
        #expect(streamed == ["started a", "finished a failed", "started b", "finished b failed"])
        #expect(seen.all == streamed)
    }
}

/// Events seen by a handler, from any thread.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []

    static func describe(_ event: SyncEvent) -> String {
        switch event {
        case .deviceStarted(let device): return "started \(device)"
        case .deviceFinished(let device, let report): return "finished \(device) \(report.status.rawValue)"
        default: return "other"
        }
    }

    func add(_ event: SyncEvent) {
        lock.lock()
        events.append(Seen.describe(event))
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}
