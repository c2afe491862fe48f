// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import FTPSyncCLI

/// `check`'s text for a device behind a proxy (issue 22): the hop, and a 227 address that could
/// not be compared (the breaker's find: it claimed "same as the server").
@Suite struct CheckReportTests {
    @Test func aPassiveAddressThroughANameResolvingProxyIsNotCalledTheSame() {
        var report = CheckReport(name: "cam", host: "cam.site.lan", port: 21, tls: "none")
        report.ok = true
        report.passiveAddress = "10.0.0.9"
        report.passiveAddressDiffers = nil
        report.proxy = CheckProxy(
            url: "socks5h://alice:****@127.0.0.1:1080", target: "cam.site.lan:21", connectMilliseconds: 0.2,
            throughMilliseconds: 1.5, dataConnections: "ok")
        let text = report.text
        #expect(text.contains("PASV address:  10.0.0.9 (not compared: the proxy resolves the device's name)"))
        #expect(!text.contains("same as the server"))
        #expect(
            text.contains(
                "proxy:         socks5h://alice:****@127.0.0.1:1080: connected in 0.2 ms, reached cam.site.lan:21 "
                    + "through it in 1.5 ms; data connections get through"))
        report.passiveAddressDiffers = false
        #expect(report.text.contains("(same as the server)"))
    }
}
