// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 16, after review: a failed listing data connection is tried again before STAT; the
/// STAT quirk kept in the state is a hint a later run tests; dot-files a STAT listing hides
/// are never taken as deleted; a malformed SIZE reply or an unsendable name leaves a size
/// unknown instead of failing the listing. Addresses 127.0.30.11–19.
@Suite(.serialized) struct ListingFallbackEndToEndTests {
    /// MLSD shows `.config`; STAT's `ls` (the `folders` lines) hides it.
    static let mlsd = [
        "type=file;size=5;modify=20240105102000; a.txt", "type=file;size=6;modify=20240105102000; .config",
    ]
    static let files: [String: Int] = ["/a.txt": 5, "/.config": 6]

    /// A server of that device; `data` as listing-ftp.py takes it.
    static func server(data: String, address: String) throws -> ListingServer {
        try ListingServer(
            [
                "mlsd": ["/": Self.mlsd], "folders": ["/": ["-rw-r--r-- 1 u g 5 Jan 05 2024 a.txt"]],
                "files": Self.files, "data": data, "features": ["SIZE"],
            ], address: address)
    }

    /// One run of `arguments` against a fresh server (`data`), its notes and the listing
    /// commands it got.
    static func run(_ arguments: [String], data: String, address: String, local: String, at work: String) throws
        -> (status: Int32, notes: [String], listings: [String], output: String)
    {
        let server = try Self.server(data: data, address: address)
        defer { server.stop() }
        let config = try server.config(local: local, at: work)
        let result = try ftpsync([arguments[0], config, "--json"] + arguments.dropFirst(), timeout: 60)
        let listings = server.commands().filter { $0.hasPrefix("MLSD") || $0.hasPrefix("LIST") || $0.hasPrefix("STAT") }
        return (result.status, ControlListingTests.notes(result.stdout), listings, result.stdout + result.stderr)
    }

    /// One refused listing data connection (a passing fault) is tried again: MLSD works the
    /// second time, no STAT, and `.config` is listed.
    @Test func oneFailedListingIsTriedAgainNotSwitchedToStat() throws {
        let work = try makeTemporaryFolder("fallback-once")
        let server = try Self.server(data: "refuse-once", address: "127.0.30.11")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        let result = try ftpsync(["ls", config, "cam:/", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(listedEntries(result.stdout).map(\.name).sorted() == [".config", "a.txt"])
        #expect(server.commands().filter { $0.hasPrefix("MLSD") }.count == 2)
        #expect(!server.commands().contains { $0.hasPrefix("STAT") })
        #expect(!result.stderr.contains("STAT"), "\(result.stderr)")
    }

    /// The breaker's case: a pull --delete while listing data connections fail keeps the
    /// `.config` STAT hides; the next failing run goes to STAT after one try; a healthy run
    /// (not a dry one) lists with MLSD again and clears the state's quirk.
    @Test func statHidingDotFilesDeletesNothingAndTheQuirkIsAHint() throws {
        let work = try makeTemporaryFolder("fallback-hint")
        let mirror = work + "/mirror"
        let config = mirror + "/cam/.config"
        let pull = ["pull", "--delete"]
        let healthy = try Self.run(pull, data: "ok", address: "127.0.30.12", local: mirror, at: work)
        #expect(healthy.status == 0, "\(healthy.output)")
        #expect(FileManager.default.fileExists(atPath: config))

        let failing = try Self.run(pull, data: "refuse-list", address: "127.0.30.13", local: mirror, at: work)
        #expect(failing.status == 0, "\(failing.output)")
        #expect(FileManager.default.fileExists(atPath: config), "STAT hid .config: \(failing.output)")
        #expect(failing.listings == ["MLSD /", "MLSD /", "STAT /"])
        let stat = failing.notes.filter { $0.contains("STAT") }
        #expect(stat.count == 1 && stat[0].contains("nothing named .* is deleted"), "\(failing.notes)")

        let again = try Self.run(pull, data: "refuse-list", address: "127.0.30.14", local: mirror, at: work)
        #expect(again.listings == ["MLSD /", "STAT /"], "the hint: one try, then STAT")
        #expect(again.notes.contains { $0.contains("as learned earlier") }, "\(again.notes)")
        #expect(FileManager.default.fileExists(atPath: config))

        let dry = try Self.run(pull + ["--dry-run"], data: "ok", address: "127.0.30.15", local: mirror, at: work)
        #expect(dry.listings == ["MLSD /"])
        #expect(dry.notes.contains { $0.contains("data connections again") }, "\(dry.notes)")

        let recovered = try Self.run(pull, data: "ok", address: "127.0.30.16", local: mirror, at: work)
        #expect(recovered.listings == ["MLSD /"])
        #expect(recovered.notes.contains { $0.contains("data connections again") }, "a dry run wrote nothing")

        let cleared = try Self.run(pull, data: "ok", address: "127.0.30.17", local: mirror, at: work)
        #expect(cleared.status == 0, "\(cleared.output)")
        #expect(!cleared.notes.contains { $0.contains("STAT") || $0.contains("data connections") }, "\(cleared.notes)")
        #expect(FileManager.default.fileExists(atPath: config))
    }

    /// Sizes to confirm whose SIZE reply holds no number, or whose name holds a CR, one folder
    /// each: the size stays unknown and the listing goes on; the file after it is still
    /// confirmed (the dialogue stayed in step).
    @Test func malformedSizeRepliesAndUnsendableNamesLeaveSizesUnknown() throws {
        let work = try makeTemporaryFolder("fallback-size")
        let replies = [
            "neg": "213 -1294967296", "junk": "213 5 junk", "hex": "213 0x10", "dot": "213 5.0", "empty": "213 ",
            "huge": "213 18446744073709551616",
        ]
        var folders: [String: [String]] = [:]
        var sizes: [String: String] = [:]
        var files: [String: Int] = [:]
        for name in replies.keys.sorted() + ["cr"] {
            let odd = name == "cr" ? "clip\\x0dA.mp4" : "odd.bin"
            folders["/\(name)"] = [
                "-rw-r--r-- 1 u g 12.5M Jan 05 2024 \(odd)", "-rw-r--r-- 1 u g 1.5K Jan 05 2024 good.bin",
            ]
            sizes["/\(name)/odd.bin"] = replies[name]
            files["/\(name)/good.bin"] = 1536
        }
        let server = try ListingServer(
            ["folders": folders, "files": files, "sizes": sizes, "features": ["SIZE"]], address: "127.0.30.18")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        for name in folders.keys.sorted() {
            let result = try ftpsync(["ls", config, "cam:\(name)", "--json"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let listed = listedEntries(result.stdout)
            #expect(listed.first { $0.name == "good.bin" }?.size == 1536, "\(name): \(result.stdout)")
            #expect(listed.filter { $0.name != "good.bin" }.allSatisfy { $0.size == nil }, "\(name): \(result.stdout)")
        }
        #expect(!server.commands().contains { $0.hasPrefix("SIZE /cr/clip") })
    }
}
