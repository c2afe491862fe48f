// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore

extension DeviceMetrics {
    /// A device as the state knows it (a device the state has never seen: never ran, no
    /// failures, no partials).
    init(name: String, health: DeviceHealth, lastSync: Date?, partials: Int) {
        self.init(
            name: name, lastRun: health.lastAttempt, lastSuccess: lastSync,
            consecutiveFailures: health.consecutiveFailures, partials: partials)
    }

    /// Lays this run's report of the device over what the state said. The report's status,
    /// counts and duration win; the time of the run is the state's attempt when this run
    /// recorded it (at or after `started`), else `finished`, and so are the last success and
    /// the failures in a row: a state that could not record the run does not hide it.
    /// A device a run cap kept from starting did not run: the state's values stay.
    mutating func update(with report: DeviceReport, started: Date, finished: Date) {
        if report.left?.started == false { return }
        let recorded = lastRun.map { $0.at >= started } ?? false
        let at = recorded ? lastRun?.at ?? finished : finished
        lastRun = DeviceAttempt(
            at: at, status: report.status.rawValue, error: report.error,
            filesTransferred: report.stats.filesTransferred, bytesTransferred: report.stats.bytesTransferred,
            failures: report.stats.failed, seconds: report.seconds)
        guard !recorded else { return }
        if report.status == .ok {
            lastSuccess = at
            consecutiveFailures = 0
        } else if report.status != .stopped {
            consecutiveFailures = Int(Saturating.add(Int64(consecutiveFailures), 1))
        }
    }
}

extension RunMetrics {
    /// The metrics of every device of `configuration` (of `shard`'s devices when sharded): each
    /// from the state of its local tree (none yet: every device never ran), the devices of
    /// `reports` (this run's) updated with their report.
    /// - Parameters:
    ///   - started: when this run began; `finished`: now, its end.
    /// - Throws: `StoreError` when the state exists but cannot be read.
    static func read(
        _ configuration: Configuration, shard: Shard? = nil, reports: [DeviceReport], exitCode: Int32,
        started: Date, finished: Date
    ) throws(StoreError) -> RunMetrics {
        let store = try StateStore.openExisting(localRoot: configuration.localRoot)
        defer { store?.close() }
        let reported = Dictionary(reports.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // One read of every device's last sync (`lastSync(device:)` reads them all each time).
        let synced = Dictionary(
            try store?.devices().map { ($0.name, $0.lastSync) } ?? [], uniquingKeysWith: { first, _ in first })
        var devices: [DeviceMetrics] = []
        for device in configuration.devices where shard?.holds(device.name) ?? true {
            var metrics = DeviceMetrics(
                name: device.name, lastRun: nil, lastSuccess: nil, consecutiveFailures: 0, partials: 0)
            if let store {
                metrics = DeviceMetrics(
                    name: device.name, health: try store.health(device: device.name),
                    lastSync: synced[device.name] ?? nil, partials: try store.stats(device: device.name).partials)
            }
            if let report = reported[device.name] { metrics.update(with: report, started: started, finished: finished) }
            devices.append(metrics)
        }
        return RunMetrics(devices: devices, exitCode: exitCode, finished: finished, shard: shard)
    }
}

/// At the end of a real `pull` or `push` (finished, interrupted or locked out; not a dry run),
/// writes the metrics file (`--metrics-file`, else `metrics_file`) when one is set: every
/// device of `configuration` (CONTRACT.md, "Metrics file"), of `shard` only when sharded. A
/// state that cannot be read or a file that cannot be written is one line on stderr; the run's
/// exit code never changes.
/// - Parameters:
///   - path: the file; nil when neither the option nor the key sets one (nothing is written).
///   - shard: `--shard`: only its devices, every sample labelled `shard="K"`.
///   - reports: this run's devices (none when the lock was held).
///   - exitCode: the process's exit code.
///   - started: when the run began.
func writeMetricsFile(
    _ path: String?, configuration: Configuration, shard: Shard?, dryRun: Bool, reports: [DeviceReport],
    exitCode: Int32, started: Date, console: Console
) {
    guard let path, !dryRun else { return }
    let metrics: RunMetrics
    do {
        metrics = try RunMetrics.read(
            configuration, shard: shard, reports: reports, exitCode: exitCode, started: started, finished: Date())
    } catch {
        console.error(
            "ftpsync: metrics file \(path) not written: cannot read the state of \(configuration.localRoot): \(error);"
                + " the next run writes it (the run's exit code is unchanged)")
        return
    }
    do {
        try MetricsFile.write(MetricsText.render(metrics), to: path)
    } catch {
        console.error(error.description)
    }
}
