// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 9's progress display against a throttled pyftpdlib: live under a pseudo-terminal
/// (`script` from util-linux), plain lines into a pipe, nothing with `--quiet`.
/// Addresses 127.0.0.81–127.0.0.85.
@Suite(.serialized) struct ProgressTests {
    /// Bytes per second the throttled servers move per data connection.
    static let throttle = 150_000

    /// A served folder with one big file and two small ones, a throttled server, and a config.
    struct Setup {
        var work: String
        var server: FTPServer
        var config: String
        var mirror: String
    }

    private func setup(_ label: String, address: String, big: Int = 600_000) throws -> Setup {
        let work = try makeTemporaryFolder("progress-\(label)")
        let served = work + "/served"
        let now = Date().timeIntervalSince1970.rounded(.down) - 86_400
        try writeFile(served + "/video/clip one.mp4", pseudoRandomBytes(big, seed: 81), modified: now)
        try writeFile(served + "/notes.txt", Array("progress\n".utf8), modified: now)
        try writeFile(served + "/照片/小.jpg", pseudoRandomBytes(3000, seed: 82), modified: now)
        let server = try FTPServer(
            .pyftpdlib, root: served, address: address, options: ["--throttle", String(Self.throttle)])
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        return Setup(work: work, server: server, config: config, mirror: work + "/mirror")
    }

    /// Runs `ftpsync ARGUMENTS` on a pseudo-terminal and returns what the terminal received.
    private func onTerminal(_ arguments: [String]) throws -> ProcessResult {
        let command = ([ftpsyncBinary] + arguments).map(shellQuoted).joined(separator: " ")
        return try run("/usr/bin/script", ["-qfec", command, "/dev/null"], environment: ["TERM": "xterm"])
    }

    /// Runs `SHELL-COMMAND` with `sh -c`, the binary as `$0` and the config as `$1`.
    private func shell(_ command: String, config: String) throws -> ProcessResult {
        try run("/bin/sh", ["-c", command, ftpsyncBinary, config])
    }

