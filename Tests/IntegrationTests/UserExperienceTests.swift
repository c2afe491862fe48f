// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 9 against a real server: status, --quiet, --log, what a pipe receives, and that the
/// password never shows. Addresses 127.0.0.71–127.0.0.79.
@Suite(.serialized) struct UserExperienceTests {
    static let password = "Pw-only-the-server-knows-71"

    /// A served sample tree, a pyftpdlib server for it, and a config (mode 0600) pulling it.
    struct Setup {
        var work: String
        var server: FTPServer
        var config: String
        var mirror: String
        var files: [SampleFile]
    }

    private func setup(_ label: String, address: String, passwordInConfig: String? = nil) throws -> Setup {
        let work = try makeTemporaryFolder(label)
        let served = work + "/served"
        let tree = sampleTree()
        try writeTree(tree.files, emptyFolders: tree.emptyFolders, at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: address, password: Self.password)
        var device = server.deviceYAML(name: "cam")
        if let other = passwordInConfig {
            device = device.replacingOccurrences(of: "password: \(Self.password)", with: "password: \(other)")
        }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + device).write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        return Setup(work: work, server: server, config: config, mirror: work + "/mirror", files: tree.files)
    }

    private func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test func statusBeforeAndAfterAPull() throws {
        let lab = try setup("status", address: "127.0.0.71")
        defer { lab.server.stop() }

        // No state yet: every device listed with zeros; nothing is created.
        let before = try ftpsync(["status", lab.config, "--json"])
        #expect(before.status == 0, "\(before.stderr)")
        let empty = json(before.stdout)
        #expect(Set(empty.keys) == ["local", "devices", "trash"])
        #expect(empty["local"] as? String == lab.mirror)
        let emptyDevices = empty["devices"] as? [[String: Any]] ?? []
        #expect(emptyDevices.count == 1)
        let fresh = emptyDevices.first ?? [:]
        #expect(
            Set(fresh.keys) == [
                "name", "last_sync", "last_attempt", "last_status", "last_error", "last_files_transferred",
                "consecutive_failures", "failing_since", "files", "bytes", "partials", "identity_known", "trash_files",
                "trash_bytes",
            ])
        #expect(fresh["name"] as? String == "cam")
        #expect(fresh["last_sync"] is NSNull)
        #expect(fresh["files"] as? Int == 0 && fresh["bytes"] as? Int == 0 && fresh["partials"] as? Int == 0)
        #expect(fresh["identity_known"] as? Bool == false)
        #expect(!FileManager.default.fileExists(atPath: lab.mirror))

        let pull = try ftpsync(["pull", lab.config, "--json"])
        #expect(pull.status == 0, "\(pull.stderr)")
        let commandsBefore = lab.server.commands().count

        let after = try ftpsync(["status", lab.config, "--json"])
        #expect(after.status == 0, "\(after.stderr)")
        let device = (json(after.stdout)["devices"] as? [[String: Any]])?.first ?? [:]
        let lastSync = device["last_sync"] as? String ?? ""
        #expect(lastSync.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(lastSync)")
        #expect(device["files"] as? Int == lab.files.count)
        #expect(device["bytes"] as? Int == lab.files.reduce(0) { $0 + $1.content.count })
        #expect(device["partials"] as? Int == 0)
        // status made no connection.
        #expect(lab.server.commands().count == commandsBefore)

        let table = try ftpsync(["status", lab.config])
        #expect(table.status == 0)
        #expect(table.stdout.contains("cam") && table.stdout.contains(String(lab.files.count)))
    }

    @Test func quietPrintsNothingOnSuccessAndAPipeGetsNoCarriageReturns() throws {
        let lab = try setup("quiet", address: "127.0.0.72")
        defer { lab.server.stop() }
        let quiet = try ftpsync(["pull", lab.config, "-q"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")

        // Output that is not a terminal: plain lines, no carriage returns or escape codes.
        try writeFile(lab.server.root + "/new.txt", Array("new\n".utf8), modified: 1_700_000_000)
        let plain = try ftpsync(["pull", lab.config, "-v"])
        #expect(plain.status == 0, "\(plain.stderr)")
        // One line per action: on stderr as it finished, not again in the report (issue 14 item 15).
        #expect((plain.stdout + plain.stderr).components(separatedBy: "download      new.txt").count == 2)
        for text in [plain.stdout, plain.stderr] {
            #expect(!text.contains("\r") && !text.contains("\u{1B}"))
        }
    }

    @Test func logAppendsTimestampedLinesAndIsReopenedPerRun() throws {
        let lab = try setup("log", address: "127.0.0.73")
        defer { lab.server.stop() }
        let log = lab.work + "/ftpsync.log"
        let first = try ftpsync(["pull", lab.config, "-q", "--log", log])
        #expect(first.status == 0, "\(first.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let stamp = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ftpsync\[\d+\] .+/
        #expect(lines.allSatisfy { $0.wholeMatch(of: stamp) != nil }, "\(lines)")
        #expect(lines.filter { $0.contains("pull cam: download ") }.count == lab.files.count)
        #expect(lines.last?.contains("pull summary: 1 device(s), done \(lab.files.count) files") == true)
        #expect(lines.last?.hasSuffix("exit 0") == true)

        // logrotate moved the file away: the next run starts a new one.
        try FileManager.default.moveItem(atPath: log, toPath: log + ".1")
        let second = try ftpsync(["pull", lab.config, "-q", "--log", log])
        #expect(second.status == 0)
        let rotated = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(rotated.count == 1 && rotated[0].contains("done 0 files"))

        // A log that cannot be opened is a usage error before anything is done.
        let bad = try ftpsync(["pull", lab.config, "--log", lab.work + "/no/such/folder/log"])
        #expect(bad.status == 2 && bad.stderr.contains("cannot open the log file"))
    }

    @Test func thePasswordNeverShows() throws {
        let lab = try setup("secret", address: "127.0.0.74")
        defer { lab.server.stop() }
        let log = lab.work + "/secret.log"
        let verbose = try ftpsync(["pull", lab.config, "-v", "--json", "--log", log])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        #expect(verbose.stderr.contains("PASS ****"))
        let dry = try ftpsync(["pull", lab.config, "-v", "--dry-run"])
        let status = try ftpsync(["status", lab.config, "--json"])
        var outputs = [verbose.stdout, verbose.stderr, dry.stdout, dry.stderr, status.stdout]
        outputs.append(try String(contentsOfFile: log, encoding: .utf8))

        // A wrong password: the login fails, and neither password appears anywhere.
        let wrong = "Wrong-secret-74"
        let bad = try setup("wrong", address: "127.0.0.75", passwordInConfig: wrong)
        defer { bad.server.stop() }
        let badLog = bad.work + "/bad.log"
        let refused = try ftpsync(["pull", bad.config, "-v", "--json", "--log", badLog])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("\"failed\""))
        let plain = try ftpsync(["pull", bad.config])
        outputs += [refused.stdout, refused.stderr, plain.stdout, plain.stderr]
        outputs.append(try String(contentsOfFile: badLog, encoding: .utf8))
        for text in outputs {
            #expect(!text.contains(Self.password) && !text.contains(wrong), "\(text)")
        }
    }

    @Test func aReadableConfigWithAPasswordWarnsAndNetrcSuppliesOne() throws {
        let lab = try setup("hygiene", address: "127.0.0.76")
        defer { lab.server.stop() }
        chmod(lab.config, 0o644)
        let readable = try ftpsync(["status", lab.config])
        #expect(readable.stderr.contains("warning: \(lab.config) holds a password and is readable by others"))
        chmod(lab.config, 0o600)
        // (The only line left: the local tree, not made before the first run.)
        #expect(!(try ftpsync(["status", lab.config]).stderr.contains("warning")))

        // No password in the config: ~/.netrc supplies user and password; no warning for 0644.
        let noPassword = """
            local: \(lab.mirror)
            devices:
              - name: cam
                host: \(lab.server.address)
                port: \(lab.server.port)
            """
        let config = lab.work + "/netrc.yaml"
        try noPassword.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o644)
        let home = lab.work + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let netrc =
            "machine other.example login x password y\nmachine \(lab.server.address)\n"
            + "  login \(lab.server.user) password \(Self.password)\n"
        try netrc.write(toFile: home + "/.netrc", atomically: true, encoding: .utf8)
        chmod(home + "/.netrc", 0o600)
        let pulled = try ftpsync(["pull", config, "--json"], environment: ["HOME": home])
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(!pulled.stderr.contains("warning"), "\(pulled.stderr)")
        #expect(FileManager.default.fileExists(atPath: lab.mirror + "/cam/" + lab.files[0].path))
        #expect(lab.server.commands().contains("USER \(lab.server.user)"))
    }

    @Test(arguments: ["pull", "push", "ls", "check", "status", "help"])
    func everyCommandHasHelp(command: String) throws {
        let viaHelp = try ftpsync(["help", command])
        let viaFlag = try ftpsync([command, "--help"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout.hasPrefix("usage: ftpsync \(command)"))
        #expect(command == "help" || viaHelp.stdout.contains("example:\n  ftpsync \(command) "))
    }

    @Test func theLibraryExamplePlansAPull() throws {
        let lab = try setup("example", address: "127.0.0.77")
        defer { lab.server.stop() }
        let example = (ftpsyncBinary as NSString).deletingLastPathComponent + "/plan-pull-example"
        let result = try run(example, [lab.config, "cam"])
        #expect(result.status == 0, "\(result.stderr)")
        for file in lab.files { #expect(result.stdout.contains("download \(file.path) (\(file.content.count) bytes)")) }
        #expect(result.stdout.contains("\(lab.files.count) downloads"))
        #expect(!FileManager.default.fileExists(atPath: lab.mirror))
        #expect(lab.server.count("RETR") == 0)
    }
}
