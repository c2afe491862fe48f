// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// The example of CONTRACT.md, "Configuration file", with a real digest in place of `sha256:…`.
let contractExample = """
    local: ./mirror                 # required: the local tree's root
    defaults:                       # optional; any device key below may appear here
      port: 21
      connections: 2
    devices:                        # required, at least one
      - name: front-camera          # required, unique, [A-Za-z0-9._-]+
        host: 127.0.0.1             # required: name or address
        port: 2121                  # default 21 (990 for tls: implicit)
        user: cam                   # default: anonymous
        password: secret            # or password_env: VAR_NAME (read from the environment)
        remote: /DCIM               # remote root; default /
        local: front-camera         # folder under `local`; default: the device's name
        tls: none                   # none | explicit (AUTH TLS) | implicit
        fingerprint: "sha256:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89"
        passive_address: peer       # peer (default): connect data connections to the control
                                    #   connection's peer address, ignoring the address in a
                                    #   227 reply; or: server (trust the 227 address)
        connections: 2              # parallel data connections for this device
        timeout: 30                 # seconds without progress before a connection is given up
        timezone: "+08:00"          # zone of LIST times (MLSD is always UTC); default UTC
        encoding: utf-8             # file-name encoding on the server: utf-8, gbk, gb18030, latin1, shift_jis, ...
        exclude: ["*.tmp", ".thumbnails/"]   # glob patterns, relative to the device root
    """

@Test func contractExampleParsesToExactValues() throws {
    let config = try ConfigLoader.parse(text: contractExample, path: "/srv/sync/device.yaml", environment: [:])
    #expect(config.localRoot == "/srv/sync/mirror")
    #expect(config.configPath == "/srv/sync/device.yaml")
    #expect(config.displayPath == "/srv/sync/device.yaml")
    let expected = DeviceConfig(
        name: "front-camera", host: "127.0.0.1", localPath: "/srv/sync/mirror/front-camera", port: 2121, user: "cam",
        password: "secret", remote: "/DCIM", local: "front-camera", tls: .none,
        fingerprint: "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789", passiveAddress: .peer,
        passive: true, connections: 2, timeout: 30, timezone: try #require(TimeZone(secondsFromGMT: 8 * 3600)),
        encoding: "utf-8", exclude: ["*.tmp", ".thumbnails/"], retries: 3, insecure: false, acceptNewIdentity: false,
        position: SourcePosition(line: 6, column: 5))
    #expect(config.devices == [expected])
    #expect(config.devices.first?.timezone.secondsFromGMT() == 28_800)
}

/// The example copied verbatim keeps the placeholder digest `sha256:…`, which is refused at its position.
@Test func contractExampleVerbatimPlaceholderDigestIsRefused() throws {
    let verbatim = contractExample.replacingOccurrences(
        of:
            #""sha256:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89""#,
        with: "\"sha256:…\"     # optional: pin the server certificate (hex, colons optional)")
    #expect(verbatim != contractExample)
    let error = try #require(parseError(verbatim))
    #expect(
        error.description
            == "device.yaml:14:18: 'fingerprint' must be a SHA-256 digest: 64 hex digits, colons and a "
            + "'sha256:' prefix allowed")
}

@Test func minimalDeviceGetsEveryBuiltInDefault() throws {
    let config = try ConfigLoader.parse(
        text: "local: /data\ndevices:\n  - name: cam\n    host: example.org\n", path: "/etc/ftpsync.yaml",
        environment: [:])
    let device = try #require(config.devices.first)
    #expect(device.port == 21)
    #expect(device.user == "anonymous")
    #expect(device.password == nil)
    #expect(device.remote == "/")
    #expect(device.local == "cam")
    #expect(device.localPath == "/data/cam")
    #expect(device.tls == .none)
    #expect(device.fingerprint == nil)
    #expect(device.passiveAddress == .peer)
    #expect(device.passive == true)
    #expect(device.connections == 2)
    #expect(device.timeout == 30)
    #expect(device.timezone.secondsFromGMT() == 0)
    #expect(device.encoding == "utf-8")
    #expect(device.exclude == [])
    #expect(device.retries == 3)
    #expect(device.insecure == false)
    #expect(device.acceptNewIdentity == false)
    #expect(device.position == SourcePosition(line: 3, column: 5))
}

@Test func passwordNeverAppearsInDescriptions() throws {
    let config = try ConfigLoader.parse(
        text: "local: /d\ndevices: [{name: a, host: h, password: hunter2}]", path: "c.yaml", environment: [:])
    let device = try #require(config.devices.first)
    var dumped = ""
    dump(device, to: &dumped)
    for text in [device.description, device.debugDescription, String(describing: config), dumped] {
        #expect(!text.contains("hunter2"))
    }
    #expect(device.description.contains("****"))
}