    @Test func aTerminalShowsPercentRateAndETARedrawnInPlace() throws {
        let lab = try setup("tty", address: "127.0.0.81")
        defer { lab.server.stop() }
        let pulled = try onTerminal(["pull", lab.config])
        #expect(pulled.status == 0, "\(pulled.stdout)")
        let screen = pulled.stdout
        // Redrawn in place: carriage returns, cursor up, erase to the end of the screen.
        #expect(screen.contains("\r") && screen.contains("\u{1B}[J"))
        // A device line with a percentage under way, a measured rate and an ETA.
        let device =
            /cam  [0-9]\/3 files  [0-9.]+ (B|KiB|MiB) of 588\.9 KiB  ([1-9]|[1-9][0-9])%  [0-9.]+ (KiB|MiB)\/s  ETA [0-9]+:[0-9]{2}/
        #expect(screen.contains(device), "\(screen.debugDescription)")
        // A line for the transfer under way, with its own percentage and rate.
        let transfer = /↓ +[1-9][0-9]?%  +[0-9.]+ (B|KiB) of 585\.9 KiB +[0-9.]+ (KiB|MiB)\/s  video\/clip one\.mp4/
        #expect(screen.contains(transfer), "\(screen.debugDescription)")
        // The display is erased before the report, which ends the output.
        #expect(screen.contains("cam: ok"))
        let report = screen.components(separatedBy: "cam: ok").last ?? ""
        #expect(!report.contains("\u{1B}"), "\(report.debugDescription)")
        #expect(FileManager.default.fileExists(atPath: lab.mirror + "/cam/video/clip one.mp4"))

        // An upload shows the same way; `-v` lines go above the display, the password masked.
        try writeFile(lab.mirror + "/cam/upload.bin", pseudoRandomBytes(450_000, seed: 83), modified: 1_700_000_000)
        let pushed = try onTerminal(["push", lab.config, "-v"])
        #expect(pushed.status == 0, "\(pushed.stdout)")
        // (The kernel's socket buffers take much of an upload at once: any percentage will do.)
        let upload = /↑ +[0-9]+%  +[0-9.]+ (B|KiB) of 439\.5 KiB +[0-9.-]+ (B|KiB|MiB)\/s  upload\.bin/
        #expect(pushed.stdout.contains(upload), "\(pushed.stdout.debugDescription)")
        #expect(pushed.stdout.contains("PASS ****") && !pushed.stdout.contains(lab.server.password))
        // Every verbose line starts a line: after a newline, or where the display was erased.
        // (The terminal turns each newline into CR LF, one Character in Swift.)
        let text = pushed.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        let verbose = text.matches(of: #/cam: [<>] /#).count
        let misplaced = text.matches(of: #/[^\n]{0,20}[^\n\]J]cam: [<>] .{0,20}/#).map { String($0.output) }
        #expect(verbose > 10 && misplaced.isEmpty, "\(misplaced)")
    }

    @Test func aPipeGetsOneLinePerFinishedActionAndNoControlCodes() throws {
        let lab = try setup("pipe", address: "127.0.0.82")
        defer { lab.server.stop() }
        // Standard error alone, through a real pipe.
        let errors = try shell("\"$0\" pull \"$1\" 2>&1 >/dev/null | cat", config: lab.config)
        #expect(errors.status == 0, "\(errors.stderr)")
        let lines = errors.stdout.split(separator: "\n").map(String.init)
        #expect(!errors.stdout.contains("\r") && !errors.stdout.contains("\u{1B}"), "\(errors.stdout.debugDescription)")
        #expect(
            lines.sorted() == [
                "cam: download      notes.txt (9 B)", "cam: download      video/clip one.mp4 (585.9 KiB)",
                "cam: download      照片/小.jpg (2.9 KiB)", "cam: mkdir_local   video", "cam: mkdir_local   照片",
            ], "\(lines)")

        // Both streams into one pipe: still no control codes; the report follows the lines.
        try writeFile(lab.server.root + "/notes.txt", Array("changed\n".utf8), modified: 1_700_000_000)
        let both = try shell("\"$0\" pull \"$1\" --progress 2>&1 | cat", config: lab.config)
        #expect(both.status == 0)
        #expect(!both.stdout.contains("\r") && !both.stdout.contains("\u{1B}"))
        #expect(both.stdout.hasPrefix("cam: download      notes.txt (8 B)\ncam: ok\n"), "\(both.stdout)")

        // --no-progress: the report only.
        try writeFile(lab.server.root + "/notes.txt", Array("again\n".utf8), modified: 1_700_000_100)
        let plain = try shell("\"$0\" pull \"$1\" --no-progress 2>&1 >/dev/null | cat", config: lab.config)
        #expect(plain.status == 0 && plain.stdout.isEmpty, "\(plain.stdout)")
    }

    @Test func quietPrintsNothingOnSuccessEvenOnATerminal() throws {
        let lab = try setup("quiet", address: "127.0.0.83", big: 200_000)
        defer { lab.server.stop() }
        let onPipe = try shell("\"$0\" pull \"$1\" -q 2>&1 | cat", config: lab.config)
        #expect(onPipe.status == 0 && onPipe.stdout.isEmpty, "\(onPipe.stdout)")
        try writeFile(lab.server.root + "/notes.txt", Array("changed\n".utf8), modified: 1_700_000_000)
        let terminal = try onTerminal(["pull", lab.config, "--quiet", "--progress"])
        #expect(terminal.status == 0 && terminal.stdout.isEmpty, "\(terminal.stdout.debugDescription)")
        #expect(try String(contentsOfFile: lab.mirror + "/cam/notes.txt", encoding: .utf8) == "changed\n")
    }
}

/// `text` quoted for a POSIX shell.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
