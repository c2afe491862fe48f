// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 21, verified transfers: ProFTPD with mod_digest (`--digest`: HASH, XSHA256...) behind
/// `CorruptingRelay`, which flips one bit of one data stream once. A download whose bytes do
/// not match the server's hash is not placed but fetched again; an upload whose copy on the
/// server does not match is sent again; with `verify: off` the same link leaves a damaged file
/// (the control: the relay really corrupts). `verify: required` against a server with no hash
/// command fails the device clearly, and a partial download damaged on disk is not extended
/// blindly. Addresses 127.0.62.1 to 127.0.62.24, passive ports 46100-46199; the suite
/// `VerifyCommandTests` below, 127.0.62.30.
@Suite(.serialized) struct VerifiedTransferTests {
    /// One corrupted transfer: the file's size, the byte the relay flips a bit of, and the
    /// test's own addresses and passive ports.
    struct Case: Sendable, CustomTestStringConvertible {
        var size: Int
        var offset: Int
        var server: String
        var relay: String
        var ports: ClosedRange<Int>

        var testDescription: String { "\(size) bytes, a bit flipped in byte \(offset)" }
    }

    /// The server, its relay and the content served or pushed.
    struct Link {
        let server: FTPServer
        let relay: CorruptingRelay

        /// A config of one device `cam` through the relay, no retries (a second transfer is
        /// then the verification's), `verify` as given.
        func config(_ work: String, verify: String, extra: String = "") throws -> String {
            let path = work + "/device.yaml"
            let device = """
                  - name: cam
                    host: \(relay.address)
                    port: \(server.port)
                    user: \(server.user)
                    password: \(server.password)
                    retries: 0
                    verify: \(verify)
                \(extra)
                """
            try ("local: \(work)/mirror\ndevices:\n" + device).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func stop() {
            relay.stop()
            server.stop()
        }
    }

    /// ProFTPD with mod_digest serving `root` on `place.server`, its passive ports pinned, and
    /// the relay on `place.relay`.
    static func link(
        _ place: Case, root: String, fault: CorruptingRelay.Fault, rateMbit: Double? = nil
    ) throws -> Link {
        let ports = "\(place.ports.lowerBound)-\(place.ports.upperBound)"
        let server = try FTPServer(
            .proftpd, root: root, address: place.server, options: ["--digest", "--pasv-ports", ports])
        let relay = try CorruptingRelay(
            address: place.relay, target: place.server, port: server.port, passivePorts: place.ports, fault: fault,
            rateMbit: rateMbit)
        return Link(server: server, relay: relay)
    }

    static let large = 3_000_000
    static let small = 100_000

    /// Verified downloads: a 3 MB file (a bit flipped mid-file) and a 100 KB one (small files
    /// take another path).
    static let pulls = [
        Case(size: large, offset: 1_500_000, server: "127.0.62.1", relay: "127.0.62.2", ports: 46_100...46_109),
        Case(size: small, offset: 50_000, server: "127.0.62.3", relay: "127.0.62.4", ports: 46_110...46_119),
    ]
    /// The same downloads with `verify: off`.
    static let unverifiedPulls = [
        Case(size: large, offset: 1_500_000, server: "127.0.62.5", relay: "127.0.62.6", ports: 46_120...46_129),
        Case(size: small, offset: 50_000, server: "127.0.62.7", relay: "127.0.62.8", ports: 46_130...46_139),
    ]
    /// Verified uploads.
    static let pushes = [
        Case(size: large, offset: 1_500_000, server: "127.0.62.9", relay: "127.0.62.10", ports: 46_140...46_149),
        Case(size: small, offset: 50_000, server: "127.0.62.11", relay: "127.0.62.12", ports: 46_150...46_159),
    ]
    /// The same uploads with `verify: off`.
    static let unverifiedPushes = [
        Case(size: large, offset: 1_500_000, server: "127.0.62.13", relay: "127.0.62.14", ports: 46_160...46_169),
        Case(size: small, offset: 50_000, server: "127.0.62.15", relay: "127.0.62.16", ports: 46_170...46_179),
    ]

