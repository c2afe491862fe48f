// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore
import Testing

@testable import FTPSyncCLI

/// The metrics file's text (Prometheus text format 0.0.4) and the values it is made of: the
/// devices of this run from their reports, the others from the state.
struct MetricsTextTests {
    static let finished = Date(timeIntervalSince1970: 1_764_644_000)

    static func attempt(_ status: String, at seconds: Double, files: Int = 3) -> DeviceAttempt {
        DeviceAttempt(
            at: Date(timeIntervalSince1970: seconds), status: status, error: status == "ok" ? nil : "broke",
            filesTransferred: files, bytesTransferred: 4096, failures: status == "ok" ? 0 : 1, seconds: 2.5)
    }

    /// The sample lines of `text`, value by series (`name{labels}`).
    static func samples(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            result[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return result
    }

    @Test func labelValuesEscapeBackslashQuoteAndLineFeed() {
        #expect(MetricsText.labelValue(#"a\b"c"# + "\nd") == #"a\\b\"c\nd"#)
        #expect(MetricsText.labelValue("front-camera") == "front-camera")
        #expect(MetricsText.labelValue("caméra") == "caméra")
    }

    @Test func numbersAreWholeWhenWholeAndNeverSwiftSpelled() {
        #expect(MetricsText.number(3) == "3")
        #expect(MetricsText.number(1_764_644_000) == "1764644000")
        #expect(MetricsText.number(2.5) == "2.5")
        #expect(MetricsText.number(1e20) == "1e+20")
        #expect(MetricsText.number(.nan) == "NaN")
        #expect(MetricsText.number(.infinity) == "+Inf")
        #expect(MetricsText.number(-.infinity) == "-Inf")
    }

    @Test func everyMetricHasOneHelpAndOneGaugeTypeBeforeItsSamples() {
        let devices = [
            DeviceMetrics(
                name: "a", lastRun: Self.attempt("ok", at: 1_764_643_000), lastSuccess: Date(timeIntervalSince1970: 1),
                consecutiveFailures: 0, partials: 0),
            DeviceMetrics(
                name: "b", lastRun: Self.attempt("failed", at: 1_764_643_100), lastSuccess: nil,
                consecutiveFailures: 2, partials: 1),
        ]
        let text = MetricsText.render(RunMetrics(devices: devices, exitCode: 1, finished: Self.finished))
        let lines = text.split(separator: "\n").map(String.init)
        var typed: [String] = []
        for line in lines {
            if line.hasPrefix("# TYPE ") {
                let words = line.split(separator: " ")
                #expect(words.count == 4 && words[3] == "gauge", "\(line)")
                typed.append(String(words[2]))
            } else if !line.hasPrefix("#") {
                let name = String(line.prefix { $0 != "{" && $0 != " " })
                #expect(typed.last == name, "\(line) follows the TYPE of \(typed.last ?? "none")")
            }
        }
        #expect(Set(typed).count == typed.count)
        for name in typed {
            #expect(lines.filter { $0.hasPrefix("# HELP \(name) ") }.count == 1, "\(name)")
        }
        #expect(typed.count == 12)
        #expect(text.hasSuffix("\n"))
        let values = Self.samples(text)
        #expect(values[#"ftpsync_device_up{device="a"}"#] == "1")
        #expect(values[#"ftpsync_device_up{device="b"}"#] == "0")
        #expect(values[#"ftpsync_device_last_success_timestamp_seconds{device="a"}"#] == "1")
        #expect(values[#"ftpsync_device_last_success_timestamp_seconds{device="b"}"#] == nil)
        #expect(values[#"ftpsync_device_consecutive_failures{device="b"}"#] == "2")
        #expect(values[#"ftpsync_device_partials{device="b"}"#] == "1")
        #expect(values[#"ftpsync_device_run_duration_seconds{device="a"}"#] == "2.5")
        #expect(values["ftpsync_run_exit_code"] == "1")
        #expect(values["ftpsync_run_timestamp_seconds"] == "1764644000")
    }

    @Test func aDeviceThatNeverRanIsDownWithNoTimesNorCounts() {
        let never = DeviceMetrics(name: "new", lastRun: nil, lastSuccess: nil, consecutiveFailures: 0, partials: 0)
        let text = MetricsText.render(RunMetrics(devices: [never], exitCode: 0, finished: Self.finished))
        let values = Self.samples(text)
        #expect(values[#"ftpsync_device_up{device="new"}"#] == "0")
        #expect(values[#"ftpsync_device_refused{device="new"}"#] == "0")
        #expect(values[#"ftpsync_device_consecutive_failures{device="new"}"#] == "0")
        #expect(values[#"ftpsync_device_partials{device="new"}"#] == "0")
        #expect(values.count == 6, "\(text)")
        // A family no device has a sample of is left out whole, HELP and TYPE too.
        #expect(!text.contains("ftpsync_device_last_run_timestamp_seconds"))
        #expect(!text.contains("ftpsync_device_last_success_timestamp_seconds"))
        #expect(!text.contains("ftpsync_device_files_transferred"))
    }

    @Test func aRefusedRunIsDownAndRefused() {
        let device = DeviceMetrics(
            name: "cam", lastRun: Self.attempt("refused", at: 1_764_643_000, files: 0), lastSuccess: nil,
            consecutiveFailures: 1, partials: 0)
        let values = Self.samples(
            MetricsText.render(RunMetrics(devices: [device], exitCode: 4, finished: Self.finished)))
        #expect(values[#"ftpsync_device_refused{device="cam"}"#] == "1")
        #expect(values[#"ftpsync_device_up{device="cam"}"#] == "0")
        #expect(values["ftpsync_run_exit_code"] == "4")
    }

    @Test func aReportThatTheStateRecordedKeepsTheStatesTimeAndStreak() {
        let started = Date(timeIntervalSince1970: 1_764_643_900)
        let health = DeviceHealth(
            lastAttempt: Self.attempt("failed", at: 1_764_643_950), consecutiveFailures: 3,
            failingSince: Date(timeIntervalSince1970: 1_764_600_000))
        var device = DeviceMetrics(name: "cam", health: health, lastSync: nil, partials: 2)
        var report = DeviceReport(name: "cam")
        report.status = .failed
        report.seconds = 7
        device.update(with: report, started: started, finished: Self.finished)
        #expect(device.lastRun?.at == Date(timeIntervalSince1970: 1_764_643_950))
        #expect(device.lastRun?.seconds == 7)
        #expect(device.consecutiveFailures == 3)
        #expect(device.partials == 2)
    }

    @Test func aReportTheStateMissedCountsAndEndsAtTheRunsEnd() {
        let started = Date(timeIntervalSince1970: 1_764_643_900)
        let health = DeviceHealth(
            lastAttempt: Self.attempt("failed", at: 1_764_000_000), consecutiveFailures: 1,
            failingSince: Date(timeIntervalSince1970: 1_764_000_000))
        var failing = DeviceMetrics(name: "cam", health: health, lastSync: nil, partials: 0)
        var failed = DeviceReport(name: "cam")
        failed.status = .partial
        failing.update(with: failed, started: started, finished: Self.finished)
        #expect(failing.lastRun?.at == Self.finished)
        #expect(failing.consecutiveFailures == 2)
        var recovering = DeviceMetrics(name: "cam", health: health, lastSync: nil, partials: 0)
        var ok = DeviceReport(name: "cam")
        ok.stats.filesTransferred = 5
        recovering.update(with: ok, started: started, finished: Self.finished)
        #expect(recovering.lastSuccess == Self.finished)
        #expect(recovering.consecutiveFailures == 0)
        #expect(recovering.lastRun?.filesTransferred == 5)
    }

    /// Two devices, one in this run: the other's gauges come from the state's last attempt.
    @Test func aDeviceNotInTheRunGetsItsGaugesFromTheState() throws {
        let folder = NSTemporaryDirectory() + "ftpsync-metrics-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/device.yaml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        local: \(folder)/mirror
        devices:
          - name: one
            host: 127.0.0.1
          - name: two
            host: 127.0.0.1
          - name: three
            host: 127.0.0.1
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let configuration = try ConfigLoader.load(path: config, environment: [:])
        let store = try StateStore.open(localRoot: configuration.localRoot)
        try store.markAttempt(device: "two", Self.attempt("ok", at: 1_764_640_000, files: 9))
        try store.markSynced(device: "two", at: Date(timeIntervalSince1970: 1_764_640_000))
        try store.markAttempt(device: "two", Self.attempt("failed", at: 1_764_641_000, files: 1))
        store.close()

        var report = DeviceReport(name: "one")
        report.stats.filesTransferred = 2
        report.stats.bytesTransferred = 10
        let metrics = try RunMetrics.read(
            configuration, reports: [report], exitCode: 0, started: Date(timeIntervalSince1970: 1_764_643_000),
            finished: Self.finished)
        #expect(metrics.devices.map(\.name) == ["one", "two", "three"])
        let values = Self.samples(MetricsText.render(metrics))
        #expect(values[#"ftpsync_device_up{device="one"}"#] == "1")
        #expect(values[#"ftpsync_device_bytes_transferred{device="one"}"#] == "10")
        #expect(values[#"ftpsync_device_last_success_timestamp_seconds{device="one"}"#] == "1764644000")
        #expect(values[#"ftpsync_device_up{device="two"}"#] == "0")
        #expect(values[#"ftpsync_device_files_transferred{device="two"}"#] == "1")
        #expect(values[#"ftpsync_device_failures{device="two"}"#] == "1")
        #expect(values[#"ftpsync_device_last_run_timestamp_seconds{device="two"}"#] == "1764641000")
        #expect(values[#"ftpsync_device_last_success_timestamp_seconds{device="two"}"#] == "1764640000")
        #expect(values[#"ftpsync_device_consecutive_failures{device="two"}"#] == "1")
        #expect(values[#"ftpsync_device_up{device="three"}"#] == "0")
        #expect(values[#"ftpsync_device_last_run_timestamp_seconds{device="three"}"#] == nil)
    }

    /// `promtool check metrics` (Debian package `prometheus`) accepts the text, escaped labels
    /// and a shard's label (issue 24) included.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool")),
        arguments: [nil, Shard(index: 2, count: 4)])
    func promtoolAcceptsTheText(shard: Shard?) throws {
        let devices = [
            DeviceMetrics(
                name: "cam", lastRun: Self.attempt("ok", at: 1_764_643_000), lastSuccess: Self.finished,
                consecutiveFailures: 0, partials: 0),
            DeviceMetrics(
                name: #"odd "name" \ here"# + "\nline", lastRun: nil, lastSuccess: nil, consecutiveFailures: 0,
                partials: 0),
        ]
        let text = MetricsText.render(
            RunMetrics(devices: devices, exitCode: 130, finished: Self.finished, shard: shard))
        if shard != nil {
            // Every sample says its shard: one file per shard in one folder gives no duplicate series.
            let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(samples.count > 2)
            for sample in samples { #expect(sample.contains(#"shard="2""#), "\(sample)") }
            #expect(text.contains(#"ftpsync_device_up{device="cam",shard="2"} 1"#))
            #expect(text.contains(#"ftpsync_run_exit_code{shard="2"} 130"#))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/promtool")
        process.arguments = ["check", "metrics"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)\n\(text)")
    }
}
