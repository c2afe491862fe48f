// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore
import Synchronization

/// Runs a sync of a configuration's devices: takes the local tree's lock, opens its state, runs
/// the devices on threads of its own (at most `RunOptions.jobs` at a time), tells what happens
/// as it happens, and returns the reports.
///
/// ```swift
/// let configuration = try ConfigLoader.load(path: "device.yaml", environment: [:])
/// let runner = try SyncRunner(configuration: configuration, options: RunOptions(direction: .pull))
/// if case .finished(let reports) = try runner.run() {
///     for report in reports { print(report.name, report.status) }
/// }
/// ```
///
/// Events come through the `events` handler (on the devices' threads) and through every
/// `eventStream()` made before the run. `cancellation.cancel()` (from any thread) stops the run
/// at its next safe point: no new action starts, a transfer stops at its next chunk and resumes
/// on the next run; the devices report `partial`.
public final class SyncRunner: Sendable {
    /// The configuration run.
    public let configuration: Configuration
    /// The direction, dry run, device selection and overrides.
    public let options: RunOptions
    /// The devices this run runs: `options.devices` (all when empty), in the configuration's order.
    public let devices: [DeviceConfig]
    /// The stop request of this run; cancel it to stop.
    public let cancellation: CancellationToken
    private let events: SyncEventHandler?
    private let commandLog: (@Sendable (_ device: String, _ line: String) -> Void)?
    private let streams = EventStreams()
    private let purged = Mutex<TrashPurge.Outcome?>(nil)
    private let capped = Mutex<RunCap?>(nil)

    /// What the last `run()` did to the trash: a real pull, after its devices, removes the
    /// trash folders older than `trash_retention` (`TrashPurge`). Nil before a run, and for a
    /// push, a dry run, a run that found the lock held, or a retention of 0 (keep forever).
    public var trashPurge: TrashPurge.Outcome? { purged.withLock { $0 } }

    /// The cap (`RunOptions.maxTransfer`, `maxDuration`) that stopped the last `run()` early:
    /// it was reached and left work of a device for the next run (`DeviceReport.left`). Nil
    /// before a run, for a run no cap stopped, and for a dry run (caps apply when carrying out).
    public var stoppedBy: RunCap? { capped.withLock { $0 } }

    private let lastShard = Mutex<Shard?>(nil)
    /// The shard (`--shard`) whose run last wrote the local tree, as the last `run()` found it
    /// before it began; nil when none did. A run without a shard on such a tree syncs every
    /// device into it (not refused; the CLI says so).
    public var treeShard: Shard? { lastShard.withLock { $0 } }

    /// Prepares a run; connects to nothing and changes nothing yet.
    /// - Parameters:
    ///   - cancellation: the token the caller holds to stop the run; a fresh one by default.
    ///   - events: told every `SyncEvent`, on the devices' threads (quick and thread-safe).
    ///   - commandLog: told each FTP command and reply of a device (PASS masked), with its name.
    /// - Throws: `UnknownDeviceError` when `options.devices` names a device the configuration
    ///   lacks, `OutsideShardError` when it names one outside `options.shard`; `ConfigError`
    ///   when a pull would write two devices into one folder.
    public init(
        configuration: Configuration, options: RunOptions, cancellation: CancellationToken = CancellationToken(),
        events: SyncEventHandler? = nil,
        commandLog: (@Sendable (_ device: String, _ line: String) -> Void)? = nil
    ) throws {
        let devices = try configuration.selectDevices(named: options.devices, shard: options.shard)
        // Pull and sync write each device into its own folder; push may fan one folder out.
        if options.direction != .push { try configuration.checkPullLayout(devices: devices) }
        self.configuration = configuration
        self.options = options
        self.devices = devices
        self.cancellation = cancellation
        self.events = events
        self.commandLog = commandLog
    }

    /// A stream of the events of the next run, ending when the run ends. Make it before calling
    /// `run()`; a reader slower than the run loses the oldest events beyond `limit`.
    public func eventStream(bufferingNewest limit: Int = 4096) -> AsyncStream<SyncEvent> {
        streams.make(bufferingNewest: limit)
    }

    /// Runs the devices and returns their reports; blocks the calling thread until the last
    /// device ended; a real pull then purges the old trash (`trashPurge`). A dry run takes no
    /// lock and creates nothing (not even `.ftpsync/`). With caps (`RunOptions.maxTransfer`,
    /// `maxDuration`) the run stops starting actions and devices once one is reached (`RunCaps`;
    /// the devices it stopped are `stopped`, `stoppedBy` names the cap); a dry run plans in full.
    /// - Returns: `.finished` with the reports, or `.locked` when another run holds the lock.
    /// - Throws: `RunLockError.failed` when the lock file cannot be made; `StoreError` when
    ///   the state cannot be opened; `ShardMismatchError` (before any device) when another
    ///   shard index of the fleet wrote the state last. A device's own failure is in its
    ///   report, never thrown.
    public func run() throws -> RunResult {
        defer { streams.finish() }
        let started = Date()
        purged.withLock { $0 = nil }
        capped.withLock { $0 = nil }
        lastShard.withLock { $0 = nil }
        let state: RunState
        do {
            state = try RunState.open(localRoot: configuration.localRoot, dryRun: options.dryRun)
        } catch let held as RunLockHeld {
            return .locked(held)
        }
        let found = try state.claim(for: options.shard, localRoot: configuration.localRoot, dryRun: options.dryRun)
        lastShard.withLock { $0 = found }
        // Caps count from here: the lock is held, the devices are about to start.
        let caps =
            options.dryRun
            ? nil : RunCaps(maxBytes: options.maxTransfer, maxSeconds: options.maxDuration, within: cancellation)
        var start = DeviceStart(
            options: options, localRoot: configuration.localRoot, store: state.store, events: eventHandler(),
            commandLog: commandLog, cancellation: cancellation, caps: caps,
            runListingBudget: ListingBudget(owner: "the run", limits: options.runListingLimits))
        start.runBandwidth = options.bwlimit.map { BandwidthLimit(bytesPerSecond: Int(clamping: $0)) }
        let reports = DeviceRunner.runAll(devices, limit: options.boundedJobs) { [start] in start.run($0) }
        if reports.contains(where: { $0.left != nil }) { capped.withLock { $0 = caps?.reached } }
        let retention = configuration.run.trashRetentionSeconds
        if options.direction != .push, !options.dryRun, retention > 0 {
            // Under the lock: no other run is moving files into the trash meanwhile.
            let outcome = TrashPurge(localRoot: configuration.localRoot, retentionSeconds: retention)
                .run(now: Date(), runStarted: started)
            purged.withLock { $0 = outcome }
        }
        // Closed here, under the lock: the last device threads may still hold the store for a
        // moment after `runAll` returns (their closures are released as the threads exit).
        state.store?.close()
        withExtendedLifetime(state) {}
        return .finished(reports)
    }

    /// `run()` on a thread of its own, for async callers (an app's task): awaits the result
    /// without holding a thread of Swift concurrency's pool. Cancelling the task cancels
    /// `cancellation`.
    /// - Throws: what `run()` throws.
    public func runInBackground() async throws -> RunResult {
        let cancellation = self.cancellation
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread { continuation.resume(with: Result { try self.run() }) }
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The handler the engines get: the caller's and the streams'; nil when nobody listens.
    private func eventHandler() -> SyncEventHandler? {
        let events = self.events
        let streams = self.streams
        if streams.isEmpty { return events }
        return { event in
            events?(event)
            streams.yield(event)
        }
    }
}
