// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 17: the listing budget's entries are those held at once (listed ahead of the walk and
/// the folder being planned), not those listed in total: a device with more files than the cap
/// is pulled whole, folder by folder, while a folder larger than the cap still ends the run
/// with the budget's error. Addresses 127.0.38.10–11.
@Suite(.serialized) struct HeldEntriesTests {
    /// 40 folders of 100 files (4,040 entries) against a cap of 2,500 entries held: two
    /// connections hold at most 16 folders listed ahead, the one being planned and the root's.
    @Test func aTreeLargerThanTheEntriesCapIsPulledWhole() throws {
        let work = try makeTemporaryFolder("held-entries")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let served = work + "/served"
        for folder in 0..<40 {
            for file in 0..<100 {
                let path = String(format: "folder%02d/file%03d.txt", folder, file)
                try writeFile(served + "/" + path, Array("\(path)\n".utf8), modified: 1_700_000_000)
            }
        }
        try FileManager.default.createDirectory(atPath: served + "/big", withIntermediateDirectories: true)
        let server = try FTPServer(.vsftpd, root: served, address: "127.0.38.10")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: ./mirror\ndevices:\n" + server.deviceYAML(name: "nas")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let environment = ["FTPSYNC_LISTING_LIMITS": "67108864:2500:134217728:5000"]

        let pull = try ftpsync(["pull", config, "--parallel", "2", "-q"], environment: environment, timeout: 300)
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        let copied = try FileManager.default.subpathsOfDirectory(atPath: work + "/mirror/nas")
        #expect(copied.filter { $0.hasSuffix(".txt") }.count == 4_000)
        let again = try ftpsync(["pull", config, "--parallel", "2", "-q"], environment: environment, timeout: 300)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")

        // One folder of 2,600 entries is more than the cap holds: the budget's error, named.
        for file in 0..<2_600 {
            try writeFile(served + "/big/" + String(format: "f%04d", file), [1], modified: 1_700_000_000)
        }
        let over = try ftpsync(["pull", config, "--parallel", "2", "--json"], environment: environment, timeout: 300)
        #expect(over.status == 1, "\(over.stdout)\(over.stderr)")
        #expect(over.stdout.contains("exceeded 2500 entries held at once in total for device nas"), "\(over.stdout)")
    }

    /// The folders listed ahead of the walk (8 per connection) are not counted while they wait:
    /// four connections pull a tree whose folders fit the cap one at a time (40 folders of 200
    /// files, a cap of 500 entries held), as one connection does.
    @Test func foldersListedAheadDoNotCountAgainstTheCap() throws {
        let work = try makeTemporaryFolder("held-ahead")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let served = work + "/served"
        for folder in 0..<40 {
            for file in 0..<200 {
                try writeFile(served + String(format: "/d%02d/f%03d", folder, file), [1], modified: 1_700_000_000)
            }
        }
        let server = try FTPServer(.vsftpd, root: served, address: "127.0.38.11")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: ./mirror\ndevices:\n" + server.deviceYAML(name: "nas")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let environment = ["FTPSYNC_LISTING_LIMITS": "67108864:500:134217728:1000"]
        for parallel in ["1", "4"] {
            let dry = try ftpsync(
                ["pull", config, "--dry-run", "--parallel", parallel, "--json"], environment: environment, timeout: 300)
            #expect(dry.status == 0, "--parallel \(parallel): \(dry.stdout.suffix(400))\(dry.stderr)")
        }
    }
}
