// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// The command line on swift-argument-parser, run as a user runs it: `--progress` into pipes
/// against a lab server, usage errors (one line, exit 2), completion scripts, `--version`.
/// Addresses 127.0.17.1–127.0.17.9.
@Suite struct CommandLineUseTests {
    @Test func progressIntoPipesShowsALinePerActionAndTheReportStaysWhole() throws {
        let work = try makeTemporaryFolder("cli-progress")
        let served = work + "/served"
        try writeFile(served + "/a.txt", Array("alpha\n".utf8), modified: 1_700_000_000)
        try writeFile(served + "/deep/b.bin", pseudoRandomBytes(70_000, seed: 17), modified: 1_700_000_000)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.17.1")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)

        // Standard output and standard error are both pipes here: --progress shows the lines.
        let pulled = try ftpsync(["pull", config, "--progress", "--json"])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let lines = pulled.stderr.split(separator: "\n").map(String.init).sorted()
        #expect(
            lines == [
                "cam: download      a.txt (6 B)", "cam: download      deep/b.bin (68.4 KiB)", "cam: mkdir_local   deep",
            ],
            "\(pulled.stderr.debugDescription)")
        #expect(!pulled.stderr.contains("\r") && !pulled.stderr.contains("\u{1B}"))
        let document = try JSONSerialization.jsonObject(with: Data(pulled.stdout.utf8)) as? [String: Any]
        #expect((document?["devices"] as? [Any])?.count == 1, "\(pulled.stdout)")

        // --no-progress wins over --progress; -q prints nothing at all.
        try writeFile(served + "/a.txt", Array("changed\n".utf8), modified: 1_700_000_100)
        let quiet = try ftpsync(["pull", config, "--progress", "--no-progress"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout.contains("cam: ok"), "\(quiet.stdout)")
    }

    /// Output nobody reads is dropped, never fatal: with standard output or error closed
    /// (`>&-`) or a reader that goes away (`| head -c 1`), a pull runs to its end, records what it
    /// did and exits 0 (it died of SIGILL, exit 132, in Foundation's FileHandle before).
    @Test func closedOrBrokenOutputNeverStopsARun() throws {
        let work = try makeTemporaryFolder("cli-closed-output")
        let served = work + "/served"
        for index in 0..<40 {
            try writeFile(served + "/f\(index).txt", Array("file \(index)\n".utf8), modified: 1_700_000_000)
        }
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.17.2")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        let quoted = "'\(ftpsyncBinary)' "
        let script = [
            quoted + "--help >&-; echo help=$?",
            quoted + "pull '\(config)' --progress -v 2>&1 | head -c 1 >/dev/null; echo pull=${PIPESTATUS[0]}",
            quoted + "status '\(config)' --json >&- 2>&-; echo status=$?",
            quoted + "pull '\(config)' --json >&- 2>&-; echo again=$?",
        ].joined(separator: "\n")
        let result = try run("/bin/bash", ["-c", script])
        #expect(result.stdout == "help=0\npull=0\nstatus=0\nagain=0\n", "\(result.stdout)\(result.stderr)")
        for index in 0..<40 {
            let data = FileManager.default.contents(atPath: work + "/mirror/cam/f\(index).txt")
            #expect(data == Data("file \(index)\n".utf8))
        }
    }

    @Test(arguments: [
        (["pull", "--dry-rnu"], "ftpsync: unknown option '--dry-rnu'; did you mean '--dry-run'?"),
        (["psuh"], "ftpsync: unknown command 'psuh'; did you mean 'push'? (see ftpsync --help)"),
        (
            ["push", "--jobs", "none"],
            "ftpsync: the value 'none' is invalid for '--jobs <N>': expected a number of devices from 1 to 256"
                + " (see ftpsync help push)"
        ),
        (["status", "a.yaml", "b.yaml"], "ftpsync: unexpected argument 'b.yaml' (see ftpsync help status)"),
        // A negative value is named as invalid, not as missing.
        (
            ["pull", "--max-transfer", "-5"],
            "ftpsync: the value '-5' is invalid for '--max-transfer <SIZE>': expected a size of at least 1 byte"
                + " such as 500M, 2G or 1.5T (see ftpsync help pull)"
        ),
        (
            ["pull", "--bwlimit", "-1"],
            "ftpsync: the value '-1' is invalid for '--bwlimit <RATE>': expected bytes per second such as 512k,"
                + " 2M or 1.5M, or off (see ftpsync help pull)"
        ),
    ])
    func usageErrorsAreOneLineAndExitTwo(arguments: [String], line: String) throws {
        let result = try ftpsync(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == line + "\n", "\(result.stderr.debugDescription)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsForTheThreeShells(shell: String) throws {
        let result = try ftpsync(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ftpsync") && result.stdout.contains("on-conflict"))
        #expect(result.stdout.contains("keep-both"), "\(shell): the values of --on-conflict complete")
    }

    @Test func versionAndHelp() throws {
        let version = try ftpsync(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("ftpsync 0."), "\(version.stdout)")
        let overview = try ftpsync(["--help"])
        #expect(overview.status == 0 && overview.stdout.contains("--generate-completion-script"))
        let nothing = try ftpsync([])
        #expect(nothing.status == 2 && nothing.stderr.contains("usage: ftpsync COMMAND"))
    }
}
