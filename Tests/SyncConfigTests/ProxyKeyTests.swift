// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// Issue 22: the `proxy` and `proxy_password_env` device keys in a configuration: inheritance,
/// `none`, password sources, active mode, device problems, masking. The URL forms: ProxyURLTests.

@Test func proxyNullAndMappingAreRefused() throws {
    let null = try #require(parseError("local: m\ndevices:\n  - name: a\n    host: h\n    proxy:\n"))
    #expect(null.message.hasPrefix("'proxy' must not be empty"))
    let mapping = try #require(parseError("local: m\ndevices:\n  - name: a\n    host: h\n    proxy: {url: x}\n"))
    #expect(mapping.description == "device.yaml:5:12: 'proxy' must be a URL string, found a mapping")
}

@Test func proxyIsInheritedFromDefaultsAndLiftedByNone() throws {
    let config = try parsed(
        """
        local: m
        defaults:
          proxy: socks5h://alice@127.0.0.1:1080
          proxy_password_env: PROXY_PW
        devices:
          - name: inherits
            host: a.example
          - name: lifts
            host: b.example
            proxy: none
          - name: own
            host: c.example
            proxy: http://proxy.example:3128
          - name: own-user
            host: d.example
            proxy: socks5://bob@10.0.0.1
          - name: upper
            host: e.example
            proxy: NONE
          - name: own-password
            host: f.example
            proxy: socks5://dave:own@10.0.0.2
          - name: own-variable
            host: g.example
            proxy_password_env: OTHER_PW
        """, environment: ["PROXY_PW": "pw", "OTHER_PW": "other"])
    let proxies = config.devices.map(\.proxy)
    #expect(
        proxies == [
            ProxySetting(scheme: .socks5h, host: "127.0.0.1", port: 1080, user: "alice", password: "pw"), nil,
            // A device's own proxy: `defaults`' variable is not used.
            ProxySetting(scheme: .http, host: "proxy.example", port: 3128),
            // `defaults`' password never goes to another proxy (it failed before: bob got alice's).
            ProxySetting(scheme: .socks5, host: "10.0.0.1", port: 1080, user: "bob"), nil,
            // The device's own password source wins over `defaults`', as for `password`.
            ProxySetting(scheme: .socks5, host: "10.0.0.2", port: 1080, user: "dave", password: "own"),
            ProxySetting(scheme: .socks5h, host: "127.0.0.1", port: 1080, user: "alice", password: "other"),
        ])
    #expect(config.devices.allSatisfy { $0.problem == nil })
    let plain = try parsed("local: m\ndevices:\n  - name: a\n    host: h\n")
    #expect(plain.devices[0].proxy == nil)
}

/// A configuration with a proxy mistake, and where and what the error says.
struct ProxyConfigCase: CustomTestStringConvertible, Sendable {
    let name: String
    let yaml: String
    var environment: [String: String] = [:]
    let line: Int
    let column: Int
    let message: String

    var testDescription: String { name }
}

private let activeMode =
    "`passive: false` (active mode) cannot work through 'proxy' (line %d, column %d): the server would have to"
    + " connect back through the proxy; remove `passive: false` or the proxy"

