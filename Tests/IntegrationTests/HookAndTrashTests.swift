// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 18: the `on_finish` / `on_failure` hooks get the run's document and the exit code, are
/// bounded in time and never change the exit code; a pull purges the trash folders older than
/// `trash_retention` and keeps the recent ones, following no symlink. Servers on 127.0.46.x.
@Suite(.serialized) struct HookAndTrashTests {
    /// A shell script the hooks run as `sh hook.sh NAME`: its input to NAME.json, the
    /// variables to NAME.env, NAME appended to order.txt, and a line on its standard output
    /// (which must not reach ftpsync's).
    private func hookScript(in work: String) throws -> String {
        let script = work + "/hook.sh"
        try """
        dir=$(dirname "$0")
        cat > "$dir/$1.json"
        printf '%s\\n%s\\n%s\\n%s\\n' "$FTPSYNC_EXIT_CODE" "$FTPSYNC_CONFIG" "$FTPSYNC_COMMAND" "$FTPSYNC_HOOK" > "$dir/$1.env"
        echo "$1" >> "$dir/order.txt"
        echo "hook $1 says hello on its stdout"

        """.write(toFile: script, atomically: true, encoding: .utf8)
        return script
    }

    /// A pyftpdlib server on `address` serving one file, and a folder for the run.
    private func lab(_ label: String, address: String) throws -> (server: FTPServer, work: String) {
        let work = try makeTemporaryFolder("hooks-\(label)")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        try writeFile(served + "/a.txt", Array("a\n".utf8), modified: 1_700_000_000)
        return (try FTPServer(.pyftpdlib, root: served, address: address), work)
    }

