// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 14 item 9: servers whose REST + STOR keeps only the tail or zero-fills the head. An
/// interrupted upload resumed there comes out wrong; the check before RNTO catches it, the
/// file is sent whole in the same run, and the device's quirk is kept in the state: the next
/// interrupted upload starts over from byte 0 at once (no REST, no APPE).
@Suite(.serialized) struct PushResumeQuirkTests {
    @Test(arguments: [("rest-keeps-tail", "127.0.8.20"), ("rest-zero-fill", "127.0.8.21")])
    func aWrongResumeFallsBackToAWholeUploadAndIsRemembered(mode: String, address: String) throws {
        let work = try makeTemporaryFolder("push-\(mode)")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let first = pseudoRandomBytes(300_000, seed: 91)
        try writeFile(mirror + "/cam/a.bin", first, modified: Push.minute(daysAgo: 3))
        let server = try HostileServer(mode, address: address, root: served)
        defer { server.stop() }
        let config = try server.config(local: mirror, at: work, timeout: 5, retries: 2)
        let environment = ["HOSTILE_PASS": "x"]

        let run1 = try ftpsync(["push", config, "--json"], environment: environment, timeout: 60)
        #expect(run1.status == 0, "\(run1.stdout)\(run1.stderr)")
        #expect(Push.bytes(served + "/a.bin") == first, "the device's file must be the local one")
        let log1 = server.commands()
        #expect(log1.contains("REST 65536"), "the first resume was tried: \(log1)")

        let second = pseudoRandomBytes(300_000, seed: 92)
        try writeFile(mirror + "/cam/b.bin", second, modified: Push.minute(daysAgo: 3))
        let run2 = try ftpsync(["push", config, "--json"], environment: environment, timeout: 60)
        #expect(run2.status == 0, "\(run2.stdout)\(run2.stderr)")
        #expect(Push.bytes(served + "/b.bin") == second, "the device's file must be the local one")
        let log2 = Array(server.commands().dropFirst(log1.count))
        // No STOR after a REST (the read-back check's REST + RETR are fine).
        let resumed = log2.indices.dropFirst().filter { index in
            log2[index].hasPrefix("STOR ") && log2[index - 1].hasPrefix("REST ") && log2[index - 1] != "REST 0"
        }
        #expect(resumed.isEmpty, "no resume tried: \(log2)")
        #expect(!log2.contains { $0.hasPrefix("APPE ") }, "no resume tried: \(log2)")
        #expect(log2.filter { $0.hasPrefix("STOR ") }.count == 2, "cut, then whole: \(log2)")
    }
}
