// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Common configuration mistakes and the messages they get (issue 14 items 12, 16, 17): a
/// broken device fails alone, `check` and `ls` read the configuration as `pull` does, and
/// each mistake is named with its fix. Addresses 127.0.11.1–9.
@Suite(.serialized) struct ConfigMistakeTests {
    /// A config of two devices on `server`: `broken` (with `brokenLines`) and `good`.
    static func twoDevices(_ server: LabServer, in work: String, brokenLines: [String]) throws -> String {
        var lines = ["local: \(work)/mirror", "devices:"]
        lines += [
            "  - name: broken", "    host: \(server.address)", "    port: \(server.port)", "    user: \(server.user)",
        ]
        lines += brokenLines.map { "    " + $0 }
        lines += [
            "  - name: good", "    host: \(server.address)", "    port: \(server.port)", "    user: \(server.user)",
            "    password: \(server.password)",
        ]
        let path = work + "/device.yaml"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// An unset `password_env` or an unknown time zone fails that device (exit 1, the message
    /// at its line), the other device syncs; before, the whole run stopped with exit 2.
    @Test(arguments: [
        (["password_env: NOT_SET_ANYWHERE_PW"], "'NOT_SET_ANYWHERE_PW' (named by 'password_env') is not set"),
        (["password: ls-t3st-pw", "timezone: Mars/Olympus"], "unknown time zone 'Mars/Olympus'"),
    ])
    func aBrokenDeviceFailsAlone(lines: [String], message: String) throws {
        let work = try makeTemporaryFolder("broken-device")
        try writeFile(work + "/served/a.txt", Array("alpha\n".utf8), modified: 1_700_000_000)
        let server = try LabServer("pyftpdlib", root: work + "/served", address: "127.0.11.1")
        defer { server.stop() }
        let config = try Self.twoDevices(server, in: work, brokenLines: lines)

        let pulled = try ftpsync(["pull", config, "--json"])
        #expect(pulled.status == 1, "\(pulled.stdout)\(pulled.stderr)")
        #expect(pulled.stdout.contains(message), "\(pulled.stdout)")
        #expect(pulled.stdout.contains("device.yaml:"), "the message names the file and line: \(pulled.stdout)")
        let copied = FileManager.default.contents(atPath: work + "/mirror/good/a.txt")
        #expect(copied.map { String(decoding: $0, as: UTF8.self) } == "alpha\n")
        #expect(!FileManager.default.fileExists(atPath: work + "/mirror/broken/a.txt"))

        let checked = try ftpsync(["check", config])
        #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("broken: FAILED") && checked.stdout.contains(message), "\(checked.stdout)")
        #expect(checked.stdout.contains("good: ok"), "\(checked.stdout)")
    }

    /// A mistake in the file's shape still stops the run before anything is done (exit 2).
    @Test func aShapeErrorStopsTheRun() throws {
        let work = try makeTemporaryFolder("shape-error")
        let config = work + "/device.yaml"
        try "local: \(work)/mirror\ndevices:\n  - name: a\n    host: h\n    tls: ssl\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let pulled = try ftpsync(["pull", config])
        #expect(pulled.status == 2 && pulled.stderr.contains("device.yaml:5:10:"), "\(pulled.stderr)")
    }

    /// A password only in `~/.netrc`: `check` and `ls` log in as `pull` does; before, they sent
    /// no password and said "check user and password".
    @Test func checkAndLsReadNetrcLikePull() throws {
        let work = try makeTemporaryFolder("netrc-only")
        let home = work + "/home"
        try writeFile(work + "/served/a.txt", Array("alpha\n".utf8), modified: 1_700_000_000)
        let server = try LabServer("pyftpdlib", root: work + "/served", address: "127.0.11.2")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try "local: \(work)/mirror\ndevices:\n  - name: cam\n    host: \(server.address)\n    port: \(server.port)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try "machine \(server.address) login \(server.user) password \(server.password)\n".write(
            toFile: home + "/.netrc", atomically: true, encoding: .utf8)
        chmod(home + "/.netrc", 0o644)
        let environment = ["HOME": home]

        let checked = try ftpsync(["check", config], environment: environment)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("cam: ok"), "\(checked.stdout)")
        // The same permission warning as pull gives.
        #expect(checked.stderr.contains(".netrc holds passwords and is readable by others"), "\(checked.stderr)")
        let listed = try ftpsync(["ls", config, "cam"], environment: environment)
        #expect(listed.status == 0 && listed.stdout.contains("a.txt"), "\(listed.stdout)\(listed.stderr)")
        let pulled = try ftpsync(["pull", config, "-q"], environment: environment)
        #expect(pulled.status == 0, "\(pulled.stderr)")
    }

    /// No password anywhere: the message says so and where it looked, not "check user and password".
    @Test func noPasswordAnywhereSaysSo() throws {
        let work = try makeTemporaryFolder("no-password")
        let home = work + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try writeFile(work + "/served/a.txt", Array("alpha\n".utf8), modified: 1_700_000_000)
        let server = try LabServer("pyftpdlib", root: work + "/served", address: "127.0.11.3")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try
            ("local: \(work)/mirror\ndevices:\n  - name: cam\n    host: \(server.address)\n    port: \(server.port)\n"
            + "    user: \(server.user)\n").write(toFile: config, atomically: true, encoding: .utf8)
        let expected = "no password configured for user '\(server.user)' (tried: password, password_env, ~/.netrc)"
        for command in [["pull", config], ["check", config], ["ls", config, "cam"]] {
            let result = try ftpsync(command, environment: ["HOME": home])
            #expect(result.status == 1, "\(command[0]): \(result.stdout)\(result.stderr)")
            let output = result.stdout + result.stderr
            #expect(output.contains(expected), "\(command[0]): \(output)")
            #expect(!output.contains("check user and password"), "\(command[0]): \(output)")
        }
    }

    /// `host: "10.0.0.5:2121"` is a configuration error at its line with the fix.
    @Test func aPortInTheHostIsNamedWithTheFix() throws {
        let work = try makeTemporaryFolder("host-port")
        let config = work + "/device.yaml"
        try "local: \(work)/mirror\ndevices:\n  - name: cam\n    host: \"127.0.11.4:2121\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        for command in ["pull", "check"] {
            let result = try ftpsync([command, config])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "device.yaml:4:11: 'host' holds a port ('127.0.11.4:2121'): put the port in `port: 2121`"),
                "\(command): \(result.stderr)")
        }
    }

    /// `ls CONFIG` without a device says that a device is missing, and which there are.
    @Test func lsOfAConfigWithoutADeviceSaysSo() throws {
        let work = try makeTemporaryFolder("ls-no-device")
        let config = work + "/device.yaml"
        try "local: \(work)/mirror\ndevices:\n  - name: front\n    host: 127.0.11.5\n  - name: back\n    host: h\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let result = try ftpsync(["ls", config])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "ls needs a device after the configuration file: ftpsync ls \(config) DEVICE[:PATH]"),
            "\(result.stderr)")
        #expect(result.stderr.contains("(devices: front, back)"), "\(result.stderr)")
        #expect(!result.stderr.contains("unknown device"), "\(result.stderr)")
    }

    /// A full server that refuses the login with 530 "Too many connections" is not a wrong
    /// password: the message says the server is full, and the first connection is retried.
    @Test func tooManyConnectionsIsNotAWrongPassword() throws {
        let work = try makeTemporaryFolder("too-many")
        let server = try HostileServer("too-many", address: "127.0.11.6")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work, timeout: 2, retries: 0)
        let result = try ftpsync(["pull", config], environment: ["HOSTILE_PASS": "pw"], timeout: 60)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(output.contains("the server takes no more connections (not a wrong password)"), "\(output)")
        #expect(!output.contains("check user and password"), "\(output)")
    }
}