    /// Writes `work/device.yaml`: the top-level `lines`, then the devices.
    private func config(_ work: String, top: [String], devices: String) throws -> String {
        let path = work + "/device.yaml"
        try ((["local: ./mirror"] + top).joined(separator: "\n") + "\ndevices:\n" + devices).write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func json(_ path: String) -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    private func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A device nobody answers for (connection refused).
    private let downDevice = """
          - name: gone
            host: 127.0.46.250
            port: 9
            user: tester
            password: x

        """

    @Test func theFinishHookGetsTheDocumentAndTheVariables() throws {
        let lab = try lab("finish", address: "127.0.46.1")
        defer { lab.server.stop() }
        let script = try hookScript(in: lab.work)
        let config = try config(
            lab.work, top: ["on_finish: sh \(script) finish", "on_failure: sh \(script) failure"],
            devices: lab.server.deviceYAML(name: "cam"))
        let result = try ftpsync(["pull", config, "--json", "--log", lab.work + "/ftpsync.log"])
        #expect(result.status == 0, "\(result.stderr)")
        // The hook's standard output went to our standard error, not into the JSON.
        let printed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(printed?["exit_code"] as? Int == 0)
        #expect(result.stderr.contains("hook finish says hello on its stdout"), "\(result.stderr)")
        let document = json(lab.work + "/finish.json")
        #expect(document["exit_code"] as? Int == 0, "\(document)")
        #expect(document["command"] as? String == "pull")
        let devices = document["devices"] as? [[String: Any]] ?? []
        #expect(devices.first?["name"] as? String == "cam")
        #expect((devices.first?["actions"] as? [Any])?.count == 1, "\(devices)")
        let absolute = URL(fileURLWithPath: config).standardizedFileURL.path
        #expect(lines(lab.work + "/finish.env") == ["0", absolute, "pull", "on_finish"])
        #expect(lines(lab.work + "/order.txt") == ["finish"], "on_failure ran for exit 0")
        #expect(lines(lab.work + "/ftpsync.log").contains { $0.hasSuffix("pull on_finish hook exited 0") })

        // A dry run is a preview: no hook.
        try FileManager.default.removeItem(atPath: lab.work + "/order.txt")
        let dry = try ftpsync(["pull", config, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lab.work + "/order.txt"))

        // A run stopped before its devices (an unknown --device, exit 2): the stop document.
        let stopped = try ftpsync(["pull", config, "--device", "nope"])
        #expect(stopped.status == 2, "\(stopped.stderr)")
        #expect(lines(lab.work + "/order.txt") == ["failure", "finish"])
        let stop = json(lab.work + "/failure.json")
        #expect(stop["exit_code"] as? Int == 2)
        #expect((stop["error"] as? String)?.contains("unknown device 'nope'") == true, "\(stop)")
        #expect((stop["devices"] as? [Any])?.isEmpty == true)
        #expect(lines(lab.work + "/failure.env").first == "2")
    }

    @Test func theFailureHookRunsOnlyWhenTheRunFails() throws {
        let lab = try lab("failure", address: "127.0.46.2")
        defer { lab.server.stop() }
        let script = try hookScript(in: lab.work)
        let config = try config(
            lab.work, top: ["on_failure: sh \(script) failure", "on_finish: sh \(script) finish"],
            devices: lab.server.deviceYAML(name: "cam") + "\n" + downDevice)
        let result = try ftpsync(["pull", config, "-q"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(lines(lab.work + "/order.txt") == ["failure", "finish"])
        let document = json(lab.work + "/failure.json")
        #expect(document["exit_code"] as? Int == 1)
        let statuses = (document["devices"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
        #expect(statuses == ["ok", "failed"], "\(document)")
        #expect(lines(lab.work + "/failure.env").first == "1")
        #expect(json(lab.work + "/finish.json")["exit_code"] as? Int == 1)

        // The lock held by another run (exit 3): both hooks, with the stop document.
        let fd = open(lab.work + "/mirror/.ftpsync/lock", O_RDWR | O_CREAT, 0o644)
        defer { close(fd) }
        #expect(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        let locked = try ftpsync(["pull", config, "-q"])
        #expect(locked.status == 3, "\(locked.stderr)")
        #expect(lines(lab.work + "/order.txt") == ["failure", "finish", "failure", "finish"])
        let stop = json(lab.work + "/failure.json")
        #expect(stop["exit_code"] as? Int == 3 && (stop["devices"] as? [Any])?.isEmpty == true, "\(stop)")
        #expect((stop["error"] as? String)?.contains("holds the lock") == true, "\(stop)")
    }

    /// The lock file cannot be made (`.ftpsync` is a file): exit 1 before any device, and the
    /// hooks get the stop document.
    @Test func aRunThatCannotStartStillRunsTheHooks() throws {
        let work = try makeTemporaryFolder("hooks-nostate")
        let script = try hookScript(in: work)
        try FileManager.default.createDirectory(atPath: work + "/mirror", withIntermediateDirectories: true)
        try writeFile(work + "/mirror/.ftpsync", Array("not a folder\n".utf8), modified: 1_700_000_000)
        let config = try config(work, top: ["on_failure: sh \(script) failure"], devices: downDevice)
        let result = try ftpsync(["pull", config, "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil, "\(result.stdout)")
        let stop = json(work + "/failure.json")
        #expect(stop["exit_code"] as? Int == 1 && (stop["devices"] as? [Any])?.isEmpty == true, "\(stop)")
        #expect((stop["error"] as? String)?.isEmpty == false, "\(stop)")
    }

    @Test func aFailingHookChangesNoExitCode() throws {
        let lab = try lab("exit7", address: "127.0.46.3")
        defer { lab.server.stop() }
        let good = try config(lab.work, top: ["on_finish: exit 7"], devices: lab.server.deviceYAML(name: "cam"))
        let ok = try ftpsync(["pull", good, "-q"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stderr.contains("ftpsync: on_finish hook exited 7"), "\(ok.stderr)")

        let bad = try config(
            lab.work, top: ["on_failure: exit 7"], devices: lab.server.deviceYAML(name: "cam") + "\n" + downDevice)
        let failed = try ftpsync(["pull", bad, "-q"])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(failed.stderr.contains("ftpsync: on_failure hook exited 7"), "\(failed.stderr)")
    }

    /// A signal once the run was reported (here the hook's own, to ftpsync) stops the hook and
    /// keeps the reported exit code: it was 143 while the document and the metrics said 0.
    @Test func aSignalDuringTheHookKeepsTheReportedExitCode() throws {
        let lab = try lab("signal", address: "127.0.46.6")
        defer { lab.server.stop() }
        let config = try config(
            lab.work, top: ["on_finish: kill -TERM $PPID; sleep 20"], devices: lab.server.deviceYAML(name: "cam"))
        let metrics = lab.work + "/ftpsync.prom"
        let start = Date()
        let result = try ftpsync(["pull", config, "--json", "--metrics-file", metrics])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 15)
        let document = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        #expect(document?["exit_code"] as? Int == 0, "\(result.stdout)")
        #expect(lines(metrics).contains("ftpsync_run_exit_code 0"))
        #expect(result.stderr.contains("SIGTERM received after the run ended (exit 0)"), "\(result.stderr)")
    }

    @Test func aHookPastItsBoundIsStoppedWithItsChildren() throws {
        let lab = try lab("slow", address: "127.0.46.4")
        defer { lab.server.stop() }
        let child = lab.work + "/child.pid"
        let config = try config(
            lab.work, top: ["on_finish: sleep 60 & echo $! > \(child); sleep 60"],
            devices: lab.server.deviceYAML(name: "cam"))
        let start = Date()
        let result = try ftpsync(
            ["pull", config, "-q", "--log", lab.work + "/ftpsync.log"], environment: ["FTPSYNC_HOOK_LIMITS": "1:1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(result.stderr.contains("ftpsync: on_finish hook was stopped after 1 s"), "\(result.stderr)")
        #expect(lines(lab.work + "/ftpsync.log").contains { $0.hasSuffix("on_finish hook was stopped after 1 s") })
        let pid = pid_t(lines(child).first ?? "")
        #expect(pid != nil)
        if let pid {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            #expect(stat.isEmpty || stat.split(separator: ")").last?.split(separator: " ").first == "Z", "\(stat)")
        }
    }

    @Test func aPullPurgesOldTrashKeepsRecentAndFollowsNoSymlink() throws {
        let lab = try lab("trash", address: "127.0.46.5")
        defer { lab.server.stop() }
        let config = try config(lab.work, top: ["trash_retention: 7d"], devices: lab.server.deviceYAML(name: "cam"))
        let trash = lab.work + "/mirror/.ftpsync/trash"
        let old = "20200101T000000Z"
        let stamps = DateFormatter()
        stamps.locale = Locale(identifier: "en_US_POSIX")
        stamps.timeZone = TimeZone(identifier: "UTC")
        stamps.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let recent = stamps.string(from: Date().addingTimeInterval(-86_400))
        let outside = lab.work + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try writeFile(outside + "/precious.txt", Array("keep\n".utf8), modified: 1_700_000_000)
        for folder in ["\(old)/cam/DCIM", "\(recent)/cam", "not-a-stamp"] {
            try FileManager.default.createDirectory(atPath: "\(trash)/\(folder)", withIntermediateDirectories: true)
        }
        try writeFile("\(trash)/\(old)/cam/DCIM/x.jpg", Array("x".utf8), modified: 1_700_000_000)
        try writeFile("\(trash)/\(recent)/cam/y.jpg", Array("y".utf8), modified: 1_700_000_000)
        try FileManager.default.createSymbolicLink(atPath: "\(trash)/\(old)/cam/link", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(
            atPath: "\(trash)/\(old)/cam/DCIM/file-link", withDestinationPath: outside + "/precious.txt")

        let result = try ftpsync(["pull", config, "-q", "--log", lab.work + "/ftpsync.log"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("ftpsync: trash:"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(trash)/\(old)"))
        #expect(FileManager.default.fileExists(atPath: "\(trash)/\(recent)/cam/y.jpg"))
        #expect(FileManager.default.fileExists(atPath: "\(trash)/not-a-stamp"))
        #expect(FileManager.default.contents(atPath: outside + "/precious.txt") == Data("keep\n".utf8))
        let log = lines(lab.work + "/ftpsync.log")
        #expect(log.contains { $0.contains("pull trash: removed 1 folder(s) older than trash_retention") }, "\(log)")
        #expect(log.contains { $0.hasSuffix("left alone (not a run's UTC stamp): not-a-stamp") }, "\(log)")

        // A dry run purges nothing.
        try FileManager.default.createDirectory(atPath: "\(trash)/\(old)", withIntermediateDirectories: true)
        #expect(try ftpsync(["pull", config, "--dry-run", "-q"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: "\(trash)/\(old)"))
    }
}
