// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import Testing

@testable import FTPSyncCLI

/// `--log-format json`: every line of the log is one JSON object with the same event as the
/// text line (issue 18), secrets masked and controls escaped as in every other output.
@Suite struct JSONLogTests {
    private static let keys: Set<String> = [
        "time", "level", "event", "run_id", "pid", "command", "dry_run", "device", "path", "bytes", "error",
        "message",
    ]

    /// One event of every kind, with the text line each writes.
    private static let events: [(LogEvent, String)] = {
        var totals = RunStats()
        totals.filesTransferred = 1
        totals.bytesTransferred = 1_048_576
        totals.failed = 1
        let done = ActionReport(kind: .download, path: "2024/a.jpg", bytes: 1_048_576, offset: 512, status: .done)
        let failed = ActionReport(kind: .upload, path: "b.jpg", bytes: 7, status: .failed, error: "550 denied")
        let moved = ActionReport(kind: .renameLocal, path: "x", to: "y", status: .planned)
        return [
            (
                LogEvent(command: "pull", dryRun: false, detail: .action(device: "cam", report: done)),
                "pull cam: download 2024/a.jpg 1048576 bytes from offset 512 done"
            ),
            (
                LogEvent(command: "push", dryRun: false, detail: .action(device: "cam", report: failed)),
                "push cam: upload b.jpg 7 bytes failed: 550 denied"
            ),
            (
                LogEvent(command: "pull", dryRun: true, detail: .action(device: "cam", report: moved)),
                "pull --dry-run cam: rename_local x -> y planned"
            ),
            (
                LogEvent(
                    command: "pull", dryRun: false,
                    detail: .deviceError(device: "back", status: .failed, error: "cannot connect")),
                "pull back: failed: cannot connect"
            ),
            (
                LogEvent(
                    command: "pull", dryRun: false,
                    detail: .skipped(device: "cam", entry: SkippedEntry(path: "odd", reason: "unsafe name"))),
                "cam: skipped odd: unsafe name"
            ),
            (
                LogEvent(
                    command: "pull", dryRun: false,
                    detail: .runFinished(devices: 2, totals: totals, seconds: 1.25, exitCode: 1)),
                "pull summary: 2 device(s), done 1 files (1048576 bytes), 0 renamed, 0 deleted, 1 failed, 1.2 s, exit 1"
            ),
            (
                LogEvent(command: "push", dryRun: false, detail: .configError("fleet.yaml:3: unknown key")),
                "push: fleet.yaml:3: unknown key"
            ),
            (
                LogEvent(command: "pull", dryRun: false, detail: .locked("another ftpsync run (pid 9) holds /data")),
                "another ftpsync run (pid 9) holds /data"
            ),
            (
                LogEvent(command: "pull", dryRun: false, detail: .startFailed("cannot open the state: disk I/O error")),
                "pull: cannot open the state: disk I/O error"
            ),
            (
                LogEvent(
                    command: "pull", dryRun: false,
                    detail: .hook(name: "on_finish", outcome: "exited 0", succeeded: true)),
                "pull on_finish hook exited 0"
            ),
            (
                LogEvent(
                    command: "pull", dryRun: false,
                    detail: .hook(name: "on_failure", outcome: "was stopped after 60 s", succeeded: false)),
                "pull on_failure hook was stopped after 60 s"
            ),
            (
                LogEvent(
                    command: "pull", dryRun: false,
                    detail: .trash("trash: removed 1 folder(s) older than trash_retention (3 entries)", .purged)),
                "pull trash: removed 1 folder(s) older than trash_retention (3 entries)"
            ),
            (
                LogEvent(command: "pull", dryRun: false, detail: .trash("trash: not removed: x: EACCES", .failed)),
                "pull trash: not removed: x: EACCES"
            ),
        ]
    }()

    /// The lines `write` gives `events` in `format`, and the log's run id.
    private func lines(
        _ events: [LogEvent], format: LogFormat, filter: OutputFilter = OutputFilter()
    ) throws -> (lines: [String], runID: String) {
        let path = NSTemporaryDirectory() + "ftpsync-jsonlog-\(UUID().uuidString)"
        defer { unlink(path) }
        let log = try LogFile(path: path, filter: filter, format: format)
        for event in events { log.write(event, at: Date(timeIntervalSince1970: 1_796_180_645)) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        return (text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init), log.runID)
    }

