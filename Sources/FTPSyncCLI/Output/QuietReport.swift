// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// What `--quiet` prints: nothing when every device is ok (or stopped by a run cap: no error, the
/// exit code 5 says it); otherwise, on stderr, each device that is not ok with its error, each
/// failed action, and one line summing up its skipped entries.
func quietReport(_ document: RunDocument, console: Console) {
    for device in document.devices where device.status != .ok && device.status != .stopped {
        // A device whose only trouble is skipped entries gets the one summary line.
        let onlySkipped = device.status == .partial && device.error == skippedSummary(device.skipped.count)
        if !onlySkipped {
            console.error(
                "\(device.name): \(device.status.rawValue)" + (device.error.map { ": " + printable($0) } ?? ""))
        }
        // The device's log is read back only when it holds a failed action.
        if device.actions.count(.failed) > 0 {
            for action in device.actions where action.status == .failed { console.error("  " + actionLine(action)) }
        }
        if !device.skipped.isEmpty {
            console.error("\(device.name): \(skippedSummary(device.skipped.count)) (see --json or the log)")
        }
    }
}

/// "1 entry skipped", "3 entries skipped".
func skippedSummary(_ count: Int) -> String {
    "\(count) \(count == 1 ? "entry" : "entries") skipped"
}
