// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// `--on-conflict` / `on_conflict` against pyftpdlib (issue 14 item 7): every policy for a file
/// changed on both sides since the last sync, in pull and in push.
@Suite(.serialized) struct ConflictPolicyTests {
    static let original = Array("version 1\n".utf8)
    static let deviceVersion = Array("device version\n".utf8)
    static let localVersion = Array("local version, longer\n".utf8)

    /// How a row's conflict comes out.
    enum Winner: String, Sendable {
        case both, local, device, reported
    }

    /// A synced notes.txt, then changed on both sides: the device's modified `deviceDaysAgo`,
    /// the local one `localDaysAgo`. Returns (work, served, mirror, config).
    static func conflicted(
        _ direction: String, address: String, deviceDaysAgo: Double, localDaysAgo: Double, yaml: String = ""
    ) throws -> (server: FTPServer, served: String, mirror: String, config: String) {
        let work = try makeTemporaryFolder("conflict-\(direction)")
        let served = work + "/served"
        let mirror = work + "/mirror"
        if direction == "pull" {
            try writeFile(served + "/notes.txt", original, modified: Push.minute())
        } else {
            try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
            try writeFile(mirror + "/cam/notes.txt", original, modified: Push.minute())
        }
        let server = try FTPServer(.pyftpdlib, root: served, address: address)
        let text = "local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam", extra: yaml)
        let config = work + "/device.yaml"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let first = try ftpsync([direction, config])
        #expect(first.status == 0, "\(first.stderr)")
        try writeFile(served + "/notes.txt", deviceVersion, modified: Push.minute(daysAgo: deviceDaysAgo))
        try writeFile(mirror + "/cam/notes.txt", localVersion, modified: Push.minute(daysAgo: localDaysAgo))
        return (server, served, mirror, config)
    }

    /// (address, options, device days ago, local days ago, winner).
    static let pullRows: [(String, [String], Double, Double, Winner)] = [
        ("127.0.9.1", [], 1, 0.5, .both),
        ("127.0.9.2", ["--on-conflict", "keep-both"], 1, 0.5, .both),
        ("127.0.9.3", ["--on-conflict", "local-wins"], 0.5, 1, .local),
        ("127.0.9.4", ["--on-conflict", "remote-wins"], 1, 0.5, .device),
        ("127.0.9.5", ["--on-conflict", "newer-wins"], 1, 0.5, .local),
        ("127.0.9.6", ["--on-conflict", "newer-wins"], 0.5, 1, .device),
        // The same minute on both sides: cannot tell, both kept.
        ("127.0.9.7", ["--on-conflict", "newer-wins"], 0.5, 0.5, .both),
        ("127.0.9.8", ["--on-conflict", "report"], 1, 0.5, .reported),
    ]

    @Test(arguments: pullRows)
    func pull(address: String, options: [String], deviceDaysAgo: Double, localDaysAgo: Double, winner: Winner)
        throws
    {
        let (server, served, mirror, config) = try Self.conflicted(
            "pull", address: address, deviceDaysAgo: deviceDaysAgo, localDaysAgo: localDaysAgo)
        defer { server.stop() }
        let run = try ftpsync(["pull", config, "--json"] + options)
        let kinds = Push.actions(run.stdout).map(\.kind)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mirror + "/cam")) ?? []
        let copies = names.filter { $0.hasPrefix("notes.conflict-") && $0.hasSuffix(".txt") }
        let trashed =
            FileManager.default.subpaths(atPath: mirror + "/.ftpsync/trash")?
            .filter { $0.hasSuffix("cam/notes.txt") } ?? []
        #expect(Push.bytes(served + "/notes.txt") == Self.deviceVersion)
        switch winner {
        case .both:
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(kinds == ["conflict", "download"], "\(run.stdout)")
            #expect(Push.bytes(mirror + "/cam/notes.txt") == Self.deviceVersion)
            #expect(copies.count == 1, "\(names)")
            #expect(Push.bytes(mirror + "/cam/" + (copies.first ?? "")) == Self.localVersion)
        case .local:
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(kinds == ["conflict"], "\(run.stdout)")
            #expect(Push.bytes(mirror + "/cam/notes.txt") == Self.localVersion)
            #expect(copies.isEmpty && trashed.isEmpty, "\(names) \(trashed)")
        case .device:
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(kinds == ["conflict", "download"], "\(run.stdout)")
            #expect(Push.bytes(mirror + "/cam/notes.txt") == Self.deviceVersion)
            #expect(copies.isEmpty, "\(names)")
            #expect(trashed.count == 1)
            let trash = mirror + "/.ftpsync/trash/" + (trashed.first ?? "")
            #expect(Push.bytes(trash) == Self.localVersion)
        case .reported:
            #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
            #expect(kinds == ["conflict"], "\(run.stdout)")
            #expect(Push.actions(run.stdout).first?.status == "failed")
            #expect(run.stdout.contains("use --on-conflict keep-both"), "\(run.stdout)")
            #expect(Push.bytes(mirror + "/cam/notes.txt") == Self.localVersion)
            #expect(copies.isEmpty && trashed.isEmpty)
        }
        // Resolved conflicts converge: the next run (with the same option) has nothing to do.
        let again = try ftpsync(["pull", config, "--json"] + options)
        if winner == .reported {
            #expect(again.status == 1)
        } else {
            #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
            #expect(Push.actions(again.stdout).isEmpty, "\(again.stdout)")
        }
    }

    /// (address, options, config line, device days ago, local days ago, winner).
    static let pushRows: [(String, [String], String, Double, Double, Winner)] = [
        ("127.0.9.11", [], "", 1, 0.5, .reported),
        ("127.0.9.12", ["--on-conflict", "report"], "    on_conflict: local-wins", 1, 0.5, .reported),
        ("127.0.9.13", ["--on-conflict", "keep-both"], "", 1, 0.5, .both),
        ("127.0.9.14", [], "    on_conflict: keep-both", 1, 0.5, .both),
        ("127.0.9.15", ["--on-conflict", "local-wins"], "", 0.5, 1, .local),
        ("127.0.9.16", ["--on-conflict", "remote-wins"], "", 1, 0.5, .device),
        ("127.0.9.17", ["--on-conflict", "newer-wins"], "", 1, 0.5, .local),
        ("127.0.9.18", ["--on-conflict", "newer-wins"], "", 0.5, 1, .device),
        ("127.0.9.19", ["--on-conflict", "newer-wins"], "", 0.5, 0.5, .both),
    ]

    @Test(arguments: pushRows)
    func push(
        address: String, options: [String], yaml: String, deviceDaysAgo: Double, localDaysAgo: Double, winner: Winner
    ) throws {
        let (server, served, mirror, config) = try Self.conflicted(
            "push", address: address, deviceDaysAgo: deviceDaysAgo, localDaysAgo: localDaysAgo, yaml: yaml)
        defer { server.stop() }
        let before = server.commands().count
        let run = try ftpsync(["push", config, "--json"] + options)
        let kinds = Push.actions(run.stdout).map(\.kind)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: served)) ?? []
        let copies = names.filter { $0.hasPrefix("notes.conflict-") && $0.hasSuffix(".txt") }
        #expect(Push.bytes(mirror + "/cam/notes.txt") == Self.localVersion)
        switch winner {
        case .reported:
            #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
            #expect(kinds == ["conflict"], "\(run.stdout)")
            #expect(
                run.stdout.contains("use --on-conflict local-wins to overwrite the device's copy, or keep-both"),
                "\(run.stdout)")
            #expect(Push.bytes(served + "/notes.txt") == Self.deviceVersion)
            #expect(server.count("STOR") == 1)
        case .both:
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(kinds == ["conflict", "upload"], "\(run.stdout)")
            #expect(Push.bytes(served + "/notes.txt") == Self.localVersion)
            #expect(copies.count == 1, "\(names)")
            #expect(Push.bytes(served + "/" + (copies.first ?? "")) == Self.deviceVersion)
            // The device's copy is renamed aside before the upload is renamed into place.
            let renames = server.commands().dropFirst(before).filter { $0.hasPrefix("RNFR") || $0.hasPrefix("RNTO") }
            #expect(renames.count == 4, "\(renames)")
            #expect(renames.first?.hasSuffix("/notes.txt") == true, "\(renames)")
            #expect(renames.dropFirst().first?.contains("notes.conflict-") == true, "\(renames)")
        case .local:
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(kinds == ["conflict", "upload"], "\(run.stdout)")
            #expect(Push.bytes(served + "/notes.txt") == Self.localVersion)
            #expect(copies.isEmpty, "\(names)")
        case .device:
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(kinds == ["conflict"], "\(run.stdout)")
            #expect(Push.bytes(served + "/notes.txt") == Self.deviceVersion)
            #expect(copies.isEmpty, "\(names)")
        }
        let again = try ftpsync(["push", config, "--json"] + options)
        if winner == .reported {
            #expect(again.status == 1)
        } else {
            #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
            #expect(Push.actions(again.stdout).isEmpty, "\(again.stdout)")
        }
        if winner == .both {
            // The device's version kept aside is not deleted by a later `push --delete`.
            let deleting = try ftpsync(["push", config, "--delete", "--json"] + options)
            #expect(deleting.status == 0, "\(deleting.stdout)\(deleting.stderr)")
            #expect(Push.bytes(served + "/" + (copies.first ?? "")) == Self.deviceVersion)
        }
    }

    /// proftpd refusing RNFR: the device's version cannot be renamed aside, so the upload is not
    /// even sent (nothing is overwritten) and the run exits 1 naming why.
    @Test func keepBothPushSendsNothingWhenTheDeviceCopyCannotBeRenamedAside() throws {
        let work = try makeTemporaryFolder("conflict-rnfr")
        let served = work + "/served"
        let mirror = work + "/mirror"
        try writeFile(served + "/notes.txt", Self.original, modified: Push.minute())
        let server = try FTPServer(.proftpd, root: served, address: "127.0.9.21", options: ["--deny", "RNFR"])
        defer { server.stop() }
        let config = try Push.config(server, local: mirror, at: work)
        // The record comes from a pull (which renames nothing on the device).
        let pulled = try ftpsync(["pull", config])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        try writeFile(served + "/notes.txt", Self.deviceVersion, modified: Push.minute(daysAgo: 1))
        try writeFile(mirror + "/cam/notes.txt", Self.localVersion, modified: Push.minute(daysAgo: 0.5))
        let run = try ftpsync(["push", config, "--json", "--on-conflict", "keep-both"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let actions = Push.actions(run.stdout)
        #expect(actions.map(\.kind) == ["conflict", "upload"], "\(run.stdout)")
        #expect(actions.map(\.status) == ["failed", "failed"], "\(run.stdout)")
        #expect(run.stdout.contains("could not be kept as a conflict copy"), "\(run.stdout)")
        #expect(server.count("STOR") == 0)
        #expect(Push.bytes(served + "/notes.txt") == Self.deviceVersion)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: served)) ?? []
        #expect(names == ["notes.txt"], "\(names)")
    }

    /// A name near NAME_MAX: the device's conflict copy is cut to fit 255 bytes (extension and
    /// time kept), like pull's local copies.
    @Test func keepBothPushFitsTheDeviceCopyNameInNameMax() throws {
        let work = try makeTemporaryFolder("conflict-long")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let name = String(repeating: "n", count: 235) + ".txt"  // its upload temporary just fits too
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        try writeFile(mirror + "/cam/" + name, Self.original, modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.9.22")
        defer { server.stop() }
        let config = try Push.config(server, local: mirror, at: work)
        #expect(try ftpsync(["push", config]).status == 0)
        try writeFile(served + "/" + name, Self.deviceVersion, modified: Push.minute(daysAgo: 1))
        try writeFile(mirror + "/cam/" + name, Self.localVersion, modified: Push.minute(daysAgo: 0.5))
        let run = try ftpsync(["push", config, "--json", "--on-conflict", "keep-both"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: served)) ?? []
        let copies = names.filter { $0 != name && $0.hasSuffix(".txt") && $0.contains(".conflict-") }
        #expect(copies.count == 1, "\(names)")
        #expect((copies.first?.utf8.count ?? 999) <= 255)
        #expect(Push.bytes(served + "/" + (copies.first ?? "")) == Self.deviceVersion)
        #expect(Push.bytes(served + "/" + name) == Self.localVersion)
    }

    @Test func aBadValueIsAUsageErrorNamingTheValidOnes() throws {
        let work = try makeTemporaryFolder("conflict-usage")
        let config = work + "/device.yaml"
        try "local: \(work)/m\ndevices:\n  - name: cam\n    host: 127.0.9.20\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let run = try ftpsync(["push", config, "--on-conflict", "overwrite"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("keep-both, local-wins, remote-wins, newer-wins, report"), "\(run.stderr)")
        try "local: \(work)/m\ndevices:\n  - name: cam\n    host: 127.0.9.20\n    on_conflict: theirs\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let bad = try ftpsync(["pull", config])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("device.yaml:5:18: 'on_conflict' must be one of"), "\(bad.stderr)")
    }
}
