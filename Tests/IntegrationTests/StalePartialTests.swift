// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// A partial download kept from an earlier version of a device file is never resumed into a
/// newer version (found by a breaker: the head of the old version and the tail of the new one
/// were placed and recorded, and an offload then deleted the device's file). Address 127.0.85.1.
@Suite(.serialized) struct StalePartialTests {
    /// A pull killed midway keeps the bytes of `big.bin` under `.ftpsync/partial/`. The device's
    /// file is then rewritten in its head (same size, its last bytes the same, a new time). A
    /// capped run plans it from byte 0 but does not start it; the next run must fetch it whole.
    @Test func theBytesOfAnEarlierVersionAreNotResumedAfterACappedRun() throws {
        let work = try makeTemporaryFolder("stale-partial")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let old = pseudoRandomBytes(3_000_000, seed: 85)
        let hourAgo = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600
        try writeTree([SampleFile(path: "big.bin", content: old, modified: hourAgo)], at: served)
        var server = try FTPServer(.pyftpdlib, root: served, address: "127.0.85.1", options: ["--throttle", "300000"])
        let port = server.port
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let options = ["--parallel", "1", "--order", "name", "--no-progress", "--json"]

        let child = try spawn(ftpsyncBinary, ["pull", config] + options, output: true)
        let partials = mirror + "/.ftpsync/partial/cam"
        func kept() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
            return names.compactMap {
                (try? FileManager.default.attributesOfItem(atPath: partials + "/" + $0))?[.size] as? Int
            }.max() ?? 0
        }
        let started = waitUntil(60) { kept() > 500_000 }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 30)
        unlink(child.stdout)
        unlink(child.stderr)
        server.stop()
        #expect(started)

        // The device's file changes in its head only, and a small file comes first in the order.
        var new = old
        for index in 8_192..<100_000 { new[index] ^= 0x5A }
        try writeTree(
            [
                SampleFile(path: "big.bin", content: new, modified: hourAgo + 1_800),
                SampleFile(path: "a.bin", content: pseudoRandomBytes(100_000, seed: 86), modified: hourAgo),
            ], at: served)
        server = try FTPServer(.pyftpdlib, root: served, address: "127.0.85.1", port: port)
        defer { server.stop() }
        let capped = try ftpsync(["pull", config, "--max-transfer", "1"] + options)
        #expect(capped.status == 5, "\(capped.stdout)\(capped.stderr)")
        let rest = try ftpsync(["pull", config] + options)
        #expect(rest.status == 0, "\(rest.stdout)\(rest.stderr)")
        let whole = Push.bytes(mirror + "/cam/big.bin") == new
        #expect(whole, "the old version's head was resumed into the new file")
        #expect(!server.commands().contains { $0.uppercased().hasPrefix("REST ") && $0 != "REST 0" })
    }
}