let proxyConfigErrorCases: [ProxyConfigCase] = [
    ProxyConfigCase(
        name: "passive false beside the device's proxy",
        yaml: "local: m\ndevices:\n  - name: a\n    host: h\n    proxy: socks5://p\n    passive: false\n",
        line: 6, column: 14, message: String(format: activeMode, 5, 12)),
    ProxyConfigCase(
        name: "passive false in defaults, proxy in the device",
        yaml: "local: m\ndefaults:\n  passive: no\ndevices:\n  - name: a\n    host: h\n    proxy: socks5://p\n",
        line: 3, column: 12, message: String(format: activeMode, 7, 12)),
    ProxyConfigCase(
        name: "passive false in the device, proxy in defaults",
        yaml: "local: m\ndefaults:\n  proxy: http://p:3128\ndevices:\n  - name: a\n    host: h\n    passive: off\n",
        line: 7, column: 14, message: String(format: activeMode, 3, 10)),
    ProxyConfigCase(
        name: "password in the URL and proxy_password_env",
        yaml: "local: m\ndevices:\n  - name: a\n    host: h\n    proxy: socks5://u:hunter2@p\n"
            + "    proxy_password_env: PW\n",
        environment: ["PW": "x"], line: 6, column: 25,
        message: "a password in 'proxy' and 'proxy_password_env' cannot both be set ('proxy' is at line 5, column"
            + " 12); keep one"),
    ProxyConfigCase(
        name: "proxy_password_env first, then a password in the URL",
        yaml: "local: m\ndevices:\n  - name: a\n    host: h\n    proxy_password_env: PW\n"
            + "    proxy: socks5://u:hunter2@p\n",
        line: 6, column: 12,
        message: "a password in 'proxy' and 'proxy_password_env' cannot both be set ('proxy_password_env' is at"
            + " line 5, column 25); keep one"),
    ProxyConfigCase(
        name: "both in defaults, used by no device",
        yaml: "local: m\ndefaults:\n  proxy: socks5://u:hunter2@p\n  proxy_password_env: PW\ndevices:\n"
            + "  - name: a\n    host: h\n    proxy: none\n",
        line: 4, column: 23,
        message: "a password in 'proxy' and 'proxy_password_env' cannot both be set ('proxy' is at line 3, column"
            + " 10); keep one"),
    ProxyConfigCase(
        name: "proxy_password_env without a user in the URL",
        yaml: "local: m\ndevices:\n  - name: a\n    host: h\n    proxy: socks5h://127.0.0.1\n"
            + "    proxy_password_env: PW\n",
        environment: ["PW": "x"], line: 6, column: 25,
        message: "'proxy_password_env' needs the proxy's user in 'proxy' (line 5, column 12), like"
            + " socks5://alice@127.0.0.1:1080"),
    ProxyConfigCase(
        name: "proxy_password_env and a proxy without a user in defaults",
        yaml: "local: m\ndefaults:\n  proxy_password_env: PW\n  proxy: http://p:3128\ndevices:\n  - name: a\n"
            + "    host: h\n",
        line: 3, column: 23,
        message: "'proxy_password_env' needs the proxy's user in 'proxy' (line 4, column 10), like"
            + " socks5://alice@127.0.0.1:1080"),
    ProxyConfigCase(
        name: "the device's proxy_password_env, defaults' proxy without a user",
        yaml: "local: m\ndefaults:\n  proxy: http://p:3128\ndevices:\n  - name: a\n    host: h\n"
            + "    proxy_password_env: PW\n",
        line: 7, column: 25,
        message: "'proxy_password_env' needs the proxy's user in 'proxy' (line 3, column 10), like"
            + " socks5://alice@127.0.0.1:1080"),
    ProxyConfigCase(
        name: "the device's proxy_password_env without a proxy",
        yaml: "local: m\ndevices:\n  - name: a\n    host: h\n    proxy_password_env: PW\n",
        line: 5, column: 25,
        message: "'proxy_password_env' is set but the device has no 'proxy': add a proxy, or remove"
            + " 'proxy_password_env'"),
    ProxyConfigCase(
        name: "misspelled key",
        yaml: "local: m\ndevices:\n  - name: a\n    host: h\n    proxy_pasword_env: PW\n",
        line: 5, column: 5, message: "unknown key 'proxy_pasword_env'; did you mean 'proxy_password_env'?"),
    ProxyConfigCase(
        name: "proxy at the top level",
        yaml: "local: m\nproxy: socks5://p\ndevices:\n  - name: a\n    host: h\n",
        line: 2, column: 1,
        message: "unknown key 'proxy' at the top level; device keys belong in a device under 'devices' or under"
            + " 'defaults'"),
]

@Test(arguments: proxyConfigErrorCases)
func proxyConfigErrorIsReportedAtItsPlace(_ errorCase: ProxyConfigCase) throws {
    let error = try #require(parseError(errorCase.yaml, environment: errorCase.environment))
    #expect(error.description == "device.yaml:\(errorCase.line):\(errorCase.column): \(errorCase.message)")
    #expect(!error.description.contains("hunter2"))
}

/// The device's `proxy_password_env` wins over a password in `defaults`' URL, like
/// `password_env` over `defaults`' `password`.
@Test func devicesVariableWinsOverDefaultsURLPassword() throws {
    let text =
        "local: m\ndefaults:\n  proxy: socks5://u:hunter2@p\ndevices:\n  - name: a\n    host: h\n"
        + "    proxy_password_env: PW\n"
    let config = try parsed(text, environment: ["PW": "x"])
    #expect(config.devices[0].proxy == ProxySetting(scheme: .socks5, host: "p", port: 1080, user: "u", password: "x"))
    let unset = try parsed(text)
    #expect(unset.devices[0].proxy?.password == nil)
    #expect(unset.devices[0].problem?.hasPrefix("/srv/sync/device.yaml:7:25: environment variable 'PW'") == true)
}

