// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// One configuration with one mistake, and the exact message the user sees.
struct ErrorCase: CustomTestStringConvertible, Sendable {
    let name: String
    let yaml: String
    var environment: [String: String] = [:]
    let line: Int
    let column: Int
    let message: String

    var testDescription: String { name }
}

let errorCases: [ErrorCase] = [
    ErrorCase(
        name: "port written into host",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: \"10.0.0.5:2121\"\n", line: 4, column: 11,
        message: "'host' holds a port ('10.0.0.5:2121'): put the port in `port: 2121` and write `host: 10.0.0.5`"),
    ErrorCase(
        name: "port written after a bracketed IPv6 host",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: \"[fe80::1]:21\"\n", line: 4, column: 11,
        message: "'host' holds a port ('[fe80::1]:21'): put the port in `port: 21` and write `host: fe80::1`"),
    ErrorCase(
        name: "unknown key with suggestion",
        yaml: "local: /d\ndevices:\n  - name: a\n    hots: h\n", line: 4, column: 5,
        message: "unknown key 'hots'; did you mean 'host'?"),
    ErrorCase(
        name: "unknown key, hyphen for underscore",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    password-env: X\n", line: 5, column: 5,
        message: "unknown key 'password-env'; did you mean 'password_env'?"),
    ErrorCase(
        name: "unknown top-level key with suggestion",
        yaml: "locl: /d\ndevices: []\n", line: 1, column: 1,
        message: "unknown key 'locl'; did you mean 'local'?"),
    ErrorCase(
        name: "unknown top-level key without suggestion",
        yaml: "local: /d\nzebra: 1\ndevices: []\n", line: 2, column: 1,
        message: "unknown key 'zebra' at the top level; valid keys: local, defaults, devices, metrics_file, "
            + "log_format, trash_retention, on_finish, on_failure"),
    ErrorCase(
        name: "device key at the top level",
        yaml: "local: /d\nhost: h\ndevices: []\n", line: 2, column: 1,
        message: "unknown key 'host' at the top level; device keys belong in a device under 'devices' "
            + "or under 'defaults'"),
    ErrorCase(
        name: "unknown key in defaults",
        yaml: "local: /d\ndefaults:\n  conections: 3\ndevices:\n  - {name: a, host: h}\n", line: 3, column: 3,
        message: "unknown key 'conections'; did you mean 'connections'?"),
    ErrorCase(
        name: "name in defaults",
        yaml: "local: /d\ndefaults:\n  name: x\ndevices:\n  - {name: a, host: h}\n", line: 3, column: 3,
        message: "'name' cannot be set in 'defaults': each device has its own"),
    ErrorCase(
        name: "port not a number",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    port: \"abc\"\n", line: 5, column: 11,
        message: "'port' must be an integer from 1 to 65535, found 'abc'"),
    ErrorCase(
        name: "port out of range",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    port: 70000\n", line: 5, column: 11,
        message: "'port' must be an integer from 1 to 65535, found '70000'"),
    ErrorCase(
        name: "port zero",
        yaml: "local: /d\ndevices:\n  - {name: a, host: h, port: 0}\n", line: 3, column: 30,
        message: "'port' must be an integer from 1 to 65535, found '0'"),
    ErrorCase(
        name: "negative connections",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    connections: -1\n", line: 5, column: 18,
        message: "'connections' must be an integer from 1 to 16, found '-1'"),
    ErrorCase(
        name: "too many connections in defaults",
        yaml: "local: /d\ndefaults: {connections: 17}\ndevices:\n  - {name: a, host: h}\n", line: 2, column: 25,
        message: "'connections' must be an integer from 1 to 16, found '17'"),
    ErrorCase(
        name: "port given a mapping",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    port:\n      x: 1\n", line: 6, column: 7,
        message: "'port' must be an integer from 1 to 65535, found a mapping"),
    ErrorCase(
        name: "timeout not positive",
        yaml: "local: /d\ndevices:\n  - {name: a, host: h, timeout: 0}\n", line: 3, column: 33,
        message: "'timeout' must be a number of seconds greater than 0 and at most 86400, found '0'"),
    ErrorCase(
        name: "boolean misspelled",
        yaml: "local: /d\ndevices:\n  - {name: a, host: h, passive: maybe}\n", line: 3, column: 33,
        message: "'passive' must be true or false, found 'maybe'"),
    ErrorCase(
        name: "host given a list",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: [h1, h2]\n", line: 4, column: 11,
        message: "'host' must be a string, found a list"),
    ErrorCase(
        name: "empty host",
        yaml: "local: /d\ndevices:\n  - name: a\n    host:\n", line: 4, column: 10,
        message: "'host' must not be empty"),
    ErrorCase(
        name: "exclude not a list",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    exclude: {a: b}\n", line: 5, column: 14,
        message: "'exclude' must be a list, found a mapping"),
    ErrorCase(
        name: "user with a line break",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    user: \"cam\\r\\nDELE x\"\n", line: 5, column: 11,
        message: "'user' must not contain line breaks or NUL characters"),
    ErrorCase(
        name: "duplicate device name",
        yaml: "local: /d\ndevices:\n  - name: cam\n    host: h\n  - name: cam\n    host: h2\n", line: 5, column: 11,
        message: "duplicate device name 'cam' (first at line 3, column 11)"),
    ErrorCase(
        name: "invalid device name",
        yaml: "local: /d\ndevices:\n  - name: front camera\n    host: h\n", line: 3, column: 11,
        message: "invalid device name 'front camera': use only letters, digits, '.', '_' and '-' (not '.' or '..')"),
    ErrorCase(
        name: "device name '..'",
        yaml: "local: /d\ndevices:\n  - name: '..'\n    host: h\n", line: 3, column: 11,
        message: "invalid device name '..': use only letters, digits, '.', '_' and '-' (not '.' or '..')"),
    ErrorCase(
        name: "missing local",
        yaml: "devices:\n  - name: a\n    host: h\n", line: 1, column: 1,
        message: "missing required key 'local' (the local tree's root folder)"),
    ErrorCase(
        name: "missing devices",
        yaml: "# just a root\nlocal: /d\n", line: 2, column: 1,
        message: "missing required key 'devices' (the list of devices)"),
    ErrorCase(
        name: "empty devices",
        yaml: "local: /d\ndevices: []\n", line: 2, column: 10,
        message: "'devices' must list at least one device"),
    ErrorCase(
        name: "null devices",
        yaml: "local: /d\ndevices:\n", line: 2, column: 9,
        message: "'devices' must list at least one device"),
    ErrorCase(
        name: "devices is a mapping",
        yaml: "local: /d\ndevices:\n  a: 1\n", line: 3, column: 3,
        message: "'devices' must be a list, found a mapping"),
    ErrorCase(
        name: "device is a scalar",
        yaml: "local: /d\ndevices:\n  - cam\n", line: 3, column: 5,
        message: "device #1 must be a mapping with at least 'name' and 'host', found 'cam'"),
    ErrorCase(
        name: "missing host: position of the device mapping",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n  - name: b\n    port: 21\n", line: 5, column: 5,
        message: "missing required key 'host' in device 'b'"),
    ErrorCase(
        name: "missing name",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n  -   host: h\n", line: 5, column: 7,
        message: "missing required key 'name' in device #2"),
    ErrorCase(
        name: "both password and password_env",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    password: s\n    password_env: PW\n",
        environment: ["PW": "x"], line: 6, column: 19,
        message: "'password' and 'password_env' cannot both be set ('password' is at line 5, column 15)"),
    ErrorCase(
        name: "duplicate key in one mapping",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    port: 21\n    host: h2\n", line: 6, column: 5,
        message: "duplicate key 'host' (first at line 4, column 5)"),
    ErrorCase(
        name: "duplicate top-level key",
        yaml: "local: /d\nlocal: /e\ndevices: []\n", line: 2, column: 1,
        message: "duplicate key 'local' (first at line 1, column 1)"),
    ErrorCase(
        name: "bad tls value",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    tls: ssl\n", line: 5, column: 10,
        message: "'tls' must be one of none, explicit, implicit; found 'ssl'"),
    ErrorCase(
        name: "bad passive_address",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    passive_address: client\n", line: 5, column: 22,
        message: "'passive_address' must be one of peer, server; found 'client'"),
    ErrorCase(
        name: "bad on_conflict in a device",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    on_conflict: overwrite\n", line: 5, column: 18,
        message: "'on_conflict' must be one of keep-both, local-wins, remote-wins, newer-wins, report; "
            + "found 'overwrite'"),
    ErrorCase(
        name: "bad on_conflict in defaults",
        yaml: "local: /d\ndefaults:\n  on_conflict: [keep-both]\ndevices:\n  - name: a\n    host: h\n", line: 3,
        column: 16,
        message: "'on_conflict' must be one of keep-both, local-wins, remote-wins, newer-wins, report; "
            + "found a list"),
    ErrorCase(
        name: "bad encoding",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    encoding: EBCDIC\n", line: 5, column: 15,
        message: "unknown encoding 'ebcdic' in 'encoding': use utf-8, gbk, gb18030, big5, shift_jis, "
            + "euc-jp, euc-kr, latin1, iso-8859-N, cp125N, koi8-r, ..."),
    ErrorCase(
        name: "device folder leaving the root",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    local: ../elsewhere\n", line: 5, column: 12,
        message: "a device's 'local' must be a folder under the top-level 'local' (relative, not leading out "
            + "with '..'), found '../elsewhere'"),
    ErrorCase(
        name: "device folder inside .ftpsync",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    local: ./.ftpsync/x\n", line: 5, column: 12,
        message: "a device's 'local' cannot be '.ftpsync' or inside it (ftpsync's own folder)"),
    ErrorCase(
        name: "device folder is the top-level folder",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    local: x/..\n", line: 5, column: 12,
        message: "a device's 'local' must be a folder below the top-level 'local', not the top-level folder itself"),
    ErrorCase(
        name: "device named .ftpsync without a local",
        yaml: "local: /d\ndevices:\n  - name: .ftpsync\n    host: h\n", line: 3, column: 11,
        message: "device '.ftpsync' needs its own 'local': a device's 'local' cannot be '.ftpsync' or inside it "
            + "(ftpsync's own folder)"),
    ErrorCase(
        name: "configuration nested too deep",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    exclude: " + String(repeating: "[", count: 70)
            + String(repeating: "]", count: 70) + "\n", line: 5, column: 75,
        message: "nested more than 64 levels deep"),
    ErrorCase(
        name: "empty file",
        yaml: "", line: 1, column: 1,
        message: "the file is empty; it needs 'local' and 'devices'"),
    ErrorCase(
        name: "top level is a list",
        yaml: "- local: /d\n", line: 1, column: 1,
        message: "the top level must be a mapping with 'local' and 'devices', found a list"),
    ErrorCase(
        name: "two documents",
        yaml: "local: /d\ndevices: [{name: a, host: h}]\n---\nlocal: /e\n", line: 3, column: 1,
        message: "expected one YAML document, found a second one ('---')"),
    ErrorCase(
        name: "unknown alias",
        yaml: "local: /d\ndevices:\n  - *cam\n", line: 3, column: 5,
        message: "unknown alias '*cam'"),
    ErrorCase(
        name: "mapping as a key",
        yaml: "local: /d\n? {a: 1}\n: x\ndevices: []\n", line: 2, column: 3,
        message: "mapping keys must be plain words, found a mapping"),
]

/// Mistakes in one device's settings: the file loads, that device carries the problem (it
/// fails alone, issue 14 item 12), with the exact message at the value's position.
let deviceProblemCases: [ErrorCase] = [
    ErrorCase(
        name: "password_env names an unset variable",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    password_env: CAM_PASSWORD\n",
        environment: ["OTHER": "x"], line: 5, column: 19,
        message: "environment variable 'CAM_PASSWORD' (named by 'password_env') is not set" + cronHint),
    ErrorCase(
        name: "password_env in defaults names an unset variable",
        yaml: "local: /d\ndefaults:\n  password_env: PW\ndevices:\n  - name: a\n    host: h\n", line: 3, column: 17,
        message: "environment variable 'PW' (named by 'password_env') is not set" + cronHint),
    ErrorCase(
        name: "bad timezone",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    timezone: Mars/Olympus\n", line: 5, column: 15,
        message: "unknown time zone 'Mars/Olympus' in 'timezone': use an offset like +08:00, UTC, "
            + "or a name like Asia/Shanghai"),
    ErrorCase(
        name: "ambiguous zone abbreviation",
        yaml: "local: /d\ndevices:\n  - name: a\n    host: h\n    timezone: CST\n", line: 5, column: 15,
        message: "unknown time zone 'CST' in 'timezone': use an offset like +08:00, UTC, "
            + "or a name like Asia/Shanghai"),
]

@Test(arguments: deviceProblemCases)
func deviceProblemFailsTheDeviceOnly(_ errorCase: ErrorCase) throws {
    #expect(parseError(errorCase.yaml, environment: errorCase.environment) == nil)
    let configuration = try ConfigLoader.parse(
        text: errorCase.yaml + "  - name: other\n    host: h2\n    password: p\n    timezone: UTC\n",
        path: "device.yaml",
        environment: errorCase.environment)
    #expect(
        configuration.devices.first?.problem
            == "device.yaml:\(errorCase.line):\(errorCase.column): \(errorCase.message)")
    #expect(configuration.devices.last?.problem == nil)
}

@Test(arguments: errorCases)
func errorCaseGivesExactMessage(_ errorCase: ErrorCase) throws {
    let error = try #require(parseError(errorCase.yaml, environment: errorCase.environment))
    #expect(error.file == "device.yaml")
    #expect(error.line == errorCase.line)
    #expect(error.column == errorCase.column)
    #expect(error.message == errorCase.message)
    #expect(error.description == "device.yaml:\(errorCase.line):\(errorCase.column): \(errorCase.message)")
}

/// The hint the error for an unset `password_env` variable ends with.
private let cronHint =
    " (cron and systemd start with almost no environment: set it in the crontab or an EnvironmentFile)"