    /// A file served from `work/served`, and the link whose relay flips a bit of its download.
    static func pull(_ place: Case) throws -> (work: String, content: [UInt8], link: Link) {
        let work = try makeTemporaryFolder("verified-pull")
        let content = pseudoRandomBytes(place.size, seed: UInt64(place.size))
        try writeFile(work + "/served/clip.mov", content, modified: 1_700_000_000)
        let link = try Self.link(place, root: work + "/served", fault: .download(at: place.offset))
        return (work, content, link)
    }

    /// A file to push from `work/mirror/cam`, and the link whose relay flips a bit of its upload.
    static func push(_ place: Case) throws -> (work: String, content: [UInt8], link: Link) {
        let work = try makeTemporaryFolder("verified-push")
        let content = pseudoRandomBytes(place.size, seed: UInt64(place.size) + 1)
        try writeFile(work + "/mirror/cam/clip.mov", content, modified: 1_700_000_000)
        try FileManager.default.createDirectory(atPath: work + "/served", withIntermediateDirectories: true)
        let link = try Self.link(place, root: work + "/served", fault: .upload(at: place.offset))
        return (work, content, link)
    }

    /// Uploads the server logged (STOR and APPE, whatever the name).
    static func uploads(_ server: FTPServer) -> Int { server.count("STOR") + server.count("APPE") }

    /// Whether the server was asked for a hash of a file.
    static func askedForAHash(_ server: FTPServer) -> Bool {
        server.commands().contains { line in
            ["HASH ", "XSHA256 ", "XSHA1 ", "XSHA ", "XMD5 ", "MD5 ", "XCRC "].contains {
                line.uppercased().hasPrefix($0)
            }
        }
    }

