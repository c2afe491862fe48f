// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncConfig

@Test func defaultsAreInheritedAndDeviceKeysOverride() throws {
    let config = try parsed(
        """
        local: mirror
        defaults:
          host: shared.example
          port: 2121
          user: cam
          password_env: CAM_PW
          remote: /DCIM
          tls: explicit
          passive_address: server
          passive: false
          connections: 4
          timeout: 12.5
          timezone: "+08:00"
          encoding: GBK
          exclude: ["*.tmp"]
          retries: 0
          insecure: yes
          accept_new_identity: true
        devices:
          - name: inherits
          - name: overrides
            host: own.example
            port: 21
            user: other
            password: literal
            remote: /
            tls: none
            passive_address: peer
            passive: true
            connections: 1
            timeout: 60
            timezone: UTC
            encoding: utf-8
            exclude: []
            retries: 5
            insecure: false
            accept_new_identity: false
        """, environment: ["CAM_PW": "from-env"])
    let inherits = config.devices[0]
    #expect(inherits.host == "shared.example")
    #expect(inherits.port == 2121)
    #expect(inherits.user == "cam")
    #expect(inherits.password == "from-env")
    #expect(inherits.remote == "/DCIM")
    #expect(inherits.tls == .explicit)
    #expect(inherits.passiveAddress == .server)
    #expect(inherits.passive == false)
    #expect(inherits.connections == 4)
    #expect(inherits.timeout == 12.5)
    #expect(inherits.timezone.secondsFromGMT() == 8 * 3600)
    #expect(inherits.encoding == "gbk")
    #expect(inherits.exclude == ["*.tmp"])
    #expect(inherits.retries == 0)
    #expect(inherits.insecure == true)
    #expect(inherits.acceptNewIdentity == true)

    let overrides = config.devices[1]
    #expect(overrides.host == "own.example")
    #expect(overrides.port == 21)
    #expect(overrides.user == "other")
    #expect(overrides.password == "literal")
    #expect(overrides.remote == "/")
    #expect(overrides.tls == TLSMode.none)
    #expect(overrides.passiveAddress == .peer)
    #expect(overrides.passive == true)
    #expect(overrides.connections == 1)
    #expect(overrides.timeout == 60)
    #expect(overrides.timezone.secondsFromGMT() == 0)
    #expect(overrides.encoding == "utf-8")
    #expect(overrides.exclude == [])
    #expect(overrides.retries == 5)
    #expect(overrides.insecure == false)
    #expect(overrides.acceptNewIdentity == false)
}

@Test func devicePasswordOverridesDefaultPasswordEnvEvenWhenUnset() throws {
    let config = try parsed(
        "local: /m\ndefaults: {password_env: UNSET}\ndevices: [{name: a, host: h, password: p}]")
    #expect(config.devices[0].password == "p")
}

/// (tls, port in defaults, port in the device, expected port)
let portCases: [(TLSMode, Int?, Int?, Int)] = [
    (.none, nil, nil, 21), (.explicit, nil, nil, 21), (.implicit, nil, nil, 990),
    (.implicit, 2990, nil, 2990), (.implicit, nil, 3990, 3990), (.none, 2121, nil, 2121),
]

@Test(arguments: portCases)
func defaultPortFollowsTLSMode(tls: TLSMode, defaultPort: Int?, devicePort: Int?, expected: Int) throws {
    var text = "local: /m\n"
    if let defaultPort { text += "defaults:\n  port: \(defaultPort)\n" }
    text += "devices:\n  - name: a\n    host: h\n    tls: \(tls.rawValue)\n"
    if let devicePort { text += "    port: \(devicePort)\n" }
    #expect(try parsed(text).devices[0].port == expected)
}

