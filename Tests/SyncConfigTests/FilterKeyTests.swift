// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncConfig

/// Issue 19: the filter keys (`include`, `filter_from`, `min_size`, `max_size`, `max_age`, and
/// `min_age` taking durations), inherited from `defaults` and set per device.
@Test func filterKeysAreReadInheritedAndOverridden() throws {
    let config = try parsed(
        """
        local: mirror
        defaults:
          include: ["**/*.jpg"]
          min_size: 1k
          max_age: 7d
          min_age: 90
        devices:
          - name: inherits
            host: a.example
          - name: overrides
            host: b.example
            include: []
            exclude: ["DCIM/tmp/**"]
            min_size: 0
            max_size: 1.5M
            max_age: 12h
            min_age: 15m
        """)
    let inherits = config.devices[0]
    #expect(inherits.include == ["**/*.jpg"])
    #expect(inherits.minSize == 1_024)
    #expect(inherits.maxSize == nil)
    #expect(inherits.maxAge == 7 * 86_400)
    #expect(inherits.minAge == 90)  // a bare number stays seconds
    let overrides = config.devices[1]
    #expect(overrides.include == [])
    #expect(overrides.minSize == 0)
    #expect(overrides.maxSize == 1_572_864)
    #expect(overrides.maxAge == 12 * 3_600)
    #expect(overrides.minAge == 900)
    #expect(overrides.rules == [FilterRule(include: false, pattern: "DCIM/tmp/**")])
}

@Test(arguments: [
    ("min_size: big", "'min_size' must be a size"), ("max_size: -1", "'max_size' must be a size"),
    ("max_age: soon", "'max_age' must be a duration"), ("min_age: 5x", "'min_age' must be a duration"),
    ("include: [\"/\"]", "an empty pattern in 'include'"), ("include: \"*.jpg\"", "'include'"),
])
func badFilterValuesAreRefusedWithTheirPosition(line: String, message: String) throws {
    let error = try #require(parseError("local: mirror\ndevices:\n  - name: cam\n    host: c.example\n    \(line)\n"))
    #expect(error.line == 5)
    #expect(error.message.contains(message), "\(error.message)")
}

@Test func filterFromIsReadRelativeToTheConfigurationFolder() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try "# pictures\n+ **/*.jpg\n- *\n".write(toFile: folder.path + "/cam.filter", atomically: true, encoding: .utf8)
    try "junk\n".write(toFile: folder.path + "/bad.filter", atomically: true, encoding: .utf8)
    let file = folder.path + "/device.yaml"
    try """
    local: ./mirror
    devices:
      - name: cam
        host: 127.0.0.1
        filter_from: cam.filter
        exclude: ["*.tmp"]
        include: ["*.mov"]
      - name: broken
        host: 127.0.0.1
        filter_from: bad.filter
      - name: missing
        host: 127.0.0.1
        filter_from: none.filter
    """.write(toFile: file, atomically: true, encoding: .utf8)
    let config = try ConfigLoader.load(path: file, environment: [:])
    let cam = config.devices[0]
    #expect(cam.filterFrom == absolutePath(folder.path + "/cam.filter", relativeTo: "/"))
    // The filter file's lines first, then exclude, then include.
    #expect(cam.rules.map(\.pattern) == ["**/*.jpg", "*", "*.tmp", "*.mov"])
    #expect(cam.problem == nil)
    // A filter that cannot be used fails its device only, naming the file and line.
    let broken = try #require(config.devices[1].problem)
    #expect(broken.hasSuffix("bad.filter:1:1: expected '+ GLOB' or '- GLOB' (or a # comment), found 'junk'"))
    let missing = try #require(config.devices[2].problem)
    #expect(missing.contains("none.filter: cannot read the filter file: No such file or directory"))
}

/// Found by a breaker (issue 19): a FIFO named by `filter_from` blocked the load forever when
/// nothing wrote to it, and one that was written gave its rules to the first device only. A
/// filter file must be a regular file; the defaults' file is read once and shared by every device.
/// (No time limit: a parallel run may start this test late; a hang shows as the run's timeout.)
@Test func filterFromRefusesAPipeAndSharesTheDefaultsFile() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    #expect(mkfifo(folder.path + "/pipe.filter", 0o600) == 0)
    try "- *.tmp\n".write(toFile: folder.path + "/shared.filter", atomically: true, encoding: .utf8)
    let file = folder.path + "/device.yaml"
    try """
    local: ./mirror
    defaults:
      filter_from: shared.filter
    devices:
      - name: piped
        host: 127.0.0.1
        filter_from: pipe.filter
      - name: first
        host: 127.0.0.1
      - name: second
        host: 127.0.0.1
    """.write(toFile: file, atomically: true, encoding: .utf8)
    let config = try ConfigLoader.load(path: file, environment: [:])
    let piped = try #require(config.devices[0].problem)
    #expect(piped.contains("pipe.filter: the filter file is not a regular file"), "\(piped)")
    for device in config.devices.dropFirst() {
        #expect(device.problem == nil)
        #expect(device.rules == [FilterRule(include: false, pattern: "*.tmp")])
    }
}
