// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore
import SyncEngine
import Testing

@testable import FTPSyncCLI

/// Issue 24: the report and the progress display of a run of 1,000 devices stay readable.
@Suite struct FleetReportTests {
    /// `count` devices, ok with nothing to do, `failing` of them failed instead.
    private func document(_ count: Int, failing: Set<Int> = []) -> RunDocument {
        let devices = (0..<count).map { index in
            var report = DeviceReport(name: "d\(index)")
            if failing.contains(index) {
                report.status = .failed
                report.error = "cannot connect"
            } else {
                report.unchanged = 5
            }
            return report
        }
        return RunDocument(command: "pull", dryRun: false, devices: devices)
    }

    @Test func aFewQuietDevicesAreListedOneByOne() {
        let text = textReport(document(quietDevicesListed), elapsed: 1)
        #expect(text.contains("d0: ok\n  nothing to do (5 in sync)\n"), "\(text)")
        #expect(!text.contains("devices ok, nothing to do"))
    }

    @Test func manyQuietDevicesTakeOneLineAndTheFailedOnesAreNamedAtTheEnd() {
        let text = textReport(document(1000, failing: [17, 503]), elapsed: 1)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 4, "\(text)")
        #expect(lines[0] == "d17: failed — cannot connect")
        #expect(lines[1] == "d503: failed — cannot connect")
        #expect(lines[2] == "998 other devices ok, nothing to do (4990 in sync)")
        #expect(lines[3].hasSuffix("0 failed; 2 devices not synced (d17, d503) in 1.0 s"), "\(lines[3])")
        let all = textReport(document(1000, failing: Set(0..<12)), elapsed: 1)
        #expect(all.contains("12 devices not synced (d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, …) in"), "\(all)")
        #expect(textReport(document(30), elapsed: 1).hasPrefix("30 devices ok, nothing to do (150 in sync)\n"))
    }

    /// A first pull of many devices into a pipe: their downloads were printed as they ended,
    /// and each had the same note; the report has the note once, not once per device.
    @Test func aFirstPullOfManyDevicesSaysEachNoteOnceAndCountsTheDevices() throws {
        let path = try RelativePath(validating: "a.jpg")
        let action = Action(kind: .download, path: path, source: SnapshotEntry(path: path, kind: .file), reason: "new")
        let devices = (0..<100).map { index in
            var report = DeviceReport(name: "d\(index)")
            if index < 90 {
                report.actions.append(ActionReport(action: action, status: .done))
                report.notes = ["the server offers no hash command: copies checked by size"]
            }
            if index == 7 { report.notes.append("3 files newer than min_age left for the next run") }
            report.unchanged = 2
            return report
        }
        let document = RunDocument(command: "pull", dryRun: false, devices: devices)
        let lines = textReport(document, elapsed: 1, actionsPrinted: true).split(separator: "\n")
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[0] == "90 devices: note: the server offers no hash command: copies checked by size")
        #expect(lines[1] == "d7: note: 3 files newer than min_age left for the next run")
        #expect(lines[2] == "100 devices ok: 90 with their actions listed above, 10 with nothing to do (200 in sync)")
        // Not printed as they ended (a terminal): the actions are the report's to list.
        let listed = textReport(document, elapsed: 1, actionsPrinted: false)
        #expect(listed.hasPrefix("d0: ok\n  download      a.jpg"), "\(listed.prefix(300))")
    }

    @Test func theDisplayOfAFleetCountsItsDevicesAndWhatDoesNotFit() {
        var model = ProgressModel()
        model.devicesInRun = 1000
        for index in 0..<40 { model.apply(.deviceStarted(device: "d\(index)"), at: 0) }
        for index in 0..<8 { model.apply(.deviceFinished(device: "d\(index)", report: DeviceReport(name: "")), at: 0) }
        var failed = DeviceReport(name: "d8")
        failed.status = .failed
        model.apply(.deviceFinished(device: "d8", report: failed), at: 0)
        let lines = model.lines(width: 79, height: 22)
        #expect(lines.count == 22)
        #expect(lines.first == "devices  9/1000 done  31 running  1 failed")
        #expect(lines[1] == "d9  connecting and listing…")
        #expect(lines.last == "… and 11 more devices running")
        // One device: no fleet line, as before.
        var one = ProgressModel()
        one.devicesInRun = 1
        one.apply(.deviceStarted(device: "cam"), at: 0)
        #expect(one.lines(width: 79, height: 22) == ["cam  connecting and listing…"])
    }
}