/// (config path, `local`, device `local` or nil, expected root, expected device folder)
let pathCases: [(String, String, String?, String, String)] = [
    ("/srv/sync/device.yaml", "./mirror", nil, "/srv/sync/mirror", "/srv/sync/mirror/cam"),
    ("/srv/sync/device.yaml", "mirror", "front", "/srv/sync/mirror", "/srv/sync/mirror/front"),
    ("/srv/sync/device.yaml", "../data//x/", "a/b/../c", "/srv/data/x", "/srv/data/x/a/c"),
    ("/srv/sync/device.yaml", "/abs/tree", "./cams/one/", "/abs/tree", "/abs/tree/cams/one"),
    ("/device.yaml", "m", nil, "/m", "/m/cam"),
    ("/srv/sync/device.yaml", "~/mirror", nil, "/home/me/mirror", "/home/me/mirror/cam"),
    ("/srv/sync/device.yaml", "~", nil, "/home/me", "/home/me/cam"),
]

@Test(arguments: pathCases)
func localPathsResolveAgainstTheConfigFolder(
    configPath: String, local: String, deviceLocal: String?, root: String, folder: String
) throws {
    var text = "local: '\(local)'\ndevices:\n  - name: cam\n    host: h\n"
    if let deviceLocal { text += "    local: '\(deviceLocal)'\n" }
    let config = try ConfigLoader.parse(text: text, path: configPath, environment: ["HOME": "/home/me"])
    #expect(config.localRoot == root)
    #expect(config.devices[0].localPath == folder)
    #expect(config.devices[0].local == (deviceLocal ?? "cam"))
}

@Test func relativeConfigPathResolvesAgainstTheCurrentFolder() throws {
    let config = try ConfigLoader.parse(
        text: "local: m\ndevices: [{name: a, host: h}]", path: "conf/device.yaml", environment: [:])
    let cwd = FileManager.default.currentDirectoryPath
    #expect(config.configPath == absolutePath("conf/device.yaml", relativeTo: cwd))
    #expect(config.localRoot == absolutePath("conf/m", relativeTo: cwd))
    #expect(config.displayPath == "conf/device.yaml")
}

@Test func tildeWithoutHomeIsAnError() throws {
    let error = try #require(parseError("local: ~/m\ndevices: [{name: a, host: h}]"))
    #expect(error.description == "device.yaml:1:8: 'local' starts with '~' but HOME is not set")
}

/// `host` as written and as stored (nil: refused).
let hostCases: [(String, String?)] = [
    ("127.0.0.1", "127.0.0.1"), ("::1", "::1"), ("'[::1]'", "::1"), ("ftp.example.org", "ftp.example.org"),
    ("'bad host'", nil), ("a/b", nil),
]

@Test(arguments: hostCases)
func hostValues(written: String, stored: String?) throws {
    let text = "local: /m\ndevices:\n  - name: a\n    host: \(written)\n"
    if let stored {
        #expect(try parsed(text).devices[0].host == stored)
    } else {
        let error = try #require(parseError(text))
        #expect(error.line == 4 && error.column == 11)
    }
}

@Test func onConflictComesFromTheDeviceElseDefaultsElseTheCommand() throws {
    let config = try parsed(
        """
        local: mirror
        defaults:
          host: h
          on_conflict: newer-wins
        devices:
          - name: inherits
          - name: overrides
            on_conflict: Local-Wins
        """)
    #expect(config.devices.map(\.onConflict) == [.newerWins, .localWins])
    let none = try parsed("local: mirror\ndevices:\n  - name: a\n    host: h\n")
    #expect(none.devices.first?.onConflict == nil)
}

@Test func orderComesFromTheDeviceElseDefaults() throws {
    let config = try parsed(
        """
        local: mirror
        defaults:
          host: h
          order: newest-first
        devices:
          - name: inherits
          - name: overrides
            order: Smallest-First
        """)
    #expect(config.devices.map(\.order) == [.newestFirst, .smallestFirst])
    let none = try parsed("local: mirror\ndevices:\n  - name: a\n    host: h\n")
    #expect(none.devices.first?.order == nil)
    let error = try #require(parseError("local: m\ndevices:\n  - name: a\n    host: h\n    order: random\n"))
    #expect(error.line == 5)
}