    private func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    /// A named pipe nobody reads is refused at once (the run waited in open() for ever), and a
    /// line the disk cannot take is noticed (it was lost without a word).
    @Test func aLogThatCannotTakeLinesIsSaid() throws {
        let fifo = NSTemporaryDirectory() + "ftpsync-log-fifo-\(UUID().uuidString)"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(throws: UsageError.self) { try LogFile(path: fifo) }
        let full = try LogFile(path: "/dev/full")
        #expect(!full.linesLost)
        full.write(Self.events[0].0)
        #expect(full.linesLost)
    }

    @Test func theTextLinesStayAsTheyWere() throws {
        let written = try lines(Self.events.map(\.0), format: .text).lines
        let pid = getpid()
        #expect(written == Self.events.map { "2026-12-02T03:04:05Z ftpsync[\(pid)] \($0.1)" })
    }

    @Test func everyEventIsOneObjectWithTheTextLinesMessage() throws {
        let (written, runID) = try lines(Self.events.map(\.0), format: .json)
        #expect(written.count == Self.events.count)
        #expect(runID.wholeMatch(of: /[0-9a-f]{16}/) != nil)
        let objects = try written.map(object)
        for (object, (event, text)) in zip(objects, Self.events) {
            #expect(Self.keys.isSubset(of: Set(object.keys)), "\(object.keys.sorted())")
            #expect(object["time"] as? String == "2026-12-02T03:04:05Z")
            #expect(object["run_id"] as? String == runID && object["pid"] as? Int == Int(getpid()))
            #expect(object["message"] as? String == text)
            #expect(object["event"] as? String == event.name && object["level"] as? String == event.level.rawValue)
            #expect(object["command"] as? String == event.command && object["dry_run"] as? Bool == event.dryRun)
        }
        #expect(
            objects.map { $0["event"] as? String ?? "?" } == [
                "action_done", "action_failed", "action_planned", "device_error", "skipped", "run_finished",
                "config_error", "locked", "start_failed", "hook_done", "hook_failed", "trash_purged", "trash_failed",
            ])
        #expect(
            objects.map { $0["level"] as? String ?? "?" } == [
                "info", "error", "info", "error", "warning", "error", "error", "warning", "error", "info", "error",
                "info", "warning",
            ])
        // Absent values are null, not missing.
        #expect(objects[5]["device"] is NSNull && objects[5]["path"] is NSNull && objects[5]["error"] is NSNull)
        #expect(objects[2]["bytes"] is NSNull && objects[3]["bytes"] is NSNull && objects[6]["device"] is NSNull)
        // The fields of each kind.
        #expect(objects[0]["device"] as? String == "cam" && objects[0]["path"] as? String == "2024/a.jpg")
        #expect(objects[0]["bytes"] as? Int == 1_048_576 && objects[0]["offset"] as? Int == 512)
        #expect(objects[0]["kind"] as? String == "download" && objects[0]["status"] as? String == "done")
        #expect(objects[1]["error"] as? String == "550 denied" && objects[2]["to"] as? String == "y")
        #expect(objects[3]["status"] as? String == "failed" && objects[3]["error"] as? String == "cannot connect")
        #expect(objects[4]["path"] as? String == "odd" && objects[4]["error"] as? String == "unsafe name")
        #expect(objects[5]["bytes"] as? Int == 1_048_576 && objects[5]["exit_code"] as? Int == 1)
        #expect(objects[5]["devices"] as? Int == 2 && objects[5]["files"] as? Int == 1)
        #expect(objects[5]["failed"] as? Int == 1 && objects[5]["seconds"] as? Double == 1.25)
        #expect(objects[6]["error"] as? String == "fleet.yaml:3: unknown key")
        #expect(objects[8]["error"] as? String == "cannot open the state: disk I/O error")
        #expect(objects[9]["error"] is NSNull && objects[10]["error"] as? String == "was stopped after 60 s")
        #expect(objects[11]["error"] is NSNull && objects[12]["error"] as? String == "trash: not removed: x: EACCES")
    }

    @Test func namesWithLineBreaksQuotesControlsAndUndecodableBytes() throws {
        // U+F7FF stands for the byte 0xff that no encoding could decode (NameCodec).
        let name = "a\nb\"c\\d\u{1B}[2J\u{7F}\u{9B}e\u{F7FF}.jpg"
        let report = ActionReport(kind: .download, path: name, bytes: 3, status: .failed, error: "550 \"\(name)\"")
        let event = LogEvent(command: "pull", dryRun: false, detail: .action(device: "c\u{1B}am", report: report))
        let line = try #require(try lines([event], format: .json).lines.first)
        // One line: nothing raw that moves a cursor or breaks it.
        #expect(!line.unicodeScalars.contains { SafeText.isControl($0) })
        let object = try object(line)
        #expect(object["path"] as? String == "a\nb\"c\\d\u{1B}[2J\u{7F}\u{9B}e\\xff.jpg")
        #expect(object["device"] as? String == "c\u{1B}am")
        #expect(object["error"] as? String == "550 \"a\nb\"c\\d\u{1B}[2J\u{7F}\u{9B}e\\xff.jpg\"")
        // The message is the text line's, byte for byte.
        let text = try #require(try lines([event], format: .text).lines.first)
        #expect(text.hasSuffix("] " + (object["message"] as? String ?? "?")))
        #expect(text.contains("c\\x1bam: download a b\"c\\d\\x1b[2J\\x7f\\u{9b}e\\xff.jpg"))
    }

    @Test func secretsAreMaskedInEveryStringValue() throws {
        let secrets = ["Pa\"ss\\w0rd-18", "null-but-longer"]
        let filter = OutputFilter()
        filter.protect(secrets)
        let events = [
            LogEvent(
                command: "pull", dryRun: false,
                detail: .deviceError(device: "cam", status: .failed, error: "530 user x pass Pa\"ss\\w0rd-18")),
            LogEvent(
                command: "pull", dryRun: false,
                detail: .skipped(device: "cam", entry: SkippedEntry(path: "null-but-longer", reason: "odd"))),
        ]
        let written = try lines(events, format: .json, filter: filter).lines
        for line in written {
            let object = try object(line)
            for secret in secrets {
                #expect(!line.contains(secret) && !line.contains(OutputFilter.insideJSONString(secret)), "\(line)")
            }
            #expect((object["message"] as? String)?.contains("****") == true)
        }
        #expect(try object(written[0])["error"] as? String == "530 user x pass ****")
        #expect(try object(written[1])["path"] as? String == "****")
    }

    @Test func theFormatChangesOnceTheConfigurationIsRead() throws {
        let path = NSTemporaryDirectory() + "ftpsync-jsonlog-\(UUID().uuidString)"
        defer { unlink(path) }
        let log = try LogFile(path: path)
        let event = LogEvent(command: "pull", dryRun: false, detail: .locked("held"))
        log.write(event)
        log.use(.json)
        log.write(event)
        let written = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(written.count == 2 && written[0].hasSuffix("] held"))
        #expect(try object(written[1])["event"] as? String == "locked")
    }

    @Test func theOptionOverridesTheKeyAndTakesOnlyItsValues() throws {
        for command in ["pull", "push"] {
            let parsed = try FTPSyncCLI.parse([command, "c.yaml", "--log", "-", "--log-format", "JSON"])
            let options = try #require((parsed as? PullCommand)?.options ?? (parsed as? PushCommand)?.options)
            #expect(options.log == "-" && options.logFormat == .json)
            let plain = try FTPSyncCLI.parse([command, "--log-format=text"])
            #expect(((plain as? PullCommand)?.options ?? (plain as? PushCommand)?.options)?.logFormat == .text)
        }
        #expect(throws: UsageError.self) { try FTPSyncCLI.parse(["pull", "--log-format", "xml"]) }
    }
}
