// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// docs/configuration.md has a row for every key the loader accepts.
struct DocumentedKeysTests {
    @Test func configurationDocNamesEveryKey() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        for key in ConfigLoader.topLevelKeys + DeviceFields.keys {
            #expect(doc.contains("| `\(key)` |"), "configuration.md lacks \(key)")
        }
    }
}
