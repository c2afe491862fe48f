// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncConfig

/// Issue 19, offload: `remove_source` and `remove_source_folders` are off by default,
/// inherited from `defaults` and set per device; anything but a boolean is refused.
@Test func removeSourceIsOffByDefaultInheritedAndOverridden() throws {
    let config = try parsed(
        """
        local: mirror
        defaults:
          remove_source: true
          remove_source_folders: true
        devices:
          - name: inherits
            host: a.example
          - name: overrides
            host: b.example
            remove_source_folders: false
        """)
    #expect(config.devices[0].removeSource && config.devices[0].removeSourceFolders)
    #expect(config.devices[1].removeSource && !config.devices[1].removeSourceFolders)
    let plain = try parsed("local: mirror\ndevices:\n  - name: cam\n    host: c.example\n")
    #expect(!plain.devices[0].removeSource && !plain.devices[0].removeSourceFolders)
    #expect(throws: (any Error).self) {
        try parsed("local: mirror\ndevices:\n  - name: cam\n    host: c.example\n    remove_source: later\n")
    }
}
