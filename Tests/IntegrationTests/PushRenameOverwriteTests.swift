// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 14 item 8: servers whose RNTO will not replace an existing file. One that refuses
/// (550 "exists") gets a DELE of the old file and a second RNTO; one that answers 250 and
/// renames nothing is caught by checking the result. Either way the device ends with the new
/// files, and the quirk is remembered for the rest of the run (the second file goes straight
/// to DELE + RNTO).
@Suite(.serialized) struct PushRenameOverwriteTests {
    @Test(arguments: [("refuse-overwrite-rnto", "127.0.8.10"), ("lying-rnto", "127.0.8.11")])
    func aChangedFileReplacesTheDevicesCopy(mode: String, address: String) throws {
        let work = try makeTemporaryFolder("push-\(mode)")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        try writeFile(mirror + "/cam/a.jpg", pseudoRandomBytes(10_000, seed: 81), modified: Push.minute(daysAgo: 3))
        try writeFile(mirror + "/cam/b.jpg", pseudoRandomBytes(12_000, seed: 82), modified: Push.minute(daysAgo: 3))
        let server = try HostileServer(mode, address: address, root: served)
        defer { server.stop() }
        let config = try server.config(local: mirror, at: work, timeout: 5)
        let environment = ["HOSTILE_PASS": "x"]

        let first = try ftpsync(["push", config, "--json"], environment: environment)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        let newA = pseudoRandomBytes(20_000, seed: 83)
        let newB = pseudoRandomBytes(22_000, seed: 84)
        try writeFile(mirror + "/cam/a.jpg", newA, modified: Push.minute(daysAgo: 2))
        try writeFile(mirror + "/cam/b.jpg", newB, modified: Push.minute(daysAgo: 2))
        let renamesBefore = count("RNTO", server)
        let second = try ftpsync(["push", config, "--json"], environment: environment)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(Push.bytes(served + "/a.jpg") == newA, "the device's a.jpg must be the new one")
        #expect(Push.bytes(served + "/b.jpg") == newB, "the device's b.jpg must be the new one")
        #expect(!FileManager.default.fileExists(atPath: served + "/.a.jpg.ftpsync-part"))
        #expect(!FileManager.default.fileExists(atPath: served + "/.b.jpg.ftpsync-part"))
        // The first file learns the quirk (RNTO, DELE, RNTO); the second goes to DELE + RNTO.
        #expect(count("RNTO", server) - renamesBefore == 3, "\(server.commands())")
        #expect(count("DELE", server) == 2, "\(server.commands())")

        // Converged: the next run has nothing to do.
        let third = try ftpsync(["push", config, "--json"], environment: environment)
        #expect(third.status == 0, "\(third.stdout)\(third.stderr)")
        #expect(Push.actions(third.stdout).isEmpty, "\(third.stdout)")
    }
}

extension PushRenameOverwriteTests {
    /// The old file was deleted to make room, then the second RNTO failed: the upload is
    /// kept as its temporary (never neither file), the run says so and exits 1, and the next
    /// run puts it in place.
    @Test func aFailedSecondRenameKeepsTheTemporaryAndTheNextRunCompletes() throws {
        let work = try makeTemporaryFolder("push-rnto-after-dele")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        try writeFile(mirror + "/cam/a.jpg", pseudoRandomBytes(10_000, seed: 85), modified: Push.minute(daysAgo: 3))
        let server = try HostileServer("rnto-fails-after-dele", address: "127.0.8.12", root: served)
        defer { server.stop() }
        let config = try server.config(local: mirror, at: work, timeout: 5)
        let environment = ["HOSTILE_PASS": "x"]
        let first = try ftpsync(["push", config, "--json"], environment: environment)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        let newA = pseudoRandomBytes(20_000, seed: 86)
        try writeFile(mirror + "/cam/a.jpg", newA, modified: Push.minute(daysAgo: 2))
        let second = try ftpsync(["push", config, "--json"], environment: environment)
        #expect(second.status == 1, "\(second.stdout)\(second.stderr)")
        #expect(Push.bytes(served + "/.a.jpg.ftpsync-part") == newA, "the upload waits as its temporary")
        #expect(second.stdout.contains("next run puts it in place"), "\(second.stdout)")

        let third = try ftpsync(["push", config, "--json"], environment: environment)
        #expect(third.status == 0, "\(third.stdout)\(third.stderr)")
        #expect(Push.bytes(served + "/a.jpg") == newA)
        #expect(!FileManager.default.fileExists(atPath: served + "/.a.jpg.ftpsync-part"))
    }
}

/// Commands `server` logged that start with `verb`.
private func count(_ verb: String, _ server: HostileServer) -> Int {
    server.commands().filter { $0.uppercased() == verb || $0.uppercased().hasPrefix(verb + " ") }.count
}
