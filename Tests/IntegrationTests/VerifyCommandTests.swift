// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// `ftpsync verify` end to end (issue 21), the built binary against ProFTPD with mod_digest
/// (`--digest`: HASH, XSHA256, …) and pyftpdlib (no hash command): after a pull, a clean tree
/// passes; a local file damaged with its size and time kept is found with the local side named,
/// by the server's hash and with `--local`; a device file rewritten on the server (same size)
/// is found with the device side named, one deleted there as missing; nothing is changed on
/// either side. `check` shows what each server offers for hashing. Addresses 127.0.63.1 and
/// 127.0.63.2.
@Suite(.serialized) struct VerifyCommandEndToEndTests {
    static let files = [
        SampleFile(path: "DCIM/a.jpg", content: pseudoRandomBytes(300_000, seed: 631), modified: 1_700_000_000),
        SampleFile(path: "DCIM/b.jpg", content: pseudoRandomBytes(40_000, seed: 632), modified: 1_700_000_060),
        SampleFile(path: "c.mov", content: pseudoRandomBytes(1_200_000, seed: 633), modified: 1_700_000_120),
    ]

    /// A served tree of `files`, a server of `kind` on `address`, a config of one device `cam`,
    /// and a first pull (which must succeed).
    static func pulled(_ kind: FTPServer.Kind, address: String, options: [String] = []) throws -> (
        work: String, server: FTPServer, config: String
    ) {
        let work = try makeTemporaryFolder("verify-cli")
        try writeTree(files, at: work + "/served")
        let server = try FTPServer(kind, root: work + "/served", address: address, options: options)
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let pull = try ftpsync(["pull", config, "--no-progress"])
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        return (work, server, config)
    }

    /// The one device of a `verify --json` document, and its files by path.
    static func device(_ output: String) throws -> (device: [String: Any], files: [String: [String: Any]]) {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(document["command"] as? String == "verify")
        let device = try #require((document["devices"] as? [[String: Any]])?.first, "\(output)")
        var files: [String: [String: Any]] = [:]
        for file in device["files"] as? [[String: Any]] ?? [] {
            if let path = file["path"] as? String { files[path] = file }
        }
        return (device, files)
    }

