// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

@testable import FTPSyncCLI

/// The text report of `document`, gathered from the pieces `writeTextReport` writes.
func textReport(_ document: RunDocument, elapsed: Double, actionsPrinted: Bool = false) -> String {
    var text = ""
    writeTextReport(document, elapsed: elapsed, actionsPrinted: actionsPrinted) { text += $0 }
    return text
}

/// The JSON `document.writeJSON` writes, gathered from its pieces.
func streamedJSON(_ document: RunDocument) -> String {
    var text = ""
    document.writeJSON { text += $0 }
    return text
}
