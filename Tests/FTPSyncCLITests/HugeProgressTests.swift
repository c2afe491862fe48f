// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore
import SyncEngine
import Testing

@testable import FTPSyncCLI

/// Issue 13 item 8: a device that lists two files of 2^64 - 1 bytes cannot crash the progress
/// display or the report (sizes add past 2^64 there).
@Suite struct HugeProgressTests {
    private func download(_ path: String, bytes: UInt64, offset: UInt64 = 0) throws -> Action {
        Action(kind: .download, path: try RelativePath(validating: path), bytes: bytes, offset: offset, reason: "test")
    }

    @Test func twoFilesOfTwoToThe64BytesSaturateTheTotals() throws {
        let first = try download("huge1.bin", bytes: UInt64.max)
        let second = try download("huge2.bin", bytes: UInt64.max - 5, offset: 5)
        var model = ProgressModel()
        model.apply(.deviceStarted(device: "cam"), at: 0)
        model.apply(.planned(device: "cam", actions: 2, transfers: 2, bytesToTransfer: UInt64.max), at: 0)
        model.apply(.actionStarted(device: "cam", id: 1, action: first), at: 0)
        model.apply(.actionStarted(device: "cam", id: 2, action: second), at: 0)
        model.apply(.transferProgress(device: "cam", id: 1, bytesDone: UInt64.max - 1, bytesTotal: UInt64.max), at: 1)
        model.apply(.transferProgress(device: "cam", id: 2, bytesDone: UInt64.max - 1, bytesTotal: UInt64.max), at: 1)
        model.sample(at: 2)
        let lines = model.lines(width: 120, height: 10)
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("cam  0/2 files  16777216.0 TiB of 16777216.0 TiB  100%") == true, "\(lines)")
        let done = ActionReport(action: first, status: .done)
        model.apply(.actionFinished(device: "cam", id: 1, report: done), at: 3)
        model.apply(.actionFinished(device: "cam", id: 2, report: ActionReport(action: second, status: .done)), at: 3)
        #expect(model.lines(width: 120, height: 10).first?.contains("2/2 files") == true)
    }

    @Test func theReportAndTheTotalsOfHugeActionsSaturate() throws {
        var report = DeviceReport(name: "cam")
        for path in ["huge1.bin", "huge2.bin"] {
            let action = ActionReport(action: try download(path, bytes: UInt64.max), status: .done)
            report.actions.append(action)
            report.stats.count(action, transferred: UInt64.max)
        }
        let document = RunDocument(command: "pull", dryRun: false, devices: [report, report])
        #expect(document.totals.bytesTransferred == UInt64.max)
        #expect(textReport(document, elapsed: 1).contains("16777216.0 TiB"))
        var planned = report
        planned.actions = ActionLog()
        planned.actions.append(
            contentsOf: report.actions.map {
                var a = $0
                a.status = .planned
                return a
            })
        let dryRun = RunDocument(command: "pull", dryRun: true, devices: [planned, planned])
        #expect(textReport(dryRun, elapsed: 1).contains("total planned: 4 files, 16777216.0 TiB"))
        #expect(jsonText(dryRun).contains("18446744073709551615"))
    }
}
