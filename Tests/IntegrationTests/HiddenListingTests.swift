// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 19: dot files on LIST-only servers. `LIST -a` by default (vsftpd hides dot files
/// from plain LIST: `force_dot_files=NO`), `hidden: false` sends plain LIST; a server that
/// takes `-a` for a path or refuses it gets plain LIST, remembered for later runs.
/// Addresses 127.0.49.1–127.0.49.9.
@Suite(.serialized) struct HiddenListingTests {
    /// One dot file and one plain file, as LIST lines.
    static let folders: [String: [String]] = [
        "/": [
            "-rw-r--r-- 1 u g 100 Jan 05 2024 .hidden.txt", "-rw-r--r-- 1 u g 200 Jan 05 2024 visible.txt",
        ]
    ]
    static let files: [String: Int] = ["/.hidden.txt": 100, "/visible.txt": 200]

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// vsftpd (no MLSD, so LIST) serves `.hidden.txt` and `visible.txt`: a pull gets both by
    /// default and only `visible.txt` with `hidden: false`.
    @Test func vsftpdPullGetsDotFilesUnlessHiddenIsFalse() throws {
        let work = try makeTemporaryFolder("hidden-vsftpd")
        let served = work + "/served"
        try writeFile(served + "/.hidden.txt", Array("hidden\n".utf8), modified: 1_700_000_000)
        try writeFile(served + "/visible.txt", Array("visible\n".utf8), modified: 1_700_000_000)
        let server = try FTPServer(.vsftpd, root: served, address: "127.0.49.1")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try
            ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "on")
            + server.deviceYAML(name: "off", extra: "    hidden: false\n"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)

        let pull = try ftpsync(["pull", config])
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(Self.exists(work + "/mirror/on/.hidden.txt"), "LIST -a shows dot files: \(pull.stdout)")
        #expect(Self.exists(work + "/mirror/on/visible.txt"))
        #expect(!Self.exists(work + "/mirror/off/.hidden.txt"), "hidden: false sends plain LIST")
        #expect(Self.exists(work + "/mirror/off/visible.txt"))
        let lists = server.commands().filter { $0.uppercased().hasPrefix("LIST") }
        #expect(lists.contains { $0.contains("-a") } && lists.contains { !$0.contains("-a") }, "\(lists)")
    }

    /// A server that takes `-a` for a path (550, or an empty listing) or refuses it (501): the
    /// pull still gets every file, and the next run sends no `LIST -a`.
    @Test(arguments: [("path", "127.0.49.2"), ("empty", "127.0.49.3"), ("refuse", "127.0.49.4")])
    func serverNotUnderstandingDashAGetsPlainListRemembered(mode: String, address: String) throws {
        let work = try makeTemporaryFolder("hidden-\(mode)")
        let server = try ListingServer(
            ["folders": Self.folders, "files": Self.files, "list_a": mode], address: address)
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = try server.config(local: mirror, at: work)

        let first = try ftpsync(["pull", config])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        for path in Self.files.keys { #expect(Self.exists(mirror + "/cam" + path), "\(path): \(first.stdout)") }
        #expect(first.stdout.contains("does not understand LIST -a"), "\(first.stdout)")
        let firstCommands = server.commands()
        #expect(firstCommands.contains { $0.hasPrefix("LIST -a") }, "\(firstCommands)")

        let second = try ftpsync(["pull", config])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        let later = Array(server.commands().dropFirst(firstCommands.count))
        #expect(later.contains { $0.hasPrefix("LIST") }, "\(later)")
        #expect(!later.contains { $0.hasPrefix("LIST -a") }, "the fallback is remembered: \(later)")
    }

    /// A server that understands `-a`: one `LIST -a` per folder, no plain LIST, no note.
    @Test func serverUnderstandingDashAGetsOneListPerFolder() throws {
        let work = try makeTemporaryFolder("hidden-option")
        let server = try ListingServer(["folders": Self.folders, "files": Self.files], address: "127.0.49.5")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        let pull = try ftpsync(["pull", config])
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(!pull.stdout.contains("LIST -a"), "\(pull.stdout)")
        let lists = server.commands().filter { $0.hasPrefix("LIST") }
        #expect(lists == ["LIST -a /"], "\(lists)")
    }
}