    @Test func damageHereAndChangesThereAreFoundAndNothingIsChanged() throws {
        let (work, server, config) = try Self.pulled(.proftpd, address: "127.0.63.1", options: ["--digest"])
        defer { server.stop() }
        let mirror = work + "/mirror/cam/"

        // A clean tree: exit 0, every file verified by SHA-256, none listed without -v.
        let clean = try ftpsync(["verify", config, "--json"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        let (cleanDevice, cleanFiles) = try Self.device(clean.stdout)
        #expect(cleanDevice["status"] as? String == "ok" && cleanDevice["error"] is NSNull, "\(clean.stdout)")
        #expect(cleanDevice["algorithm"] as? String == "SHA-256", "\(clean.stdout)")
        #expect((cleanDevice["stats"] as? [String: Int])?["verified"] == 3, "\(clean.stdout)")
        #expect(cleanFiles.isEmpty, "\(clean.stdout)")
        let text = try ftpsync(["verify", config, "-v"])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(
            text.stdout.hasPrefix("cam: 3 verified, 0 differ, 0 missing, 0 not verifiable (SHA-256)"), "\(text.stdout)")
        #expect(text.stdout.contains("  ok  c.mov"), "\(text.stdout)")
        let cleanLocal = try ftpsync(["verify", config, "--local"])
        #expect(cleanLocal.status == 0, "\(cleanLocal.stdout)\(cleanLocal.stderr)")

        // Damage here, size and time kept: the local side, by the server's hash and by --local.
        let damaged = mirror + "DCIM/a.jpg"
        let before = try flipByte(damaged, at: 123_456)
        let found = try ftpsync(["verify", config, "--json"])
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        let (foundDevice, foundFiles) = try Self.device(found.stdout)
        #expect(foundDevice["status"] as? String == "differs")
        #expect(foundFiles["DCIM/a.jpg"]?["status"] as? String == "differs", "\(found.stdout)")
        #expect(foundFiles["DCIM/a.jpg"]?["changed"] as? String == "local", "\(found.stdout)")
        #expect((foundFiles["DCIM/a.jpg"]?["detail"] as? String)?.contains("size and time kept") == true)
        #expect(foundFiles.count == 1, "\(found.stdout)")
        let local = try ftpsync(["verify", config, "--local"])
        #expect(local.status == 1, "\(local.stdout)\(local.stderr)")
        #expect(
            local.stdout.contains("DCIM/a.jpg: XXH3 differs") && local.stdout.contains("bit rot"), "\(local.stdout)")

        // On the server: c.mov rewritten with other bytes of the same size, DCIM/b.jpg deleted.
        try writeFile(work + "/served/c.mov", pseudoRandomBytes(1_200_000, seed: 634), modified: 1_700_000_120)
        try FileManager.default.removeItem(atPath: work + "/served/DCIM/b.jpg")
        let there = try ftpsync(["verify", config, "--json"])
        #expect(there.status == 1, "\(there.stdout)\(there.stderr)")
        let (_, thereFiles) = try Self.device(there.stdout)
        #expect(thereFiles["c.mov"]?["status"] as? String == "differs", "\(there.stdout)")
        #expect(thereFiles["c.mov"]?["changed"] as? String == "device", "\(there.stdout)")
        #expect(thereFiles["DCIM/b.jpg"]?["status"] as? String == "missing_remote", "\(there.stdout)")
        #expect(thereFiles["DCIM/a.jpg"]?["changed"] as? String == "local", "\(there.stdout)")
        let lines = try ftpsync(["verify", config]).stdout
        #expect(lines.contains("cam: 0 verified, 2 differ, 1 missing, 0 not verifiable"), "\(lines)")
        #expect(lines.contains("c.mov: SHA-256 differs; the device file changed"), "\(lines)")

        // verify changed nothing: the damage and its time are still here, the local copies of
        // the files changed on the server are as pulled, and the server got no writes.
        #expect(try statTimes(damaged) == before)
        #expect(FileManager.default.contents(atPath: damaged) != Data(Self.files[0].content))
        #expect(FileManager.default.contents(atPath: mirror + "c.mov") == Data(Self.files[2].content))
        #expect(FileManager.default.contents(atPath: mirror + "DCIM/b.jpg") == Data(Self.files[1].content))
        let writes = server.commands().filter { line in
            ["STOR", "APPE", "DELE", "RNFR", "RNTO", "MKD", "RMD", "MFMT", "SITE"].contains {
                line.uppercased().hasPrefix($0 + " ")
            }
        }
        #expect(writes.isEmpty, "\(writes)")

        let check = try ftpsync(["check", config])
        #expect(check.stdout.contains("hash:          HASH SHA-256"), "\(check.stdout)")
    }

    /// A server with no hash command: the device fails with the way out named, exit 1; `--local`
    /// still works; `check` says there is none.
    @Test func aServerWithoutHashesFailsClearly() throws {
        let (_, server, config) = try Self.pulled(.pyftpdlib, address: "127.0.63.2")
        defer { server.stop() }
        let run = try ftpsync(["verify", config])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.contains(
                "cam: FAILED — the server offers no hash command (HASH, XSHA256, XSHA1, XMD5, XCRC): nothing to "
                    + "verify against; `ftpsync verify --local` checks the local files against the state"),
            "\(run.stdout)")
        let json = try ftpsync(["verify", config, "--json"])
        #expect(json.status == 1, "\(json.stdout)\(json.stderr)")
        let (device, _) = try Self.device(json.stdout)
        #expect(device["status"] as? String == "failed")
        #expect((device["error"] as? String)?.contains("no hash command") == true, "\(json.stdout)")
        let local = try ftpsync(["verify", config, "--local"])
        #expect(local.status == 0, "\(local.stdout)\(local.stderr)")
        #expect(local.stdout.hasPrefix("cam: 3 verified"), "\(local.stdout)")
        let check = try ftpsync(["check", config])
        #expect(check.stdout.contains("hash:          none (verify: auto checks sizes only)"), "\(check.stdout)")
        // With `verify: required` every run of the device would fail: so does `check` (it said ok).
        let required = config + ".required.yaml"
        try (String(contentsOfFile: config, encoding: .utf8) + "    verify: required\n")
            .write(toFile: required, atomically: true, encoding: .utf8)
        chmod(required, 0o600)
        let strict = try ftpsync(["check", required])
        #expect(strict.status == 1, "\(strict.stdout)\(strict.stderr)")
        #expect(
            strict.stdout.contains("cam: FAILED — verify: required, but the server offers no hash command"),
            "\(strict.stdout)")
    }
}

/// Inverts one byte of the file at `path` in place, keeping its size and its access and
/// modification times to the nanosecond; returns those times.
private func flipByte(_ path: String, at offset: Int) throws -> [Int] {
    var info = stat()
    guard stat(path, &info) == 0 else { throw FlipError(description: "cannot stat \(path)") }
    let fd = open(path, O_RDWR)
    guard fd >= 0 else { throw FlipError(description: "cannot open \(path)") }
    defer { close(fd) }
    var byte: UInt8 = 0
    guard pread(fd, &byte, 1, off_t(offset)) == 1 else { throw FlipError(description: "no byte \(offset)") }
    byte ^= 0xFF
    guard pwrite(fd, &byte, 1, off_t(offset)) == 1 else { throw FlipError(description: "cannot write \(path)") }
    var times = [info.st_atim, info.st_mtim]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw FlipError(description: "cannot set times") }
    return try statTimes(path)
}

/// The modification time of the file at `path`: seconds, then nanoseconds.
private func statTimes(_ path: String) throws -> [Int] {
    var info = stat()
    guard stat(path, &info) == 0 else { throw FlipError(description: "cannot stat \(path)") }
    return [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
}

private struct FlipError: Error, CustomStringConvertible {
    var description: String
}
