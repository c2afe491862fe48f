// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 16: listings over the control connection (`STAT <folder>`, RFC 959 §4.1.3) where
/// listing data connections fail, remembered for the device; and listed sizes that need
/// confirming (`12.5M`) asked with SIZE (RFC 3659 §4). Addresses 127.0.22.1–9.
@Suite(.serialized) struct ControlListingTests {
    /// Two files at the root and one in a folder whose name holds spaces.
    static let folders: [String: [String]] = [
        "/": [
            "-rw-r--r-- 1 u g 1000 Jan 05 2024 a.bin", "drwxr-xr-x 2 u g 4096 Jan 05 2024 two words",
            "-rw-r--r-- 1 u g 251 Feb 10 2024 b.bin",
        ],
        "/two words": ["-rw-r--r-- 1 u g 300 Mar 01 2024 c.bin"],
    ]
    static let files: [String: Int] = ["/a.bin": 1000, "/b.bin": 251, "/two words/c.bin": 300]

    /// The bytes listing-ftp.py serves for a file of `size` bytes: byte k is k % 251.
    static func content(_ size: Int) -> [UInt8] { (0..<size).map { UInt8($0 % 251) } }

    static func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    static func notes(_ stdout: String) -> [String] {
        let document = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        let device = (document?["devices"] as? [[String: Any]])?.first
        return device?["notes"] as? [String] ?? []
    }

    /// LIST answers 425 (a firewall in front of the data port), STAT lists: the pull gets every
    /// file, notes the fallback once, and the next run lists with STAT after one try.
    @Test func pullListsWithStatWhenListingDataConnectionsFailAndRemembersIt() throws {
        let work = try makeTemporaryFolder("stat-pull")
        let server = try ListingServer(
            ["folders": Self.folders, "files": Self.files, "data": "refuse-list", "features": ["SIZE"]],
            address: "127.0.22.1")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = try server.config(local: mirror, at: work)

        let first = try ftpsync(["pull", config, "--json"], timeout: 60)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        for (path, size) in Self.files { #expect(Self.bytes(mirror + "/cam" + path) == Self.content(size), "\(path)") }
        let notes = Self.notes(first.stdout).filter { $0.contains("STAT") }
        #expect(notes.count == 1, "one note, not one per folder: \(Self.notes(first.stdout))")
        #expect(notes.first?.contains("425") == true, "\(notes)")
        let firstCommands = server.commands()
        #expect(firstCommands.contains("LIST -a /"))
        #expect(firstCommands.contains("STAT /two words"))

        let second = try ftpsync(["pull", config, "--json"], timeout: 60)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        let later = Array(server.commands().dropFirst(firstCommands.count))
        #expect(
            later.filter { $0.hasPrefix("LIST") } == ["LIST -a /"],
            "the second run tries a data connection once, then goes to STAT: \(later)")
        #expect(later.contains("STAT /"))
        #expect(Self.notes(second.stdout).contains { $0.contains("STAT") && $0.contains("earlier") })
    }

