// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Two device names equal after Unicode normalization (NFC `café.txt` and NFD `café.txt`),
/// with different content: both are pulled, the NFD one as `café~nfd.txt`, stable across runs,
/// and a change or a delete of one never touches the other. pyftpdlib; address 127.0.7.10.
@Suite(.serialized) struct NameTwinTests {
    static let composed = "caf\u{E9}.txt"
    static let decomposed = "cafe\u{301}.txt"

    static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test func bothTwinsAreSyncedUnderTheirOwnNames() throws {
        #expect(!Array(Self.composed.utf8).elementsEqual(Array(Self.decomposed.utf8)))
        let work = try makeTemporaryFolder("twins")
        let served = work + "/served"
        let old: Double = 1_700_000_000
        try writeFile(served + "/" + Self.composed, Array("composed\n".utf8), modified: old)
        try writeFile(served + "/" + Self.decomposed, Array("decomposed!\n".utf8), modified: old + 60)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.7.10")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let cam = mirror + "/cam"

        let first = try ftpsync(["pull", config])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(Self.read(cam + "/" + Self.composed) == "composed\n")
        #expect(Self.read(cam + "/caf\u{E9}~nfd.txt") == "decomposed!\n")

        let retrieved = server.count("RETR")
        let second = try ftpsync(["pull", config])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(server.count("RETR") == retrieved, "stable: nothing downloaded again")

        // A change of the NFD twin reaches its own local name only.
        try writeFile(served + "/" + Self.decomposed, Array("decomposed, changed\n".utf8), modified: old + 120)
        let third = try ftpsync(["pull", config])
        #expect(third.status == 0, "\(third.stdout)\(third.stderr)")
        #expect(Self.read(cam + "/caf\u{E9}~nfd.txt") == "decomposed, changed\n")
        #expect(Self.read(cam + "/" + Self.composed) == "composed\n")

        // A push of a local edit of the twin goes to the NFD name on the device.
        try writeFile(cam + "/caf\u{E9}~nfd.txt", Array("edited here\n".utf8), modified: old + 180)
        let push = try ftpsync(["push", config])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(Self.read(served + "/" + Self.decomposed) == "edited here\n")
        #expect(Self.read(served + "/" + Self.composed) == "composed\n")
        #expect(!FileManager.default.fileExists(atPath: served + "/caf\u{E9}~nfd.txt"))

        // The NFD twin gone from the device: --delete trashes its local name, not the other.
        try FileManager.default.removeItem(atPath: served + "/" + Self.decomposed)
        let fourth = try ftpsync(["pull", config, "--delete"])
        #expect(fourth.status == 0, "\(fourth.stdout)\(fourth.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cam + "/caf\u{E9}~nfd.txt"))
        #expect(Self.read(cam + "/" + Self.composed) == "composed\n")
    }
}
