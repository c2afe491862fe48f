// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncConfig

/// Issue 19: `hidden` (LIST -a on LIST-only servers) is on by default, inherited from
/// `defaults` and set per device; anything but a boolean is refused.
@Test func hiddenIsOnByDefaultInheritedAndOverridden() throws {
    let config = try parsed(
        """
        local: mirror
        defaults:
          hidden: false
        devices:
          - name: inherits
            host: a.example
          - name: overrides
            host: b.example
            hidden: true
        """)
    #expect(config.devices[0].hidden == false)
    #expect(config.devices[1].hidden == true)
    let plain = try parsed("local: mirror\ndevices:\n  - name: cam\n    host: c.example\n")
    #expect(plain.devices[0].hidden == true)
    #expect(throws: (any Error).self) {
        try parsed("local: mirror\ndevices:\n  - name: cam\n    host: c.example\n    hidden: sometimes\n")
    }
}
