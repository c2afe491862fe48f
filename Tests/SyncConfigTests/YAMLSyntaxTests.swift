// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// Text libyaml refuses, and the position and words it gives.
let syntaxCases: [(yaml: String, line: Int, column: Int, message: String)] = [
    (
        "local: /d\ndevices:\n\t- name: a\n", 3, 1,
        "invalid YAML: found character that cannot start any token (while scanning for the next token at line 3, "
            + "column 1); tabs cannot indent YAML, use spaces"
    ),
    (
        "local: /d\ndevices:\n  - name: a\n     host: h\n", 4, 10,
        "invalid YAML: mapping values are not allowed in this context"
    ),
    (
        "local: /d\ndevices:\n  - name: a\n    host: h\n   port: 2\n", 5, 4,
        "invalid YAML: did not find expected '-' indicator (while parsing a block collection at line 3, column 3)"
    ),
    (
        "local: /d\ndevices: [a, b\n", 3, 1,
        "invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 10)"
    ),
    (
        "local: \"/d\ndevices: []\n", 3, 1,
        "invalid YAML: found unexpected end of stream (while scanning a quoted scalar at line 1, column 8)"
    ),
]

@Test(arguments: syntaxCases)
func badYAMLGivesLibyamlPosition(yaml: String, line: Int, column: Int, message: String) throws {
    let error = try #require(parseError(yaml))
    #expect(error.description == "device.yaml:\(line):\(column): \(message)")
}

@Test func invalidUTF8IsReportedAtItsCharacter() throws {
    var bytes = Array("local: /d\ndevices:\n  - name: é?".utf8)
    bytes[bytes.count - 1] = 0xFF
    do {
        _ = try ConfigLoader.parse(bytes: bytes, path: "x.yaml", environment: [:])
        Issue.record("invalid UTF-8 was accepted")
    } catch {
        #expect(error.description == "x.yaml:3:12: invalid YAML: invalid leading UTF-8 octet")
    }
}

@Test func anchorsAliasesAndMergeKeys() throws {
    let config = try parsed(
        """
        local: /m
        devices:
          - &base
            name: cam1
            host: 10.0.0.1
            exclude: &junk ["*.tmp", "Thumbs.db"]
            timezone: Asia/Shanghai
          - <<: *base
            name: cam2
            port: 2121
          - name: cam3
            host: 10.0.0.3
            exclude: *junk
        """)
    #expect(config.devices.map(\.name) == ["cam1", "cam2", "cam3"])
    #expect(config.devices.map(\.host) == ["10.0.0.1", "10.0.0.1", "10.0.0.3"])
    #expect(config.devices.map(\.port) == [21, 2121, 21])
    #expect(config.devices.map(\.exclude) == Array(repeating: ["*.tmp", "Thumbs.db"], count: 3))
    #expect(config.devices[1].timezone.identifier == "Asia/Shanghai")
    #expect(config.devices[2].timezone.secondsFromGMT() == 0)
}

@Test func flowSequencesAndFlowMappings() throws {
    let config = try parsed(
        "local: /m\ndevices: [{name: a, host: h1, exclude: [x, 'y z', \"*.jpg\"]}, {name: b, host: h2, exclude: []}]")
    #expect(config.devices.map(\.name) == ["a", "b"])
    #expect(config.devices[0].exclude == ["x", "y z", "*.jpg"])
    #expect(config.devices[1].exclude == [])
    #expect(config.devices[1].position == SourcePosition(line: 2, column: 62))
}

@Test func quotedStringsWithUnicode() throws {
    let config = try parsed(
        """
        local: "/数据/镜像"
        devices:
          - name: cam
            host: "ftp.example.org"
            user: 'Zoë'
            password: "p\\u00e4ss \\"wörd\\" #1"
            remote: "/照片/2024"
            exclude: ["*.tmp", "缩略图/"]
            timezone: "-0530"
        """)
    let device = try #require(config.devices.first)
    #expect(config.localRoot == "/数据/镜像")
    #expect(device.localPath == "/数据/镜像/cam")
    #expect(device.user == "Zoë")
    #expect(device.password == "päss \"wörd\" #1")
    #expect(device.remote == "/照片/2024")
    #expect(device.exclude == ["*.tmp", "缩略图/"])
    #expect(device.timezone.secondsFromGMT() == -(5 * 3600 + 30 * 60))
}

@Test func columnsCountCharactersNotBytes() throws {
    let error = try #require(parseError("local: /d\ndevices:\n  - {name: a, user: 'üüü', host: h, port: x}\n"))
    #expect(error.line == 3)
    #expect(error.column == 43)  // 46 when counted in bytes
}

@Test func blockScalarAndCommentsAndExplicitDocument() throws {
    let config = try parsed(
        "---\n# comment\nlocal: >-\n  /folded\ndevices:\n  - name: a  # trailing\n    host: h\n...\n")
    #expect(config.localRoot == "/folded")
}
