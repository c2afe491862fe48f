// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 14 items 3, 13, 14, 15: what a run reports is what happened. Entries that could not be
/// synced make the device `partial` (exit 1) and are listed as `skipped`; `--json` prints a
/// document on every exit path; `status` shows the last attempt and its error; output that is
/// not a terminal has one line per action.
@Suite(.serialized) struct RunReportTests {
    /// The parsed JSON document on `stdout`, or an empty one.
    private func document(_ stdout: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
    }

    private func devices(_ document: [String: Any]) -> [[String: Any]] {
        document["devices"] as? [[String: Any]] ?? []
    }

    /// A pyftpdlib server on `address` serving `served`, and a config pulling it into `work/mirror/cam`.
    private func lab(_ label: String, address: String) throws -> (server: FTPServer, work: String, config: String) {
        let work = try makeTemporaryFolder("report-\(label)")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served + "/sub", withIntermediateDirectories: true)
        try writeFile(served + "/notes.txt", Array("notes\n".utf8), modified: 1_700_000_000)
        try writeFile(served + "/sub/a.txt", Array("a file below sub\n".utf8), modified: 1_700_000_000)
        let server = try FTPServer(.pyftpdlib, root: served, address: address)
        let config = work + "/device.yaml"
        try ("local: ./mirror\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        return (server, work, config)
    }

    // MARK: item 3: skipped entries

    @Test(arguments: [("names", "127.0.10.1"), ("names-list", "127.0.10.2")])
    func hostileNamesMakeTheDevicePartialWithSkippedEntries(mode: String, address: String) throws {
        let work = try makeTemporaryFolder("report-\(mode)")
        let server = try HostileServer(mode, address: address)
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        let environment = ["HOSTILE_PASS": "x"]

        let json = try ftpsync(["pull", config, "--json"], environment: environment, timeout: 60)
        #expect(json.status == 1, "\(json.stdout)\(json.stderr)")
        let device = devices(document(json.stdout)).first ?? [:]
        #expect(device["status"] as? String == "partial")
        let skipped = device["skipped"] as? [[String: String]] ?? []
        // A name the parser refused is an unreadable line of its folder (the reason quotes the
        // line); one it read but cannot use is named by its path.
        let lines = skipped.map { ($0["path"] ?? "") + ": " + ($0["reason"] ?? "") }
        for bad in ["/: unreadable listing line", "../escape.txt", "/etc/x", "sub: unreadable", "cr\\rname.txt"] {
            #expect(lines.contains { $0.contains(bad) }, "\(bad) not in \(lines)")
        }
        #expect(skipped.count == 7, "\(lines)")
        #expect(skipped.allSatisfy { !($0["reason"] ?? "").isEmpty }, "\(skipped)")
        #expect(device["notes"] is [String], "\(device)")
        // The good files still arrived.
        #expect(FileManager.default.fileExists(atPath: work + "/mirror/cam/good.txt"))

        // -q: one summary line per device, on stderr; nothing on stdout.
        let quiet = try ftpsync(["pull", config, "-q"], environment: environment, timeout: 60)
        #expect(quiet.status == 1)
        #expect(quiet.stdout.isEmpty, "\(quiet.stdout)")
        let summary = "cam: \(skipped.count) entries skipped (see --json or the log)"
        #expect(quiet.stderr.split(separator: "\n").map(String.init) == [summary], "\(quiet.stderr)")

        // The text report lists each skipped entry.
        let text = try ftpsync(["pull", config], environment: environment, timeout: 60)
        #expect(text.status == 1)
        #expect(text.stdout.contains("cam: partial — \(skipped.count) entries skipped"), "\(text.stdout)")
        #expect(text.stdout.components(separatedBy: "  skipped: ").count - 1 == skipped.count, "\(text.stdout)")
    }

    @Test func aLocalSymlinkInTheWayIsSkippedAndFailsTheRun() throws {
        let lab = try lab("symlink", address: "127.0.10.3")
        defer { lab.server.stop() }
        let elsewhere = lab.work + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: lab.work + "/mirror/cam", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: lab.work + "/mirror/cam/sub", withDestinationPath: elsewhere)

