// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import SyncEngine
import SyncStore

/// What the metrics file tells of one device of the configuration.
struct DeviceMetrics: Sendable, Hashable {
    /// The device's name: the value of the `device` label.
    var name: String
    /// Its last run (this run's when it was in it); nil when it never ran.
    var lastRun: DeviceAttempt?
    /// The end of its last successful (`ok`) run (UTC); nil when it never synced.
    var lastSuccess: Date?
    /// Runs in a row, up to the last, that were not `ok`.
    var consecutiveFailures: Int
    /// Interrupted transfers of the device waiting to resume (both directions).
    var partials: Int
}

/// What the metrics file tells of a run: every device of the configuration and the run itself.
struct RunMetrics: Sendable, Hashable {
    /// The devices, in the configuration's order.
    var devices: [DeviceMetrics]
    /// The process's exit code (128 + the signal's number when one stopped the run).
    var exitCode: Int32
    /// When the file was made, at the end of the run (UTC).
    var finished: Date
    /// `--shard`: every sample carries `shard="K"`, so one file per shard in a folder the
    /// textfile collector reads gives no two series alike; nil when the run was not sharded.
    var shard: Shard?
}

/// The metrics file's text: the Prometheus text exposition format, version 0.0.4, every metric
/// a gauge with its `# HELP` and `# TYPE` lines once, its samples without timestamps (which
/// node_exporter's textfile collector refuses). Pure: values in, text out.
enum MetricsText {
    /// A gauge with one sample per device, `nil` leaving a device's sample out.
    private struct DeviceGauge {
        let name: String
        let help: String
        let value: @Sendable (DeviceMetrics) -> Double?
    }

    /// The device gauges, in the order written. A device that never ran has `up`, `refused`,
    /// `consecutive_failures` and `partials` only: no run means no time, counts or duration.
    private static let deviceGauges: [DeviceGauge] = [
        DeviceGauge(
            name: "ftpsync_device_up",
            help:
                "1 if the device's last run completed it (status ok) or a run cap stopped it (stopped), else 0;"
                + " 0 for a device that never ran"
        ) { $0.lastRun.map { $0.succeeded || $0.stoppedByCap } == true ? 1 : 0 },
        DeviceGauge(
            name: "ftpsync_device_last_run_timestamp_seconds",
            help: "End of the device's last run, whatever its outcome (Unix time); absent when it never ran"
        ) { $0.lastRun?.at.timeIntervalSince1970 },
        DeviceGauge(
            name: "ftpsync_device_last_success_timestamp_seconds",
            help: "End of the device's last successful run (Unix time); absent when it never synced"
        ) { $0.lastSuccess?.timeIntervalSince1970 },
        DeviceGauge(
            name: "ftpsync_device_files_transferred", help: "Files downloaded or uploaded in the device's last run"
        ) { $0.lastRun.map { Double($0.filesTransferred) } },
        DeviceGauge(
            name: "ftpsync_device_bytes_transferred",
            help: "Bytes moved over data connections in the device's last run"
        ) { $0.lastRun.map { Double($0.bytesTransferred) } },
        DeviceGauge(name: "ftpsync_device_failures", help: "Actions that failed in the device's last run") {
            $0.lastRun.map { Double($0.failures) }
        },
        DeviceGauge(
            name: "ftpsync_device_run_duration_seconds", help: "Wall time of the device's last run, in seconds"
        ) { $0.lastRun?.seconds },
        DeviceGauge(
            name: "ftpsync_device_consecutive_failures",
            help: "Runs of the device in a row, up to the last, that failed (a run cap's stop does not count)"
        ) { Double($0.consecutiveFailures) },
        DeviceGauge(
            name: "ftpsync_device_refused",
            help: "1 if the device's last run was refused (delete guard --max-delete or identity check, exit 4), else 0"
        ) { $0.lastRun?.status == DeviceStatus.refused.rawValue ? 1 : 0 },
        DeviceGauge(
            name: "ftpsync_device_partials", help: "Interrupted transfers of the device waiting to resume"
        ) { Double($0.partials) },
    ]

    /// The whole file: the device gauges (a gauge no device has a value of is left out), then
    /// `ftpsync_run_exit_code` and `ftpsync_run_timestamp_seconds`.
    static func render(_ run: RunMetrics) -> String {
        var out = ""
        let shard = run.shard.map { "shard=\"\($0.index)\"" }
        for gauge in deviceGauges {
            let samples = run.devices.compactMap { device in gauge.value(device).map { (device.name, $0) } }
            guard !samples.isEmpty else { continue }
            out += header(gauge.name, gauge.help)
            for (name, value) in samples {
                let labels = ["device=\"\(labelValue(name))\"", shard].compactMap { $0 }.joined(separator: ",")
                out += "\(gauge.name){\(labels)} \(number(value))\n"
            }
        }
        out += header(
            "ftpsync_run_exit_code", "Exit code of the last pull or push (128 + the signal when one stopped it)")
        let runLabels = shard.map { "{\($0)}" } ?? ""
        out += "ftpsync_run_exit_code\(runLabels) \(run.exitCode)\n"
        out += header(
            "ftpsync_run_timestamp_seconds", "When the last pull or push ended and wrote this file (Unix time)")
        out += "ftpsync_run_timestamp_seconds\(runLabels) \(number(run.finished.timeIntervalSince1970))\n"
        return out
    }

    /// The `# HELP` and `# TYPE … gauge` lines of a metric.
    private static func header(_ name: String, _ help: String) -> String {
        "# HELP \(name) \(help).\n# TYPE \(name) gauge\n"
    }

    /// `value` escaped for a label value between double quotes: backslash, double quote and
    /// line feed become `\\`, `\"` and `\n`.
    static func labelValue(_ value: String) -> String {
        var out = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A sample value: whole numbers (below 2^53) without a fraction, others in Swift's shortest
    /// round-trip form (`1764644063.25`, `1e+20`, which Prometheus reads), `NaN`, `+Inf`, `-Inf`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }
}
