// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// A device whose `remote:` folder does not exist (a typo, an unmounted SD card) fails the device
/// (exit 1, status `failed`, a message naming the folder) instead of syncing "nothing": vsftpd
/// and busybox answer LIST of a missing path with an empty 226, pyftpdlib with 550.
/// Addresses 127.0.7.1–127.0.7.6.
@Suite(.serialized) struct MissingRootTests {
    static let servers: [(String, String)] = [
        ("vsftpd", "127.0.7.1"), ("busybox", "127.0.7.2"), ("pyftpdlib", "127.0.7.3"),
    ]

    /// The one device's status and error in a `--json` document.
    static func device(_ json: String) -> (status: String?, error: String?) {
        let document = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let device = (document?["devices"] as? [[String: Any]])?.first
        return (device?["status"] as? String, device?["error"] as? String)
    }

    @Test(arguments: servers)
    func missingRootFailsPullPushAndLs(kind: String, address: String) throws {
        let work = try makeTemporaryFolder("missing-root-\(kind)")
        let served = work + "/served"
        try writeFile(served + "/DCIM/a.jpg", Array("photo\n".utf8), modified: 1_700_000_000)
        let server = try LabServer(kind, root: served, address: address)
        defer { server.stop() }
        let config = try server.writeConfig(in: work, name: "cam", extra: ["remote: /DCMI"])

        let pull = try ftpsync(["pull", config, "--json"])
        #expect(pull.status == 1, "pull: \(pull.stdout) \(pull.stderr)")
        let pulled = Self.device(pull.stdout)
        #expect(pulled.status == "failed", "\(pull.stdout)")
        #expect(pulled.error?.contains("/DCMI") == true, "\(pull.stdout)")
        // The same line whatever the server answers (pyftpdlib's 550 came out as its reply).
        #expect(pulled.error?.contains("does not exist on the device; check `remote:`") == true, "\(pull.stdout)")
        let status = try ftpsync(["status", config, "--json"])
        #expect(!status.stdout.contains("\"last_sync\":\"2"), "no sync recorded: \(status.stdout)")

        // Push sends nothing into a folder that is not there: it fails, or (creating the
        // root) the file arrives; never an `ok` with nothing done.
        try writeFile(work + "/mirror/cam/b.jpg", Array("local\n".utf8), modified: 1_700_000_000)
        let push = try ftpsync(["push", config, "--json"])
        let pushed = Self.device(push.stdout)
        let arrived = FileManager.default.fileExists(atPath: served + "/DCMI/b.jpg")
        #expect(arrived || (push.status == 1 && pushed.status == "failed"), "push: \(push.stdout) \(push.stderr)")

        let ls = try ftpsync(["ls", config, "cam:/missing"])
        #expect(ls.status == 1, "ls: \(ls.stdout) \(ls.stderr)")
        #expect(ls.stderr.contains("/missing"), "\(ls.stderr)")
        // An empty folder that exists is fine.
        try FileManager.default.createDirectory(atPath: served + "/empty", withIntermediateDirectories: true)
        let empty = try ftpsync(["ls", config, "cam:/empty"])
        #expect(empty.status == 0, "ls of an empty folder: \(empty.stderr)")
        let existing = try server.writeConfig(in: work, name: "cam", extra: ["remote: /empty"])
        let emptyPull = try ftpsync(["pull", existing, "--json"])
        #expect(emptyPull.status == 0, "pull of an empty root: \(emptyPull.stdout) \(emptyPull.stderr)")
    }
}
