// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 18, `--log-format json` against real servers: a pull with failing downloads and a
/// push with a failing upload write a log in which every line is one JSON object, all of a run
/// with one `run_id`, with the events the text log has. Addresses 127.0.45.1–127.0.45.9.
@Suite(.serialized) struct JSONLogRunTests {
    private static let keys: Set<String> = [
        "time", "level", "event", "run_id", "pid", "command", "dry_run", "device", "path", "bytes", "error",
        "message",
    ]

    /// The objects of `text`'s lines; each must be one JSON object (checked here).
    private func objects(_ text: String) throws -> [[String: Any]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the log does not end with a line break")
        return try lines.dropLast().map { line in
            let value = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(value as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// Runs ftpsync with its standard error one end of a Unix socket pair (what systemd's
    /// `StandardError=journal` gives a service); `stderr` is what arrived at the other end.
    private func onSocket(_ arguments: [String]) throws -> ProcessResult {
        let script = """
            import socket, subprocess, sys
            ours, theirs = socket.socketpair()
            child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=theirs)
            theirs.close()
            received = b""
            while chunk := ours.recv(65536):
                received += chunk
            sys.stdout.write(received.decode("utf-8", "replace"))
            sys.exit(child.wait())
            """
        let result = try run("/usr/bin/python3", ["-c", script, ftpsyncBinary] + arguments)
        return ProcessResult(status: result.status, stdout: "", stderr: result.stdout + result.stderr)
    }

    private func events(_ objects: [[String: Any]]) -> [String] { objects.map { $0["event"] as? String ?? "?" } }

    @Test func aPullAndAPushWithFailuresLogOneObjectPerLine() throws {
        let work = try makeTemporaryFolder("jsonlog")
        let minute = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3 * 86_400
        let good = work + "/good"
        let denied = work + "/denied"
        try writeFile(good + "/a \"quoted\" name.jpg", Array(repeating: 7, count: 1000), modified: minute)
        try writeFile(good + "/DCIM/b.jpg", Array(repeating: 8, count: 2000), modified: minute)
        try writeFile(denied + "/c.jpg", Array(repeating: 9, count: 300), modified: minute)
        let cam = try FTPServer(.pyftpdlib, root: good, address: "127.0.45.1")
        defer { cam.stop() }
        // proftpd refuses every RETR and STOR: each download and upload of the device fails.
        let refusing = try FTPServer(
            .proftpd, root: denied, address: "127.0.45.2", options: ["--deny", "RETR", "--deny", "STOR"])
        defer { refusing.stop() }
        let config = work + "/fleet.yaml"
        try
            ("local: \(work)/mirror\ndevices:\n" + cam.deviceYAML(name: "cam") + "\n"
            + refusing.deviceYAML(name: "refusing"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        let log = work + "/ftpsync.log"

        let pull = try ftpsync(["pull", config, "-q", "--log", log, "--log-format", "json"])
        #expect(pull.status == 1, "\(pull.stderr)")
        try writeFile(work + "/mirror/cam/new.txt", Array("new\n".utf8), modified: minute)
        try writeFile(work + "/mirror/refusing/up.txt", Array("up\n".utf8), modified: minute)
        let push = try ftpsync(["push", config, "-q", "--log", log, "--log-format", "json"])
        #expect(push.status == 1, "\(push.stderr)")

        let text = try String(contentsOfFile: log, encoding: .utf8)
        let all = try objects(text)
        for object in all {
            #expect(Self.keys.isSubset(of: Set(object.keys)), "\(object)")
            let time = object["time"] as? String ?? ""
            #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(time)")
            #expect(["info", "warning", "error"].contains(object["level"] as? String ?? ""))
            #expect((object["run_id"] as? String)?.wholeMatch(of: /[0-9a-f]{16}/) != nil)
            #expect(((object["message"] as? String) ?? "").isEmpty == false)
        }
        // Two runs, each with its own id on all of its lines, each ending with its summary.
        let runs = Dictionary(grouping: all) { $0["command"] as? String ?? "?" }
        #expect(Set(runs.keys) == ["pull", "push"])
        let pulled = runs["pull"] ?? []
        let pushed = runs["push"] ?? []
        for run in [pulled, pushed] {
            #expect(Set(run.map { $0["run_id"] as? String ?? "?" }).count == 1)
            #expect(events(run).last == "run_finished" && events(run).filter { $0 == "run_finished" }.count == 1)
            #expect(run.last?["exit_code"] as? Int == 1 && run.last?["level"] as? String == "error")
        }
        #expect(pulled.first?["run_id"] as? String != pushed.first?["run_id"] as? String)

        // The pull: both of cam's files done, the refused one failed, the device partial.
        let done = pulled.filter { $0["event"] as? String == "action_done" && $0["kind"] as? String != "mkdir_local" }
        #expect(Set(done.map { $0["path"] as? String ?? "?" }) == ["a \"quoted\" name.jpg", "DCIM/b.jpg"])
        #expect(done.allSatisfy { $0["device"] as? String == "cam" && $0["kind"] as? String == "download" })
        #expect(done.map { $0["bytes"] as? Int ?? -1 }.sorted() == [1000, 2000])
        let failed = pulled.filter { $0["event"] as? String == "action_failed" }
        #expect(failed.count == 1 && failed.first?["path"] as? String == "c.jpg", "\(failed)")
        #expect(failed.first?["device"] as? String == "refusing" && failed.first?["level"] as? String == "error")
        #expect(((failed.first?["error"] as? String) ?? "").isEmpty == false)
        let deviceErrors = pulled.filter { $0["event"] as? String == "device_error" }
        #expect(deviceErrors.map { $0["device"] as? String ?? "?" } == ["refusing"])
        #expect(
            deviceErrors.first?["status"] as? String == "partial"
                && deviceErrors.first?["level"] as? String == "warning")
        #expect(pulled.last?["bytes"] as? Int == 3000 && pulled.last?["files"] as? Int == 2)
        #expect(pulled.last?["device"] is NSNull && pulled.last?["path"] is NSNull)

        // The push: cam's new file uploaded, the refused upload failed.
        let uploads = pushed.filter { ($0["event"] as? String ?? "").hasPrefix("action_") }
        let outcome = Dictionary(uniqueKeysWithValues: uploads.map { ($0["path"] as? String ?? "?", $0) })
        #expect(outcome["new.txt"]?["event"] as? String == "action_done", "\(uploads)")
        #expect(outcome["new.txt"]?["kind"] as? String == "upload" && outcome["new.txt"]?["bytes"] as? Int == 4)
        #expect(outcome["up.txt"]?["event"] as? String == "action_failed", "\(uploads)")

        // jq reads the log as it is, line by line, and the documented queries work on it.
        let jq = try run("/usr/bin/jq", ["-c", ".", log])
        #expect(jq.status == 0 && jq.stdout.split(separator: "\n").count == all.count, "\(jq.stderr)")
        let id = pushed.first?["run_id"] as? String ?? "?"
        let lastRun = try run(
            "/usr/bin/jq", ["-c", "--arg", "id", id, "select(.run_id == $id and .level != \"info\")", log])
        #expect(lastRun.status == 0)
        #expect(lastRun.stdout.split(separator: "\n").count == pushed.filter { $0["level"] as? String != "info" }.count)
        let perDevice = try run(
            "/usr/bin/jq",
            [
                "-c", "-s",
                "map(select(.event == \"action_done\" and .bytes != null)) | group_by(.device) "
                    + "| map({device: .[0].device, bytes: (map(.bytes) | add)})", log,
            ])
        #expect(perDevice.stdout == "[{\"device\":\"cam\",\"bytes\":3004}]\n", "\(perDevice.stdout)\(perDevice.stderr)")
    }

    @Test func theKeyChoosesTheFormatTheOptionWinsAndDashIsStandardError() throws {
        let work = try makeTemporaryFolder("jsonlog-key")
        let minute = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 3 * 86_400
        let served = work + "/served"
        try writeFile(served + "/one.txt", Array("one\n".utf8), modified: minute)
        let cam = try FTPServer(.pyftpdlib, root: served, address: "127.0.45.3")
        defer { cam.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\nlog_format: json\ndevices:\n" + cam.deviceYAML(name: "cam"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)

        // `--log -`: the JSON lines on standard error, in place of the progress lines.
        let dash = try ftpsync(["pull", config, "--log", "-", "--progress"])
        #expect(dash.status == 0, "\(dash.stderr)")
        #expect(dash.stdout.contains("one.txt"))
        let lines = try objects(dash.stderr)
        // pyftpdlib has no hash command: the probe's and the size-only notes come before the summary.
        #expect(events(lines) == ["action_done", "device_note", "device_note", "run_finished"], "\(dash.stderr)")
        #expect(lines.contains { ($0["message"] as? String)?.contains("checked by size only") == true })
        #expect(lines.first?["path"] as? String == "one.txt" && lines.first?["bytes"] as? Int == 4)

        // Standard error a socket, as journald's is: `-` works where /dev/stderr cannot be opened.
        let socket = try onSocket(["pull", config, "-q", "--log", "-"])
        #expect(socket.status == 0, "\(socket.stderr)")
        #expect(events(try objects(socket.stderr)) == ["run_finished"], "\(socket.stderr)")
        let device = try onSocket(["pull", config, "-q", "--log", "/dev/stderr"])
        #expect(device.status == 2 && device.stderr.contains("cannot open the log file /dev/stderr"))

        // A --device the configuration lacks is a line too (exit 2), not only stderr.
        let unknown = try ftpsync(["pull", config, "-q", "--device", "nope", "--log", "-"])
        #expect(unknown.status == 2, "\(unknown.stderr)")
        let stop = try objects(
            unknown.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }.joined(separator: "\n") + "\n")
        #expect(events(stop) == ["config_error"], "\(unknown.stderr)")
        #expect((stop.first?["error"] as? String)?.contains("unknown device 'nope'") == true)

        // The option wins over the key: the text lines, as ever.
        let log = work + "/ftpsync.log"
        let text = try ftpsync(["pull", config, "-q", "--log", log, "--log-format", "text"])
        #expect(text.status == 0, "\(text.stderr)")
        let written = try String(contentsOfFile: log, encoding: .utf8)
        #expect(
            written.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ftpsync\[\d+\] pull summary: [^\n]*exit 0\n/) != nil
        )

        // A configuration that cannot be read: the line in the option's format.
        try "local: [\n".write(toFile: config, atomically: true, encoding: .utf8)
        let broken = try ftpsync(["pull", config, "--log", log, "--log-format", "json"])
        #expect(broken.status == 2)
        let after = try String(contentsOfFile: log, encoding: .utf8)
        #expect(after.hasPrefix(written))
        let last = try objects(String(after.dropFirst(written.count))).last
        #expect(last?["event"] as? String == "config_error" && last?["level"] as? String == "error")
        #expect(last?["device"] is NSNull && ((last?["error"] as? String) ?? "").isEmpty == false)
    }
}
