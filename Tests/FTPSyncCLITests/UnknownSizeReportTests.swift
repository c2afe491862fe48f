// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore
import SyncEngine
import Testing

@testable import FTPSyncCLI

/// A transfer whose size the listing did not give (a rough `12.5M` SIZE did not confirm) is
/// reported as of unknown size, not as 0 B.
@Suite struct UnknownSizeReportTests {
    @Test func aDownloadOfUnknownSizeSaysSo() throws {
        let path = try RelativePath(validating: "FILE.TXT")
        let action = Action(
            kind: .download, path: path, bytes: 0, source: SnapshotEntry(path: path, kind: .file, size: nil),
            reason: "new on the device")
        var report = DeviceReport(name: "vms")
        report.actions.append(ActionReport(action: action, status: .planned))
        let text = textReport(RunDocument(command: "pull", dryRun: true, devices: [report]), elapsed: 1)
        #expect(text.contains("download      FILE.TXT (size unknown) [planned]"), "\(text)")
        #expect(text.contains("total planned: 1 file, 0 B and 1 of unknown size"), "\(text)")
        #expect(!text.contains("(0 B)"))
    }
}
