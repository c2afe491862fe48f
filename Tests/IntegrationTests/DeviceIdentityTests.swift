// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// A firmware update is not another device; another device is refused (issue 14 item 18):
/// a new banner text alone is a note and the sync goes on, while a listing that shares almost
/// nothing with the recorded state (a camera of the same model swapped in at the same address,
/// with the same banner, SYST and FEAT) refuses the device with exit 4 before anything is
/// deleted or overwritten. Addresses 127.0.11.10–19.
@Suite(.serialized) struct DeviceIdentityTests {
    /// `count` small photos named `PREFIX_NNNN.JPG` under DCIM/100CAM, content by `seed`.
    static func cameraTree(_ root: String, prefix: String, count: Int, seed: Int) throws {
        for index in 0..<count {
            let name = String(format: "%@_%04d.JPG", prefix, index)
            try writeFile(
                root + "/DCIM/100CAM/" + name, pseudoRandomBytes(100 + index, seed: UInt64(seed + index)),
                modified: 1_700_000_000 + Double(index) * 60)
        }
    }

    /// The device's entry of a `--json` document.
    static func device(_ text: String) -> [String: Any] {
        let document = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
        return (document["devices"] as? [[String: Any]])?.first ?? [:]
    }

    @Test func aNewBannerIsANoteAndTheSyncGoesOn() throws {
        let work = try makeTemporaryFolder("identity-banner")
        let served = work + "/served"
        try Self.cameraTree(served, prefix: "IMG", count: 5, seed: 10)
        do {
            let server = try LabServer(
                "pyftpdlib", root: served, address: "127.0.11.10",
                environment: ["FTPSYNC_LAB_BANNER": "CamOS ready (release build)"])
            defer { server.stop() }
            let config = try server.writeConfig(in: work, name: "cam")
            let first = try ftpsync(["pull", config, "-q"])
            #expect(first.status == 0, "\(first.stderr)")
        }
        // The same device after a firmware update: another greeting, same files and features.
        try Self.cameraTree(served + "/new", prefix: "NEW", count: 1, seed: 99)
        let server = try LabServer(
            "pyftpdlib", root: served, address: "127.0.11.10",
            environment: ["FTPSYNC_LAB_BANNER": "CamOS ready (beta firmware, patched)"])
        defer { server.stop() }
        let config = try server.writeConfig(in: work, name: "cam")
        let updated = try ftpsync(["pull", config])
        #expect(updated.status == 0, "\(updated.stdout)\(updated.stderr)")
        #expect(updated.stdout.contains("cam: ok"), "\(updated.stdout)")
        #expect(
            updated.stdout.contains("taken for a firmware update of the same device; recorded"), "\(updated.stdout)")
        #expect(FileManager.default.fileExists(atPath: work + "/mirror/cam/new/DCIM/100CAM/NEW_0000.JPG"))
        // Recorded: the next run has nothing to say about it.
        let again = try ftpsync(["pull", config])
        #expect(again.status == 0 && !again.stdout.contains("firmware update"), "\(again.stdout)")
    }

    @Test func anotherTreeAtTheSameAddressIsRefused() throws {
        let work = try makeTemporaryFolder("identity-tree")
        let first = work + "/first"
        let second = work + "/second"
        try Self.cameraTree(first, prefix: "IMG", count: 30, seed: 1)
        // The same model: the same names for some (cameras count from 0001), other sizes and content.
        try Self.cameraTree(second, prefix: "DSC", count: 28, seed: 500)
        try Self.cameraTree(second, prefix: "IMG", count: 2, seed: 900)
        for index in 0..<2 {
            try writeFile(
                second + String(format: "/DCIM/100CAM/IMG_%04d.JPG", index),
                pseudoRandomBytes(5_000, seed: UInt64(index)),
                modified: 1_800_000_000)
        }
        let config: String
        do {
            let server = try LabServer("pyftpdlib", root: first, address: "127.0.11.11")
            defer { server.stop() }
            config = try server.writeConfig(in: work, name: "cam")
            #expect(try ftpsync(["pull", config, "-q"]).status == 0)
        }
        let mirror = work + "/mirror/cam/DCIM/100CAM"
        let before = try FileManager.default.contentsOfDirectory(atPath: mirror).sorted()
        #expect(before.count == 30)

        // Another camera of the same model at the same address (same server, banner, SYST, FEAT).
        let other = try LabServer("pyftpdlib", root: second, address: "127.0.11.11")
        defer { other.stop() }
        let swapped = try other.writeConfig(in: work, name: "cam")
        #expect(swapped == config)
        let refused = try ftpsync(["pull", config, "--json", "--delete"])
        #expect(refused.status == 4, "\(refused.stdout)\(refused.stderr)")
        let device = Self.device(refused.stdout)
        #expect(device["status"] as? String == "refused", "\(device)")
        let message = device["error"] as? String ?? ""
        #expect(message.contains("lists another tree than this device's: 2 of 30 recorded files found"), "\(message)")
        #expect(message.contains("--accept-new-identity"), "\(message)")
        // Nothing changed here: the same 30 files with their content, none of the other camera's.
        #expect(try FileManager.default.contentsOfDirectory(atPath: mirror).sorted() == before)
        let kept = FileManager.default.contents(atPath: mirror + "/IMG_0000.JPG").map { [UInt8]($0) }
        #expect(kept == pseudoRandomBytes(100, seed: 1))
        // A push would overwrite the other camera's files: refused too.
        let pushed = try ftpsync(["push", config, "--json"])
        #expect(pushed.status == 4, "\(pushed.stdout)\(pushed.stderr)")
        // Both refusals are the device's events; it was reached every time (no offline event).
        let status = try ftpsync(["status", config, "--events", "--json"])
        let document = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let events = document?["events"] as? [[String: Any]] ?? []
        #expect(events.map { $0["kind"] as? String } == ["identity_changed", "identity_changed"], "\(status.stdout)")

        // Accepted by the user: the run goes on.
        let accepted = try ftpsync(["pull", config, "--json", "--accept-new-identity"])
        #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        #expect(FileManager.default.fileExists(atPath: mirror + "/DSC_0000.JPG"))
    }
}