    /// The bit flipped on the way down is caught by the server's hash: the damaged copy is not
    /// placed, the file is fetched again (two RETRs, with `retries: 0`: the second is the
    /// verification's), and the file placed is byte-identical to the one served.
    @Test(arguments: pulls)
    func aDownloadDamagedOnTheWayIsFetchedAgain(place: Case) throws {
        let (work, content, link) = try Self.pull(place)
        defer { link.stop() }
        let run = try ftpsync(["pull", try link.config(work, verify: "auto"), "--no-progress"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let placed = work + "/mirror/cam/clip.mov"
        #expect(firstDifference(placed, content) == nil, "not placed whole (-1: missing)")
        #expect(link.server.count("RETR") == 2, "fetched again once: \(link.server.commands())")
        #expect(Self.askedForAHash(link.server), "\(link.server.commands())")
    }

    /// The control: the same link with `verify: off` places the damaged copy (one RETR), so
    /// the test above can fail.
    @Test(arguments: unverifiedPulls)
    func withoutVerifyTheDamagedDownloadIsPlaced(place: Case) throws {
        let (work, content, link) = try Self.pull(place)
        defer { link.stop() }
        let run = try ftpsync(["pull", try link.config(work, verify: "off"), "--no-progress"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let placed = work + "/mirror/cam/clip.mov"
        #expect(firstDifference(placed, content) == place.offset, "the relay flipped byte \(place.offset)")
        #expect(link.server.count("RETR") == 1, "\(link.server.commands())")
        #expect(!Self.askedForAHash(link.server), "verify: off asks for no hash: \(link.server.commands())")
    }

    /// The bit flipped on the way up is caught by the server's hash of what it stored: the
    /// file is sent again (two STOR or APPE) and the server's copy is byte-identical.
    @Test(arguments: pushes)
    func anUploadDamagedOnTheWayIsSentAgain(place: Case) throws {
        let (work, content, link) = try Self.push(place)
        defer { link.stop() }
        let run = try ftpsync(["push", try link.config(work, verify: "auto"), "--no-progress"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(firstDifference(work + "/served/clip.mov", content) == nil, "not stored whole (-1: missing)")
        #expect(Self.uploads(link.server) == 2, "sent again once: \(link.server.commands())")
        #expect(Self.askedForAHash(link.server), "\(link.server.commands())")
    }

    /// The control: with `verify: off` the server keeps the damaged upload.
    @Test(arguments: unverifiedPushes)
    func withoutVerifyTheDamagedUploadStays(place: Case) throws {
        let (work, content, link) = try Self.push(place)
        defer { link.stop() }
        let run = try ftpsync(["push", try link.config(work, verify: "off"), "--no-progress"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(firstDifference(work + "/served/clip.mov", content) == place.offset, "\(link.server.commands())")
        #expect(Self.uploads(link.server) == 1, "\(link.server.commands())")
    }

    /// `verify: required` against pyftpdlib, which has no hash command: the pull fails (exit
    /// 1) saying the device cannot be verified because its server offers no hash, and nothing
    /// is downloaded.
    @Test func verifyRequiredFailsAgainstAServerWithoutHashes() throws {
        let work = try makeTemporaryFolder("verify-required")
        try writeFile(work + "/served/clip.mov", pseudoRandomBytes(200_000, seed: 21), modified: 1_700_000_000)
        let server = try FTPServer(.pyftpdlib, root: work + "/served", address: "127.0.62.20")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try
            ("local: \(work)/mirror\ndevices:\n"
            + server.deviceYAML(name: "cam", extra: "    retries: 0\n    verify: required\n"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ftpsync(["pull", config, "--no-progress"])
        let output = run.stdout + run.stderr
        #expect(run.status == 1, "\(output)")
        #expect(output.lowercased().contains("verify"), "\(output)")
        // One line says there is no hash to be had (its wording is free).
        let saysNoHash = output.lowercased().split(separator: "\n").contains { line in
            line.contains("hash") && ["no ", "not", "without", "cannot", "none"].contains { line.contains($0) }
        }
        #expect(saysNoHash, "\(output)")
        #expect(!FileManager.default.fileExists(atPath: work + "/mirror/cam/clip.mov"))
        #expect(server.count("RETR") == 0, "a device that cannot be verified transfers nothing: \(server.commands())")
    }

    /// A 6 MB download through a relay capped at 8 Mbit/s (1 MB/s), stopped by SIGINT once its
    /// partial holds 2 MB; some bytes a quarter into the partial are then inverted on disk, its
    /// size and time kept. Returns the work folder, the served content, the config, the damaged
    /// offset and the number of commands the server had logged by then.
    static func damagedPartial(_ place: Case, verify: String) throws -> (
        work: String, content: [UInt8], link: Link, config: String, damaged: Int, earlier: Int
    ) {
        let work = try makeTemporaryFolder("verify-partial")
        let content = pseudoRandomBytes(place.size, seed: 62)
        try writeFile(work + "/served/clip.mov", content, modified: 1_700_000_000)
        let link = try Self.link(place, root: work + "/served", fault: .none, rateMbit: 8)
        let config = try link.config(work, verify: verify)
        let child = try spawn(ftpsyncBinary, ["pull", config, "--no-progress"], output: true)
        let grew = waitUntil(30) { (largestPartial(work + "/mirror")?.size ?? 0) >= 2_000_000 }
        kill(child.pid, SIGINT)
        let status = waitForExit(child.pid, timeout: 60)
        let printed = (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? ""
        unlink(child.stdout)
        unlink(child.stderr)
        #expect(grew && status == 130, "exit \(status): \(printed)")
        let partial = try #require(largestPartial(work + "/mirror"), "no partial under .ftpsync: \(printed)")
        #expect(partial.size >= 2_000_000 && partial.size < content.count, "\(partial)")
        #expect(!FileManager.default.fileExists(atPath: work + "/mirror/cam/clip.mov"))
        let damaged = partial.size / 4
        try damage(partial.path, at: damaged)
        return (work, content, link, config, damaged, link.server.commands().count)
    }

    /// A partial download damaged on disk (a quarter in, so a check of its last bytes only
    /// passes) is not extended: the next run keeps none of it from the damage on (no REST past
    /// the damaged bytes) and places the file byte-identical.
    @Test func aPartialDamagedOnDiskIsNotExtendedBlindly() throws {
        let place = Case(
            size: 6_000_000, offset: 0, server: "127.0.62.21", relay: "127.0.62.22", ports: 46_180...46_189)
        let (work, content, link, config, damaged, earlier) = try Self.damagedPartial(place, verify: "auto")
        defer { link.stop() }
        let run = try ftpsync(["pull", config, "--no-progress"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let next = Array(link.server.commands().dropFirst(earlier))
        #expect(firstDifference(work + "/mirror/cam/clip.mov", content) == nil, "placed damaged: \(next)")
        let rests = next.filter { $0.uppercased().hasPrefix("REST ") }.compactMap { Int($0.dropFirst(5)) }
        #expect(rests.allSatisfy { $0 <= damaged }, "resumed past the damage at \(damaged): \(next)")
    }

    /// The control: with `verify: off` the same damaged partial is resumed as it is, and the
    /// damage ends up in the file placed (so the test above can fail).
    @Test func withoutVerifyTheDamagedPartialIsExtended() throws {
        let place = Case(
            size: 6_000_000, offset: 0, server: "127.0.62.23", relay: "127.0.62.24", ports: 46_190...46_199)
        let (work, content, link, config, damaged, earlier) = try Self.damagedPartial(place, verify: "off")
        defer { link.stop() }
        let run = try ftpsync(["pull", config, "--no-progress"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let next = Array(link.server.commands().dropFirst(earlier))
        #expect(firstDifference(work + "/mirror/cam/clip.mov", content) == damaged, "\(next)")
    }
}

/// `ftpsync verify` (issue 21): after a clean pull from ProFTPD with mod_digest, a local file
/// damaged with its size and time kept (so a pull sees nothing to do) is found, by the
/// server's hash and with `--local` by the digest recorded at the pull; an undamaged tree
/// passes; nothing is changed. Address 127.0.62.30.
@Suite(.serialized) struct VerifyCommandTests {
    static let files = [
        SampleFile(path: "DCIM/a.jpg", content: pseudoRandomBytes(200_000, seed: 31), modified: 1_700_000_000),
        SampleFile(path: "DCIM/b.jpg", content: pseudoRandomBytes(1_000_000, seed: 32), modified: 1_700_000_060),
        SampleFile(path: "c.mov", content: pseudoRandomBytes(50_000, seed: 33), modified: 1_700_000_120),
    ]

    /// Whether `output` names `path` (in JSON a `/` may be written `\/`).
    static func names(_ output: String, _ path: String) -> Bool {
        output.contains(path) || output.contains(path.replacingOccurrences(of: "/", with: "\\/"))
    }

    /// A clean tree passes (exit 0), then `DCIM/b.jpg` damaged in place is reported by
    /// `verify --json` (exit 1, valid JSON naming it) and by `verify --local` (exit 1); the
    /// damaged file is left as it is, and a pull still sees nothing to fetch.
    @Test func aFileDamagedHereWithItsSizeAndTimeKeptIsFound() throws {
        let work = try makeTemporaryFolder("verify-command")
        try writeTree(Self.files, at: work + "/served")
        let server = try FTPServer(.proftpd, root: work + "/served", address: "127.0.62.30", options: ["--digest"])
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let pull = try ftpsync(["pull", config, "--no-progress"])
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        for file in Self.files {
            #expect(firstDifference(work + "/mirror/cam/" + file.path, file.content) == nil, "\(file.path)")
        }

        let clean = try ftpsync(["verify", config, "--json"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(clean.stdout.utf8))) != nil, "\(clean.stdout)")
        let cleanLocal = try ftpsync(["verify", config, "--local"])
        #expect(cleanLocal.status == 0, "\(cleanLocal.stdout)\(cleanLocal.stderr)")

        let damaged = work + "/mirror/cam/DCIM/b.jpg"
        let before = try modificationTime(damaged)
        try damage(damaged, at: 400_000, count: 1)
        #expect(try modificationTime(damaged) == before)

        let found = try ftpsync(["verify", config, "--json"])
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(found.stdout.utf8))) != nil, "\(found.stdout)")
        #expect(Self.names(found.stdout, "DCIM/b.jpg"), "\(found.stdout)\(found.stderr)")
        let local = try ftpsync(["verify", config, "--local"])
        #expect(local.status == 1, "\(local.stdout)\(local.stderr)")
        #expect(Self.names(local.stdout + local.stderr, "DCIM/b.jpg"), "\(local.stdout)\(local.stderr)")

        // verify changes nothing: the damage is still there, its time too, and the others
        // are untouched.
        #expect(firstDifference(damaged, Self.files[1].content) == 400_000)
        #expect(try modificationTime(damaged) == before)
        #expect(firstDifference(work + "/mirror/cam/DCIM/a.jpg", Self.files[0].content) == nil)
        #expect(firstDifference(work + "/mirror/cam/c.mov", Self.files[2].content) == nil)
    }
}

/// The first byte at which the file at `path` differs from `content` (its length when one is
/// a prefix of the other); nil when they are the same, -1 when the file cannot be read.
private func firstDifference(_ path: String, _ content: [UInt8]) -> Int? {
    guard let data = FileManager.default.contents(atPath: path) else { return -1 }
    let bytes = [UInt8](data)
    if bytes == content { return nil }
    return (0..<min(bytes.count, content.count)).first { bytes[$0] != content[$0] } ?? min(bytes.count, content.count)
}

private struct DamageError: Error, CustomStringConvertible {
    var description: String
}

/// The file's modification time, to the nanosecond: seconds, then nanoseconds.
private func modificationTime(_ path: String) throws -> [Int] {
    var info = stat()
    guard stat(path, &info) == 0 else { throw DamageError(description: "cannot stat \(path)") }
    return [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
}

/// Inverts `count` bytes of the file at `path` from `offset` in place (bit rot, a bad sector),
/// keeping its size and its modification time to the nanosecond.
private func damage(_ path: String, at offset: Int, count: Int = 16) throws {
    var info = stat()
    guard stat(path, &info) == 0 else { throw DamageError(description: "cannot stat \(path)") }
    let fd = open(path, O_RDWR)
    guard fd >= 0 else { throw DamageError(description: "cannot open \(path)") }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    guard pread(fd, &bytes, count, off_t(offset)) == count else {
        throw DamageError(description: "\(path) has no \(count) bytes at \(offset)")
    }
    for index in bytes.indices { bytes[index] ^= 0xFF }
    guard pwrite(fd, bytes, count, off_t(offset)) == count else {
        throw DamageError(description: "cannot write \(path)")
    }
    var times = [info.st_atim, info.st_mtim]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else {
        throw DamageError(description: "cannot set the time of \(path)")
    }
}

/// The largest regular file under `<mirror>/.ftpsync` whose path names a partial (where an
/// interrupted download waits: `LocalPaths.partial`), and its size.
private func largestPartial(_ mirror: String) -> (path: String, size: Int)? {
    let state = mirror + "/.ftpsync"
    guard let walker = FileManager.default.enumerator(atPath: state) else { return nil }
    var best: (path: String, size: Int)?
    while let relative = walker.nextObject() as? String {
        guard relative.hasPrefix("partial") else { continue }
        var info = stat()
        let path = state + "/" + relative
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
        if Int(info.st_size) > best?.size ?? -1 { best = (path, Int(info.st_size)) }
    }
    return best
}