    /// Data ports where nothing listens (EPSV and PASV): `ls` lists with STAT (lines in the
    /// `213-` form), says so once, and shows what LIST would have.
    @Test func lsListsWithStatWhenDataPortsAreClosed() throws {
        let work = try makeTemporaryFolder("stat-ls")
        let server = try ListingServer(
            ["folders": Self.folders, "files": Self.files, "data": "closed", "stat": "prefix"], address: "127.0.22.2")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        let root = try ftpsync(["ls", config, "cam:/", "--json"])
        #expect(root.status == 0, "\(root.stderr)")
        #expect(
            listedEntries(root.stdout).map(\.description) == [
                "file a.bin 1000 2024-01-05T00:00:00Z", "file b.bin 251 2024-02-10T00:00:00Z",
                "dir two words - 2024-01-05T00:00:00Z",
            ])
        #expect(root.stderr.components(separatedBy: "note: listed over the control connection (STAT)").count == 2)
        let sub = try ftpsync(["ls", config, "cam:/two words", "--json"])
        #expect(listedEntries(sub.stdout).map(\.description) == ["file c.bin 300 2024-03-01T00:00:00Z"])
    }

    /// A STAT listing of 30,000 lines (three times the lines a reply may have elsewhere) is read whole.
    @Test func aHugeStatListingIsReadWhole() throws {
        let work = try makeTemporaryFolder("stat-huge")
        let lines = (0..<30_000).map { String(format: "-rw-r--r-- 1 u g %d Jan 05 2024 f%05d.txt", $0, $0) }
        let server = try ListingServer(["folders": ["/": lines], "data": "refuse-list"], address: "127.0.22.3")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        let result = try ftpsync(["ls", config, "cam:/", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = listedEntries(result.stdout)
        #expect(entries.count == 30_000)
        #expect(entries.last?.description == "file f29999.txt 29999 2024-01-05T00:00:00Z")
    }

    /// `12.5M` is confirmed by SIZE when FEAT offers it: `ls --json` shows the exact size and
    /// a pull downloads the file and checks it; without SIZE (or when SIZE is refused) the
    /// size stays unknown.
    @Test func approximateSizesAreConfirmedWithSize() throws {
        let work = try makeTemporaryFolder("size-confirm")
        let exact = 13_107_250
        let listing = [
            "-rw-r--r-- 1 u g 12.5M Jan 05 2024 big.bin", "-rw-r--r-- 1 u g 1.2K Jan 05 2024 refused.bin",
        ]
        let server = try ListingServer(
            ["folders": ["/": listing], "files": ["/big.bin": exact], "features": ["SIZE"]], address: "127.0.22.4")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = try server.config(local: mirror, at: work)
        let listed = try ftpsync(["ls", config, "cam:/", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(
            listedEntries(listed.stdout).map(\.description) == [
                "file big.bin \(exact) 2024-01-05T00:00:00Z", "file refused.bin - 2024-01-05T00:00:00Z",
            ])
        #expect(server.commands().contains("SIZE /big.bin"))

        let pulled = try ftpsync(["pull", config, "--json"], timeout: 120)
        // refused.bin cannot be downloaded (the server has no such file): the device is partial.
        #expect(Self.bytes(mirror + "/cam/big.bin") == Self.content(exact), "\(pulled.stdout)\(pulled.stderr)")

        let plain = try ListingServer(["folders": ["/": listing], "files": ["/big.bin": exact]], address: "127.0.22.5")
        defer { plain.stop() }
        let plainConfig = try plain.config(local: work + "/plain", at: work + "/mirror")
        let unknown = try ftpsync(["ls", plainConfig, "cam:/", "--json"])
        #expect(listedEntries(unknown.stdout).map(\.size) == [nil, nil], "no SIZE in FEAT: \(unknown.stdout)")
        #expect(!plain.commands().contains { $0.hasPrefix("SIZE") })
    }

    /// At most 200 SIZE commands per folder listing: the files beyond keep an unknown size.
    @Test func sizeConfirmationsAreBoundedPerListing() throws {
        let work = try makeTemporaryFolder("size-cap")
        let lines = (0..<205).map { String(format: "-rw-r--r-- 1 u g 1.5K Jan 05 2024 f%03d.bin", $0) }
        var files: [String: Int] = [:]
        for k in 0..<205 { files[String(format: "/f%03d.bin", k)] = 1500 + k }
        let server = try ListingServer(
            ["folders": ["/": lines], "files": files, "features": ["SIZE"]], address: "127.0.22.6")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        let result = try ftpsync(["ls", config, "cam:/", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let sizes = listedEntries(result.stdout).map(\.size)
        #expect(sizes.count == 205)
        #expect(sizes.prefix(200) == (0..<200).map { UInt64(1500 + $0) }[...])
        #expect(sizes.suffix(5).allSatisfy { $0 == nil })
        #expect(server.commands().filter { $0.hasPrefix("SIZE") }.count == 200)
    }
}
