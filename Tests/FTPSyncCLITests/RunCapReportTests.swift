// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncEngine
import SyncStore
import Testing

@testable import FTPSyncCLI

/// How a run that a cap (`--max-transfer`, `--max-duration`) stopped is reported: the exit code
/// and its precedence, the text, JSON, quiet report, log lines and metrics.
struct RunCapReportTests {
    /// A device the cap stopped with two downloads and a delete left, one download cut.
    static func stopped(_ name: String = "cam") -> DeviceReport {
        var report = DeviceReport(name: name)
        report.status = .stopped
        report.error = "--max-transfer was reached; the next run continues"
        report.actions.append(ActionReport(kind: .download, path: "a.jpg", bytes: 1_048_576, status: .done))
        report.stats.count(report.actions.first!, transferred: 1_048_576)
        let cut = ActionReport(
            kind: .download, path: "b.mov", bytes: 3_145_728, status: .deferred,
            error: "cut 10 s after --max-transfer was reached; the next run resumes from here")
        let waiting = ActionReport(
            kind: .download, path: "c.mov", bytes: 1_048_576, status: .deferred,
            error: "not started: --max-transfer was reached; the next run does it")
        let delete = ActionReport(
            kind: .deleteLocal, path: "old.jpg", status: .deferred,
            error: "not started: --max-transfer was reached; the next run does it")
        var left = LeftByCap()
        left.count(cut, cut: true)
        left.count(waiting, cut: false)
        left.count(delete, cut: false)
        for action in [cut, waiting, delete] { report.actions.append(action) }
        report.left = left
        return report
    }

    /// A device the cap kept from starting.
    static func notStarted(_ name: String) -> DeviceReport {
        var report = DeviceReport(name: name)
        report.status = .stopped
        report.error = "not started: --max-transfer was reached before this device's turn; the next run syncs it"
        report.left = .notStarted
        return report
    }

    private func status(_ status: DeviceStatus) -> DeviceReport {
        var report = DeviceReport(name: status.rawValue)
        report.status = status
        return report
    }

    /// A safety stop (4) over a failure (1) over a cap (5) over success (0).
    @Test func exitFiveGivesWayToFailuresAndSafetyStops() {
        #expect(exitCode(for: [status(.ok), Self.stopped()]) == .stoppedByCap)
        #expect(exitCode(for: [Self.notStarted("b")]) == .stoppedByCap)
        #expect(exitCode(for: [Self.stopped(), status(.partial)]) == .partialFailure)
        #expect(exitCode(for: [Self.stopped(), status(.failed)]) == .partialFailure)
        #expect(exitCode(for: [Self.stopped(), status(.refused), status(.failed)]) == .safetyStop)
        #expect(exitCode(for: [status(.ok)]) == .success)
        #expect(ExitCode.stoppedByCap.rawValue == 5)
    }

