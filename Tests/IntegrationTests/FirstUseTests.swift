// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// The README's first use, step by step against a real server: the example config copied and
/// pointed at it, the cron line run in cron's bare environment, and a device asking for FTPS
/// refused before any byte is sent. Address 127.0.0.85.
@Suite(.serialized) struct FirstUseTests {
    static let address = "127.0.0.85"
    static let password = "Cam-pw-85"

    /// The example device.yaml with host, port and remote pointed at `server`.
    private func exampleConfig(for server: FTPServer, in folder: String, extra: String = "") throws -> String {
        var text = try String(contentsOfFile: packageRoot + "/Examples/device.yaml", encoding: .utf8)
        text = text.replacingOccurrences(of: "host: 192.168.1.20", with: "host: \(server.address)")
        text = text.replacingOccurrences(of: "port: 21", with: "port: \(server.port)")
        text = text.replacingOccurrences(of: "remote: /DCIM", with: "remote: /DCIM\(extra)")
        let path = folder + "/device.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `command` with `sh -c` the way cron does: no environment but PATH and HOME.
    private func asCron(_ command: String, home: String) throws -> ProcessResult {
        try run("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", "HOME=\(home)", "sh", "-c", command])
    }

    @Test func theExampleConfigPullsAndTheCronLineIsSilentAndLogs() throws {
        let work = try makeTemporaryFolder("first-use")
        let served = work + "/served"
        try writeFile(
            served + "/DCIM/100CAM/IMG_0001.JPG", pseudoRandomBytes(70_000, seed: 85), modified: 1_700_000_000)
        try writeFile(served + "/DCIM/notes.tmp", Array("excluded\n".utf8), modified: 1_700_000_000)
        let server = try FTPServer(
            .pyftpdlib, root: served, address: Self.address, user: "camera", password: Self.password)
        defer { server.stop() }
        let config = try exampleConfig(for: server, in: work)
        let logFolder = work + "/log"
        let line =
            "\(shellQuoted(ftpsyncBinary)) pull \(shellQuoted(config)) -q --log \(shellQuoted(logFolder))/ftpsync.log"

        // No log folder yet: a usage error that says which file, before anything is done.
        let noFolder = try asCron("FRONT_CAMERA_PASSWORD=\(Self.password) " + line, home: work)
        #expect(noFolder.status == 2 && noFolder.stderr.contains("cannot open the log file"), "\(noFolder.stderr)")
        try FileManager.default.createDirectory(atPath: logFolder, withIntermediateDirectories: true)

        // Cron does not have the shell's variables: the error says so, on stderr and in the log;
        // the device fails (exit 1), as any one device's settings problem does.
        let noPassword = try asCron(line, home: work)
        #expect(noPassword.status == 1)
        #expect(noPassword.stderr.contains("'FRONT_CAMERA_PASSWORD' (named by 'password_env') is not set"))
        #expect(noPassword.stderr.contains("set it in the crontab"))

        // With the variable set as in Examples/crontab: silent, exit 0, the log has the run.
        let pulled = try asCron("FRONT_CAMERA_PASSWORD=\(Self.password) " + line, home: work)
        #expect(pulled.status == 0 && pulled.stdout.isEmpty && pulled.stderr.isEmpty, "\(pulled.stderr)")
        let log = try String(contentsOfFile: logFolder + "/ftpsync.log", encoding: .utf8)
        #expect(log.contains("is not set"))
        #expect(log.contains("pull front-camera: download 100CAM/IMG_0001.JPG 70000 bytes done"), "\(log)")
        #expect(log.contains("pull summary: 1 device(s), done 1 files (70000 bytes)"))
        #expect(!log.contains(Self.password))
        let copied = FileManager.default.contents(atPath: work + "/mirror/front-camera/100CAM/IMG_0001.JPG")
        #expect(copied.map { [UInt8]($0) } == pseudoRandomBytes(70_000, seed: 85))
        #expect(!FileManager.default.fileExists(atPath: work + "/mirror/front-camera/notes.tmp"))

        // push --dry-run after a local change: the plan, nothing sent.
        try writeFile(work + "/mirror/front-camera/new.txt", Array("new\n".utf8), modified: 1_700_000_500)
        let dry = try ftpsync(["push", config, "--dry-run"], environment: ["FRONT_CAMERA_PASSWORD": Self.password])
        #expect(dry.status == 0 && dry.stdout.contains("upload        new.txt (4 B) [planned]"), "\(dry.stdout)")
        #expect(server.count("STOR") == 0)
    }

    @Test func aDeviceAskingForFTPSNeverSendsItsPasswordToAPlainServer() throws {
        let work = try makeTemporaryFolder("first-use-tls")
        let server = try FTPServer(.pyftpdlib, root: work + "/served", address: Self.address, password: Self.password)
        defer { server.stop() }
        let config = work + "/fleet.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "recorder", extra: "    tls: explicit"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        for command in ["pull", "push"] {
            let result = try ftpsync([command, config])
            #expect(result.status == 1)
            #expect(result.stdout.contains("recorder: failed"), "\(result.stdout)")
        }
        let listed = try ftpsync(["ls", config, "recorder"])
        #expect(listed.status == 1)
        let sent = server.commands().map { $0.uppercased() }
        #expect(!sent.contains { $0.hasPrefix("USER") || $0.hasPrefix("PASS") }, "\(sent)")
    }
}
