// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
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
    for wrong in [
        "bwlimit: fast", "bwlimit: -1k", "bwlimit: 0.4", "bwlimit: 0.0001k", "keepalive: -1", "keepalive: 2m",
    ] {
        #expect(throws: (any Error).self, "\(wrong)") {
            try parsed("local: mirror\ndevices:\n  - name: cam\n    host: c.example\n    \(wrong)\n")
        }
    }
}

/// A daily `bwlimit` schedule, in the device's `timezone` (else the machine's): the last
/// change at or before the time of day holds, the day's last one before its first.
@Test func bwlimitTakesADailySchedule() throws {
    let config = try parsed(
        """
        local: mirror
        devices:
          - name: cam
            host: a.example
            timezone: "+08:00"
            bwlimit: "18:00,off 08:00,512k"
        """)
    let schedule = try #require(config.devices[0].bwlimitSchedule)
    #expect(config.devices[0].bwlimit == nil)
    #expect(schedule.changes.map(\.minute) == [480, 1080])
    #expect(schedule.rate(atMinute: 479) == nil && schedule.rate(atMinute: 480) == 524_288)
    #expect(schedule.rate(atMinute: 1079) == 524_288 && schedule.rate(atMinute: 1439) == nil)
    // 01:00 UTC is 09:00 at +08:00; 11:00 UTC is 19:00 there.
    #expect(schedule.rate(at: Date(timeIntervalSince1970: 3600)) == 524_288)
    #expect(schedule.rate(at: Date(timeIntervalSince1970: 11 * 3600)) == nil)
    for wrong in ["\"25:00,1M\"", "\"08:00,1M 08:00,2M\"", "\"08:00\"", "\"8:00,1M\"", "\"08:00,fast\""] {
        #expect(throws: (any Error).self, "\(wrong)") {
            try parsed("local: mirror\ndevices:\n  - name: cam\n    host: c.example\n    bwlimit: \(wrong)\n")
        }
    }
}

/// Found by a breaker (issue 19): a wrong schedule said only what a schedule looks like, not
/// which of its parts is wrong.
@Test(arguments: [
    ("\"25:00,1M\"", "'25:00,1M': the time must be HH:MM, 00:00 to 23:59"),
    ("\"08:00,1M 08:00,2M\"", "'08:00,2M': 08:00 is given twice"),
    ("\"08:00\"", "'08:00': expected TIME,RATE like 08:00,512k"),
    ("\"08:00,1M 18:00,fast\"", "'18:00,fast': the rate must be bytes per second like 512k or 2M, or off"),
])
func aWrongScheduleNamesThePart(value: String, message: String) throws {
    let yaml = "local: mirror\ndevices:\n  - name: cam\n    host: c.example\n    bwlimit: \(value)\n"
    do {
        _ = try parsed(yaml)
        Issue.record("\(value) was taken")
    } catch {
        #expect("\(error)".contains(message), "\(error)")
    }
}
