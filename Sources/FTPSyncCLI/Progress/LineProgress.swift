// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncEngine

/// Progress where standard error is not a terminal (a pipe, a file, cron's mail): one plain
/// line per finished action, `DEVICE: KIND PATH (SIZE)`, with no carriage return or escape code.
struct LineProgress: Sendable {
    let console: Console

    /// Writes the line of a finished action; other events print nothing.
    func handle(_ event: SyncEvent) {
        guard case .actionFinished(let device, _, let report) = event else { return }
        console.error(device + ": " + actionLine(report))
    }
}