    /// One line per device says what is left; the deferred actions are not listed one by one.
    @Test func theTextReportSaysWhatIsLeftInOneLinePerDevice() {
        let document = RunDocument(
            command: "pull", dryRun: false, devices: [Self.stopped(), Self.notStarted("back")], exitCode: 5,
            stoppedBy: .maxTransfer)
        let text = textReport(document, elapsed: 2)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "cam: stopped — --max-transfer was reached; the next run continues",
                "  download      a.jpg (1.0 MiB)",
                "  left for the next run: 2 files (4.0 MiB) not transferred (1 cut mid-transfer, resumed by the next run),"
                    + " 1 other action not carried out",
                "  1 file transferred (1.0 MiB), 0 renamed, 0 deleted, 0 failed",
                "back: stopped — not started: --max-transfer was reached before this device's turn; the next run syncs it",
                "total done: 1 file, 1.0 MiB, 0 renamed, 0 deleted, 0 failed in 2.0 s;"
                    + " stopped by --max-transfer, the next run continues",
            ], "\(text)")
        // A line per action only as they finish (a cut one does, with its reason).
        let cut = Array(Self.stopped().actions)[1]
        #expect(actionLine(cut).hasSuffix("[deferred: \(cut.error ?? "")]"))
    }

    /// `left` per device (null counts when nothing is known) and the run's `stopped_by`.
    @Test func theJSONCarriesLeftAndStoppedBy() throws {
        let document = RunDocument(
            command: "push", dryRun: false, devices: [Self.stopped(), Self.notStarted("back")], exitCode: 5,
            stoppedBy: .maxDuration)
        let text = streamedJSON(document)
        #expect(text == jsonText(document))
        let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["stopped_by"] as? String == "max_duration")
        #expect(object["exit_code"] as? Int == 5)
        let devices = try #require(object["devices"] as? [[String: Any]])
        #expect(devices[0]["status"] as? String == "stopped")
        let left = try #require(devices[0]["left"] as? [String: Any])
        #expect(left["files"] as? Int == 2 && left["bytes"] as? Int == 4_194_304)
        #expect(left["actions"] as? Int == 3 && left["cut"] as? Int == 1 && left["started"] as? Bool == true)
        let actions = try #require(devices[0]["actions"] as? [[String: Any]])
        #expect(actions.map { $0["status"] as? String } == ["done", "deferred", "deferred", "deferred"])
        let unknown = try #require(devices[1]["left"] as? [String: Any])
        #expect(unknown["files"] is NSNull && unknown["bytes"] is NSNull && unknown["actions"] is NSNull)
        #expect(unknown["started"] as? Bool == false)
        let plain = RunDocument(command: "pull", dryRun: false, devices: [DeviceReport(name: "ok")])
        let none = try #require(JSONSerialization.jsonObject(with: Data(jsonText(plain).utf8)) as? [String: Any])
        #expect(none["stopped_by"] is NSNull)
        #expect((none["devices"] as? [[String: Any]])?.first?["left"] is NSNull)
    }

    /// The log has one line per stopped device with what it left, and one for the cap.
    @Test func theLogSaysWhichCapStoppedTheRunAndWhatEachDeviceLeft() throws {
        let path = NSTemporaryDirectory() + "ftpsync-caplog-\(UUID().uuidString)"
        defer { unlink(path) }
        let log = try LogFile(path: path, format: .json)
        let document = RunDocument(
            command: "pull", dryRun: false, devices: [Self.stopped(), Self.notStarted("back")], exitCode: 5,
            stoppedBy: .maxTransfer)
        log.write(document, elapsed: 2, actionsLogged: true)
        let objects = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            objects.map { $0["event"] as? String } == [
                "device_stopped", "device_stopped", "cap_reached", "run_finished",
            ])
        #expect(objects[0]["level"] as? String == "warning" && objects[0]["status"] as? String == "stopped")
        #expect(objects[0]["files"] as? Int == 2 && objects[0]["bytes"] as? Int == 4_194_304)
        #expect(objects[0]["actions"] as? Int == 3 && objects[0]["cut"] as? Int == 1)
        #expect(
            objects[0]["message"] as? String
                == "pull cam: stopped: --max-transfer was reached; the next run continues;"
                + " left: 2 files (4194304 bytes), 3 actions")
        #expect(objects[1]["files"] is NSNull && objects[1]["device"] as? String == "back")
        #expect(objects[2]["cap"] as? String == "max_transfer" && objects[2]["level"] as? String == "warning")
        #expect(
            objects[2]["message"] as? String
                == "pull: --max-transfer reached: no further action was started; the next run continues")
        #expect(objects[3]["exit_code"] as? Int == 5)
    }

    /// A stopped device is up and its failures in a row stay as they were; a device the cap
    /// kept from starting keeps what the state said.
    @Test func theMetricsCountNoCapAsAFailure() {
        let started = Date(timeIntervalSince1970: 1_764_643_900)
        let finished = Date(timeIntervalSince1970: 1_764_644_000)
        let before = DeviceAttempt(
            at: Date(timeIntervalSince1970: 1_764_000_000), status: "failed", error: "broke", filesTransferred: 0)
        let health = DeviceHealth(
            lastAttempt: before, consecutiveFailures: 2, failingSince: Date(timeIntervalSince1970: 1_764_000_000))
        var capped = DeviceMetrics(name: "cam", health: health, lastSync: nil, partials: 1)
        capped.update(with: Self.stopped(), started: started, finished: finished)
        #expect(capped.consecutiveFailures == 2)
        #expect(capped.lastRun?.status == "stopped" && capped.lastRun?.at == finished)
        var waiting = DeviceMetrics(name: "back", health: health, lastSync: nil, partials: 0)
        waiting.update(with: Self.notStarted("back"), started: started, finished: finished)
        #expect(waiting.lastRun == before && waiting.consecutiveFailures == 2)
        let values = MetricsTextTests.samples(
            MetricsText.render(RunMetrics(devices: [capped, waiting], exitCode: 5, finished: finished)))
        #expect(values[#"ftpsync_device_up{device="cam"}"#] == "1")
        #expect(values[#"ftpsync_device_refused{device="cam"}"#] == "0")
        #expect(values[#"ftpsync_device_up{device="back"}"#] == "0")
        #expect(values["ftpsync_run_exit_code"] == "5")
    }
}
