// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 24: a run of many devices under a low limit of open descriptors, with the built binary.
/// Addresses 127.0.27.20–127.0.27.29 belong to this suite.
@Suite(.serialized) struct ManyDevicesTests {
    /// 48 devices on one server (a folder each), `--jobs 64` where the process may open only 200
    /// files (soft and hard limit): before the jobs were fitted to the limit, most devices failed
    /// with "Too many open files".
    @Test func jobsAreFittedToTheDescriptorLimitAndTheReportSumsUpTheQuietDevices() throws {
        let names = (0..<48).map { String(format: "d%02d", $0) }
        let fleet = try OneServerFleet("many-devices", names: names, address: "127.0.27.20", roots: ["mirror"])
        defer { fleet.server.stop() }
        let work = fleet.work
        let path = fleet.configs["mirror"]!

        let limited = ["-c", "ulimit -n 200 && exec \"$0\" \"$@\"", ftpsyncBinary]
        let first = try run("/bin/sh", limited + ["pull", path, "--jobs", "64", "--no-progress"], timeout: 300)
        #expect(first.status == 0, "\(first.stdout.suffix(2000))\(first.stderr.suffix(2000))")
        #expect(first.stderr.contains("--jobs 64 lowered to 8"), "\(first.stderr.prefix(500))")
        #expect(!first.stdout.contains("Too many open files"))
        for name in names {
            #expect(FileManager.default.fileExists(atPath: "\(work)/mirror/\(name)/f1.bin"), "\(name)")
        }
        // A no-op: every device is summed up in one line, then the totals.
        let again = try run("/bin/sh", limited + ["pull", path, "--jobs", "64"], timeout: 300)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("48 devices ok, nothing to do (96 in sync)\n"), "\(again.stdout)")
        #expect(again.stdout.split(separator: "\n").count == 2, "\(again.stdout)")
    }
}
