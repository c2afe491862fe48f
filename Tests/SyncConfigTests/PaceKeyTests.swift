import Testing

@testable import SyncConfig

/// Issue 19: `bwlimit` (bytes per second, `ByteSizeText`; `off` lifts a `defaults` limit) and
/// `keepalive` (seconds, default 60, 0 off), inherited from `defaults` and set per device.
@Test func bwlimitAndKeepaliveAreInheritedOverriddenAndChecked() throws {
    let config = try parsed(
        """
        local: mirror
        defaults:
          bwlimit: 1.5M
          keepalive: 0
        devices:
          - name: inherits
            host: a.example
          - name: overrides
            host: b.example
            bwlimit: 512k
            keepalive: 15
          - name: lifts
            host: c.example
            bwlimit: off
        """)
    #expect(config.devices[0].bwlimit == 1_572_864)
    #expect(config.devices[0].keepalive == 0)
    #expect(config.devices[1].bwlimit == 524_288)
    #expect(config.devices[1].keepalive == 15)
    #expect(config.devices[2].bwlimit == nil)
    let plain = try parsed("local: mirror\ndevices:\n  - name: cam\n    host: c.example\n")
    #expect(plain.devices[0].bwlimit == nil)
    #expect(plain.devices[0].keepalive == 60)
    for wrong in ["bwlimit: fast", "bwlimit: -1k", "keepalive: -1", "keepalive: 2m"] {
        #expect(throws: (any Error).self, "\(wrong)") {
            try parsed("local: mirror\ndevices:\n  - name: cam\n    host: c.example\n    \(wrong)\n")
        }
    }
}
