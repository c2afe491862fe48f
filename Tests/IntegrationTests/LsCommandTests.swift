// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// `ftpsync ls` against the live servers of the lab: what it shows must be what the server's
/// file system holds (names, types, sizes of files). Addresses 127.0.0.61–65.
@Suite(.serialized) struct LsCommandTests {
    static let servers: [(String, String)] = [
        ("pyftpdlib", "127.0.0.61"), ("vsftpd", "127.0.0.62"), ("proftpd", "127.0.0.63"),
        ("pure-ftpd", "127.0.0.64"), ("busybox", "127.0.0.65"),
    ]

    /// A tree with the names that trip parsers up; no dotfiles (most servers hide them in LIST)
    /// and no links (servers differ on whether they follow them).
    static func trickyTree(at root: String) throws {
        let recent = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 2 * 86_400
        let files: [(String, [UInt8], Double)] = [
            ("file with spaces.txt", Array("spaces\n".utf8), recent),
            ("-leading-dash.txt", Array("dash\n".utf8), recent - 60),
            ("--double-dash.txt", Array("double\n".utf8), recent - 120),
            ("中文文件.txt", Array("中文\n".utf8), recent - 180),
            ("目录 with space/inner.txt", Array("inner\n".utf8), recent - 240),
            ("name;with;semicolons.txt", Array("semi\n".utf8), recent - 300),
            ("UPPER.TXT", Array("UPPER\n".utf8), recent - 360),
            ("upper.txt", Array("lower\n".utf8), recent - 420),
            ("old-1999.txt", Array("old\n".utf8), 929_450_096),  // 1999-06-15 12:34:56 UTC
            ("zero-bytes.bin", [], recent - 480),
            ("  two leading spaces.txt", Array("sp\n".utf8), recent - 540),
            ("big-5MB.bin", pseudoRandomBytes(5_000_000, seed: 61), recent - 600),
            ("2024 starts with digits.txt", Array("digits\n".utf8), recent - 660),
        ]
        for (path, content, modified) in files { try writeFile(root + "/" + path, content, modified: modified) }
        try FileManager.default.createDirectory(atPath: root + "/empty-dir", withIntermediateDirectories: true)
    }

    /// The entries of `folder` as the file system has them.
    static func fileSystemEntries(_ folder: String) throws -> Set<String> {
        let fm = FileManager.default
        var out = Set<String>()
        for name in try fm.contentsOfDirectory(atPath: folder) {
            let attributes = try fm.attributesOfItem(atPath: folder + "/" + name)
            let isDirectory = attributes[.type] as? FileAttributeType == .typeDirectory
            let size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
            out.insert(isDirectory ? "dir \(name)" : "file \(name) \(size)")
        }
        return out
    }

    static func shown(_ entries: [ListedEntry]) -> Set<String> {
        Set(
            entries.map {
                $0.type == "dir" ? "dir \($0.name)" : "\($0.type) \($0.name) \($0.size.map(String.init) ?? "nil")"
            })
    }

    @Test(arguments: servers)
    func lsShowsWhatTheServerHolds(kind: String, address: String) throws {
        let work = try makeTemporaryFolder("ls-\(kind)")
        let served = work + "/served"
        try Self.trickyTree(at: served)
        let server = try LabServer(kind, root: served, address: address)
        defer { server.stop() }
        let config = try server.writeConfig(in: work, name: "cam")

        let root = try ftpsync(["ls", config, "cam", "--json"])
        #expect(root.status == 0, "\(root.stderr)")
        #expect(root.stderr.isEmpty, "no warnings expected: \(root.stderr)")
        let entries = listedEntries(root.stdout)
        #expect(Self.shown(entries) == (try Self.fileSystemEntries(served)))
        // The document's shape is CONTRACT.md's, key for key.
        let document = try JSONSerialization.jsonObject(with: Data(root.stdout.utf8)) as? [String: Any]
        #expect(Set(document?.keys.map { $0 } ?? []) == ["device", "path", "entries"])
        for entry in document?["entries"] as? [[String: Any]] ?? [] {
            #expect(Set(entry.keys) == ["name", "type", "size", "modified", "target"], "\(entry)")
        }
        // The 1999 file carries its year at day precision (LIST) or its exact time (MLSD).
        let old = entries.first { $0.name == "old-1999.txt" }?.modified ?? ""
        #expect(old == "1999-06-15T00:00:00Z" || old == "1999-06-15T12:34:56Z", "old-1999.txt: \(old)")

        let sub = try ftpsync(["ls", config, "cam:目录 with space", "--json"])
        #expect(sub.status == 0, "\(sub.stderr)")
        #expect(Self.shown(listedEntries(sub.stdout)) == (try Self.fileSystemEntries(served + "/目录 with space")))

        // The text form shows every name once, one line each.
        let text = try ftpsync(["ls", config, "cam"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == entries.count)
        for entry in entries { #expect(lines.contains { $0.hasSuffix(" " + entry.name) }, "\(entry.name)") }
    }

    @Test func unknownDeviceIsAUsageErrorAndNoServerIsAFailure() throws {
        let work = try makeTemporaryFolder("ls-errors")
        let config = work + "/device.yaml"
        // Port 9 (discard) on 127.0.0.65: nothing listens there in the lab.
        try "local: ./m\ndevices:\n  - name: cam\n    host: 127.0.0.65\n    port: 9\n    timeout: 5\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let unknown = try ftpsync(["ls", config, "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown device 'nope'"))
        let refused = try ftpsync(["ls", config, "cam:/x"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cam: cannot connect to 127.0.0.65:9"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        let usage = try ftpsync(["ls"])
        #expect(usage.status == 2)
    }
}

/// Year inference with the server's clock: a device whose clock runs five years behind lists
/// its new files without a year; one MDTM tells ftpsync the offset. Address 127.0.0.69.
@Suite(.serialized) struct ServerClockTests {
    static let fakeTime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"

    @Test func listingOfADeviceWithAWrongClockGetsTheRightYear() throws {
        #expect(FileManager.default.fileExists(atPath: Self.fakeTime), "libfaketime: scripts/install-deps.sh")
        let work = try makeTemporaryFolder("clock")
        let served = work + "/served"
        let behind: Double = 1825 * 86_400
        // Written an hour ago by the device's clock, which says it is five years earlier.
        let written = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - behind - 3600
        try writeFile(served + "/shot.jpg", Array("jpeg".utf8), modified: written)
        let server = try LabServer(
            "pyftpdlib", root: served, address: "127.0.0.69", options: ["--no-epsv-mlsd"],
            environment: ["FAKETIME": "-1825d", "LD_PRELOAD": Self.fakeTime])
        defer { server.stop() }
        let config = try server.writeConfig(in: work, name: "cam")
        let result = try ftpsync(["ls", config, "cam", "--json", "-v"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("> MDTM /shot.jpg"))
        #expect(result.stderr.components(separatedBy: "> MDTM").count == 2, "one MDTM per run")
        let modified = listedEntries(result.stdout).first?.modified
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        #expect(modified == formatter.string(from: Date(timeIntervalSince1970: written)), "\(result.stdout)")
    }
}