        let result = try ftpsync(["pull", lab.config, "--json"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let device = devices(document(result.stdout)).first ?? [:]
        #expect(device["status"] as? String == "partial")
        let skipped = device["skipped"] as? [[String: String]] ?? []
        #expect(skipped.count == 1 && skipped.first?["path"] == "sub", "\(skipped)")
        #expect(skipped.first?["reason"]?.contains("symlink") == true, "\(skipped)")
        // Nothing was written through the link; the rest was pulled.
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: elsewhere)) ?? []).isEmpty)
        #expect(FileManager.default.fileExists(atPath: lab.work + "/mirror/cam/notes.txt"))
        // Not a successful sync: status says so.
        let status = try ftpsync(["status", lab.config, "--json"])
        let known = devices(document(status.stdout)).first ?? [:]
        #expect(known["last_sync"] is NSNull, "\(status.stdout)")
        #expect(known["last_error"] as? String == "1 entry skipped", "\(status.stdout)")
    }

    @Test func aLocalNameThatIsNotUTF8IsSkippedByPushAndFailsTheRun() throws {
        let lab = try lab("push-bytes", address: "127.0.10.9")
        defer { lab.server.stop() }
        let local = lab.work + "/mirror/cam"
        try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        try writeFile(local + "/good.txt", Array("good\n".utf8), modified: 1_700_000_000)
        // `bad\xff.txt`: a name no UTF-8 server can be sent.
        var bytes = Array((local + "/bad").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF)]
        bytes += Array(".txt".utf8CString)
        let fd = open(bytes, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(fd >= 0)
        close(fd)

        let result = try ftpsync(["push", lab.config, "--json"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let device = devices(document(result.stdout)).first ?? [:]
        #expect(device["status"] as? String == "partial")
        let skipped = device["skipped"] as? [[String: String]] ?? []
        #expect(skipped.map { $0["path"] ?? "" } == ["bad\\xff.txt"], "\(skipped)")
        #expect(skipped.first?["reason"]?.contains("not valid UTF-8") == true, "\(skipped)")
        #expect(FileManager.default.fileExists(atPath: lab.server.root + "/good.txt"))
    }

    // MARK: item 13: a JSON document on every exit path

    @Test func aSuccessfulRunsDocumentCarriesTimesExitCodeAndVersion() throws {
        let lab = try lab("document", address: "127.0.10.4")
        defer { lab.server.stop() }
        let result = try ftpsync(["pull", lab.config, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let doc = document(result.stdout)
        #expect(doc["error"] is NSNull, "\(result.stdout)")
        #expect(doc["exit_code"] as? Int == 0)
        #expect((doc["version"] as? String)?.isEmpty == false)
        let iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/
        for key in ["started", "finished"] {
            #expect((doc[key] as? String)?.wholeMatch(of: iso) != nil, "\(key): \(String(describing: doc[key]))")
        }
        #expect((doc["duration_seconds"] as? Double).map { $0 >= 0 } == true, "\(result.stdout)")
        let device = devices(doc).first ?? [:]
        // pyftpdlib has no hash command: the only notes say so (the probe's, and size only).
        let notes = device["notes"] as? [String] ?? ["none"]
        #expect(notes.allSatisfy { $0.contains("hash command") }, "\(device)")
        #expect((device["skipped"] as? [Any])?.isEmpty == true, "\(device)")
    }

    @Test func usageConfigurationAndLockErrorsStillPrintADocument() throws {
        let work = try makeTemporaryFolder("report-stops")
        let broken = work + "/broken.yaml"
        try "local: ./mirror\ndevices: [\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let good = work + "/device.yaml"
        try "local: ./mirror\ndevices:\n  - name: cam\n    host: 127.0.10.5\n    port: 1\n".write(
            toFile: good, atomically: true, encoding: .utf8)

        func expectStop(_ arguments: [String], code: Int32, command: String, line: Int = #line) throws {
            let result = try ftpsync(arguments)
            #expect(result.status == code, "\(arguments): \(result.stderr)")
            let doc = document(result.stdout)
            #expect(doc["command"] as? String == command, "\(arguments): \(result.stdout)")
            #expect((doc["error"] as? String)?.isEmpty == false, "\(arguments): \(result.stdout)")
            #expect(doc["exit_code"] as? Int == Int(code), "\(arguments): \(result.stdout)")
            #expect((doc["devices"] as? [Any])?.isEmpty == true, "\(arguments): \(result.stdout)")
            #expect(doc["started"] is String && doc["version"] is String, "\(arguments): \(result.stdout)")
        }
        try expectStop(["pull", broken, "--json"], code: 2, command: "pull")
        try expectStop(["push", good, "--json", "--no-such-option"], code: 2, command: "push")
        try expectStop(["pull", good, "--json", "--device", "nope"], code: 2, command: "pull")
        try expectStop(["pull", good, "--json", "--max-delete", "x"], code: 2, command: "pull")

        // Another run holds the lock: exit 3, with a document.
        try FileManager.default.createDirectory(atPath: work + "/mirror/.ftpsync", withIntermediateDirectories: true)
        let fd = open(work + "/mirror/.ftpsync/lock", O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        defer { close(fd) }
        try expectStop(["pull", good, "--json"], code: 3, command: "pull")
    }

    // MARK: item 14: status shows the last attempt and its error

    @Test func statusShowsTheLastAttemptAndAGoodRunClearsTheError() throws {
        let lab = try lab("status", address: "127.0.10.6")
        defer { lab.server.stop() }
        // The same device on a port where nothing listens.
        let wrong = lab.work + "/wrong.yaml"
        try ("local: ./mirror\ndevices:\n  - name: cam\n    host: 127.0.10.6\n    port: 1\n    retries: 0\n").write(
            toFile: wrong, atomically: true, encoding: .utf8)
        let failed = try ftpsync(["pull", wrong])
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")

        let afterFailure = try ftpsync(["status", wrong, "--json"])
        #expect(afterFailure.status == 0, "\(afterFailure.stderr)")
        let failedState = devices(document(afterFailure.stdout)).first ?? [:]
        #expect(failedState["last_sync"] is NSNull, "\(afterFailure.stdout)")
        #expect(failedState["last_attempt"] is String, "\(afterFailure.stdout)")
        #expect(failedState["last_status"] as? String == "failed", "\(afterFailure.stdout)")
        #expect((failedState["last_error"] as? String)?.isEmpty == false, "\(afterFailure.stdout)")
        let text = try ftpsync(["status", wrong])
        let line = text.stdout.split(separator: "\n").first { $0.hasPrefix("cam ") } ?? ""
        #expect(line.contains("failing") && line.contains("failed: "), "\(text.stdout)")

        let good = try ftpsync(["pull", lab.config])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let afterSuccess = try ftpsync(["status", lab.config, "--json"])
        let goodState = devices(document(afterSuccess.stdout)).first ?? [:]
        #expect(goodState["last_sync"] is String, "\(afterSuccess.stdout)")
        #expect(goodState["last_attempt"] is String, "\(afterSuccess.stdout)")
        #expect(goodState["last_error"] is NSNull, "\(afterSuccess.stdout)")
        #expect(goodState["last_status"] as? String == "ok", "\(afterSuccess.stdout)")
        #expect(goodState["files"] as? Int == 2, "\(afterSuccess.stdout)")
    }

    @Test func aDeviceInterruptedShowsWhatItGotInStatus() throws {
        let work = try makeTemporaryFolder("report-interrupted")
        let served = work + "/served"
        try writeTree(
            [
                SampleFile(path: "a-first.txt", content: Array("first\n".utf8), modified: 1_700_000_000),
                SampleFile(path: "b-big.bin", content: pseudoRandomBytes(3_000_000, seed: 14), modified: 1_700_000_000),
                // Not started when the run is interrupted: no partial of it is counted.
                SampleFile(path: "c-later.txt", content: Array("later\n".utf8), modified: 1_700_000_000),
            ], at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.10.8", options: ["--throttle", "300000"])
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: ./mirror\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)

        let child = try spawn(ftpsyncBinary, ["pull", config, "--no-progress", "--parallel", "1"], output: false)
        let partials = work + "/mirror/.ftpsync/partial/cam"
        let started = waitUntil {
            FileManager.default.fileExists(atPath: work + "/mirror/cam/a-first.txt")
                && !((try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []).isEmpty
        }
        kill(child.pid, SIGINT)
        #expect(waitForExit(child.pid, timeout: 60) == 130)
        #expect(started)

        let status = try ftpsync(["status", config, "--json"])
        let state = devices(document(status.stdout)).first ?? [:]
        #expect(state["last_sync"] is NSNull, "\(status.stdout)")
        #expect(state["last_status"] as? String == "partial", "\(status.stdout)")
        #expect((state["last_error"] as? String)?.hasPrefix("interrupted") == true, "\(status.stdout)")
        #expect(state["last_files_transferred"] as? Int == 1, "\(status.stdout)")
        #expect(state["files"] as? Int == 1 && state["partials"] as? Int == 1, "\(status.stdout)")
    }

    // MARK: item 15: one line per action when not on a terminal

    @Test func redirectedOutputHasOneLinePerAction() throws {
        let lab = try lab("lines", address: "127.0.10.7")
        defer { lab.server.stop() }
        // `run` sends stdout and stderr to files: neither is a terminal.
        let result = try ftpsync(["pull", lab.config])
        #expect(result.status == 0, "\(result.stderr)")
        let all = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
        for path in ["notes.txt", "sub/a.txt"] {
            let mentions = all.filter { $0.contains(path) }
            #expect(mentions.count == 1, "\(path): \(mentions)")
        }
        #expect(result.stdout.contains("total done: 2 files"), "\(result.stdout)")
    }
}
