// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore
import SyncEngine
import Testing

@testable import FTPSyncCLI

/// The text report says where a run's deletes happened: found by a first user, to whom an
/// offload's "7 deleted" read like files lost here.
@Suite struct DeleteCountTests {
    @Test(arguments: [
        (0, 0, "0 deleted"), (3, 0, "3 moved to the trash"), (7, 7, "7 deleted on the device"),
        (5, 2, "3 moved to the trash, 2 deleted on the device"),
    ])
    func theDeletesSayWhere(deleted: Int, onDevice: Int, text: String) {
        #expect(deletedText(deleted, onDevice: onDevice) == text)
    }

    @Test func anOffloadIsCountedOnTheDeviceInTheTotalsAndNotInTheJSON() throws {
        let path = try RelativePath(validating: "a.jpg")
        var report = DeviceReport(name: "cam")
        for kind in [ActionKind.deleteRemote, .deleteLocal] {
            let action = Action(kind: kind, path: path, source: SnapshotEntry(path: path, kind: .file), reason: "x")
            let done = ActionReport(action: action, status: .done)
            report.actions.append(done)
            report.stats.count(done, transferred: 0)
        }
        let document = RunDocument(command: "pull", dryRun: false, devices: [report])
        let text = textReport(document, elapsed: 1)
        #expect(text.contains("0 renamed, 1 moved to the trash, 1 deleted on the device, 0 failed"), "\(text)")
        let json = streamedJSON(document)
        #expect(json.contains("\"deleted\" : 2") && !json.contains("on_device"), "\(json)")
    }
}
