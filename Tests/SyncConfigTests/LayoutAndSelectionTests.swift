// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// Device folders (`local` of each device, in order) and the pull error, or nil when the layout is fine.
let layoutCases: [(folders: [String], error: String?)] = [
    (["a", "b"], nil),
    (["cams/a", "cams/b", "cams-c"], nil),
    (["a", "a-b", "a.b"], nil),
    (
        ["a", "x", "./a/"],
        "device.yaml:5:5: devices 'd0' and 'd2' both map to the local folder /m/a; pull needs a separate "
            + "folder per device (set 'local')"
    ),
    (
        ["a", "a/b"],
        "device.yaml:4:5: the local folder of device 'd1' (/m/a/b) is inside that of device 'd0' (/m/a); "
            + "pull needs separate folders"
    ),
    (["a/b0", "a/b", "a b", "a-b/c"], nil),
    (
        ["a b", "a", "a-z", "a/c"],
        "device.yaml:6:5: the local folder of device 'd3' (/m/a/c) is inside that of device 'd1' (/m/a); "
            + "pull needs separate folders"
    ),
    (
        ["x/y/z", "x"],
        "device.yaml:4:5: the local folder of device 'd1' (/m/x) contains that of device 'd0' (/m/x/y/z); "
            + "pull needs separate folders"
    ),
]

@Test(arguments: layoutCases)
func pullLayoutRefusesSharedOrNestedFolders(folders: [String], error expected: String?) throws {
    var text = "local: /m\ndevices:\n"
    for (index, folder) in folders.enumerated() {
        text += "  - {name: d\(index), host: h, local: '\(folder)'}\n"
    }
    let config = try ConfigLoader.parse(text: text, path: "device.yaml", environment: [:])
    do {
        try config.checkPullLayout()
        #expect(expected == nil)
    } catch {
        #expect(error.description == expected)
    }
}

@Test func pullLayoutChecksOnlyTheSelectedDevices() throws {
    let config = try parsed(
        "local: /m\ndevices:\n  - {name: a, host: h, local: same}\n  - {name: b, host: h, local: same}\n")
    #expect(throws: ConfigError.self) { try config.checkPullLayout() }
    try config.checkPullLayout(devices: config.selectDevices(named: ["b"]))
}

@Test func deviceLookupAndSelection() throws {
    let config = try parsed("local: /m\ndevices: [{name: a, host: h}, {name: b, host: h}, {name: c, host: h}]")
    #expect(config.device(named: "b")?.name == "b")
    #expect(config.device(named: "B") == nil)
    #expect(try config.selectDevices(named: []).map(\.name) == ["a", "b", "c"])
    #expect(try config.selectDevices(named: ["c", "a", "c"]).map(\.name) == ["a", "c"])
}

/// Names asked for and the exact usage error.
let unknownSelectionCases: [([String], String)] = [
    (["x"], "unknown device 'x'; known devices: a, b"),
    (["a", "y", "x", "y"], "unknown devices 'y', 'x'; known devices: a, b"),
]

@Test(arguments: unknownSelectionCases)
func selectingAnUnknownDeviceIsAUsageError(names: [String], message: String) throws {
    let config = try parsed("local: /m\ndevices: [{name: a, host: h}, {name: b, host: h}]")
    do {
        _ = try config.selectDevices(named: names)
        Issue.record("selection of \(names) succeeded")
    } catch {
        #expect(error.description == message)
        #expect(error.knownNames == ["a", "b"])
    }
}