@Test func passiveTrueOrADirectDeviceKeepsActiveModeAllowed() throws {
    let config = try parsed(
        """
        local: m
        defaults:
          passive: false
        devices:
          - name: direct
            host: a.example
          - name: proxied
            host: b.example
            passive: true
            proxy: socks5://p
        """)
    #expect(config.devices[0].proxy == nil && !config.devices[0].passive)
    #expect(config.devices[1].proxy != nil && config.devices[1].passive)
}

private let cronHint =
    " (cron and systemd start with almost no environment: set it in the crontab or an EnvironmentFile)"

let proxyProblemCases: [ProxyConfigCase] = [
    ProxyConfigCase(
        name: "unset variable", yaml: "    proxy_password_env: PROXY_PW\n", line: 6, column: 25,
        message: "environment variable 'PROXY_PW' (named by 'proxy_password_env') is not set" + cronHint),
    ProxyConfigCase(
        name: "empty variable", yaml: "    proxy_password_env: PROXY_PW\n", environment: ["PROXY_PW": ""],
        line: 6, column: 25, message: "environment variable 'PROXY_PW' (named by 'proxy_password_env') is empty"),
    ProxyConfigCase(
        name: "variable with a line break", yaml: "    proxy_password_env: PROXY_PW\n",
        environment: ["PROXY_PW": "a\r\nb"], line: 6, column: 25,
        message: "environment variable 'PROXY_PW' (named by 'proxy_password_env') must not contain line breaks or"
            + " NUL characters"),
    ProxyConfigCase(
        name: "variable too long", yaml: "    proxy_password_env: PROXY_PW\n",
        environment: ["PROXY_PW": String(repeating: "p", count: 256)], line: 6, column: 25,
        message: "environment variable 'PROXY_PW' (named by 'proxy_password_env') is longer than 255 bytes (the"
            + " SOCKS5 limit of RFC 1929)"),
]

/// An unusable `proxy_password_env` variable fails its device only, like `password_env`.
@Test(arguments: proxyProblemCases)
func proxyPasswordVariableProblemFailsTheDeviceOnly(_ problemCase: ProxyConfigCase) throws {
    let config = try parsed(
        "local: m\ndevices:\n  - name: a\n    host: h\n    proxy: socks5h://alice@127.0.0.1\n" + problemCase.yaml
            + "  - name: b\n    host: h2\n    proxy: socks5h://bob:pw@127.0.0.1\n",
        environment: problemCase.environment)
    #expect(
        config.devices[0].problem
            == "/srv/sync/device.yaml:\(problemCase.line):\(problemCase.column): \(problemCase.message)")
    #expect(config.devices[0].proxy?.user == "alice")
    #expect(config.devices[1].problem == nil)
    #expect(config.devices[1].proxy?.password == "pw")
}

@Test func proxyPasswordNeverAppearsInDescriptions() throws {
    let config = try parsed(
        """
        local: m
        devices:
          - name: url
            host: h
            password: ftp-secret
            proxy: socks5://alice:url-secret@127.0.0.1:1080
          - name: env
            host: h
            proxy: http://bob@proxy.example:3128
            proxy_password_env: PROXY_PW
        """, environment: ["PROXY_PW": "env-secret"])
    #expect(config.devices[0].proxy?.password == "url-secret")
    #expect(config.devices[1].proxy?.password == "env-secret")
    for device in config.devices {
        let proxy = try #require(device.proxy)
        var dumped = ""
        dump(device, to: &dumped)
        var dumpedProxy = ""
        dump(proxy, to: &dumpedProxy)
        let texts = [
            device.description, device.debugDescription, String(describing: device), String(reflecting: device),
            "\(device)", dumped, String(describing: config), proxy.description, String(reflecting: proxy),
            dumpedProxy, "\(Mirror(reflecting: device).children.map(\.value))",
        ]
        for text in texts {
            #expect(!text.contains("secret"), "\(text)")
        }
        #expect(device.description.contains("proxy: \(proxy.scheme.rawValue)://"))
        #expect(dumped.contains(":****@"))
    }
    #expect(config.devices[0].description.hasSuffix("password: ****, proxy: socks5://alice:****@127.0.0.1:1080)"))
}

@Test func proxyKeysAreSuggestedForTypos() {
    #expect(nearestKey(to: "proxi", among: DeviceFields.keys) == "proxy")
    #expect(nearestKey(to: "proxy-password-env", among: DeviceFields.keys) == "proxy_password_env")
}

@Test func proxyPasswordIsPointedToProxyPasswordEnv() throws {
    let error = try #require(parseError("local: m\ndevices:\n  - name: a\n    host: h\n    proxy_password: x\n"))
    #expect(error.description.hasPrefix("device.yaml:5:5: unknown key 'proxy_password' in a device: did you mean"))
    #expect(error.message.contains("'proxy_password_env'"))
}
