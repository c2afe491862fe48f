// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import Foundation
import SyncCore
import Testing

@testable import FTPSyncCLI

/// The command line on swift-argument-parser: typed options per command, one clear line and
/// exit 2 for every mistake, typo suggestions, completion scripts.
@Suite struct CommandLineTests {
    private func pull(_ words: [String]) throws -> SyncOptions {
        let command = try FTPSyncCLI.parse(["pull"] + words)
        return try #require(command as? PullCommand).options
    }

    /// The usage line `words` are refused with.
    private func refusal(_ words: [String]) -> String? {
        do {
            _ = try FTPSyncCLI.parse(words)
            return nil
        } catch let error as UsageError {
            return error.message
        } catch {
            return "\(type(of: error)): \(error)"
        }
    }

    @Test func longShortRepeatedAndInlineValues() throws {
        let options = try pull(["cfg.yaml", "-n", "--device", "a", "--device=b", "--json", "-j", "8"])
        #expect(options.configFile.config == "cfg.yaml")
        #expect(options.dryRun && options.report.json && !options.quiet && !options.delete)
        #expect(options.selection.names == ["a", "b"])
        #expect(options.jobs == 8)
    }

    @Test func defaultsWhenNothingIsGiven() throws {
        let options = try pull([])
        #expect(options.configFile.config == nil && options.selection.names.isEmpty)
        #expect(options.maxDeleteLimit == 50 && options.parallel == nil && options.log == nil)
        #expect(options.jobs == JobsOption.defaultJobs && options.onConflict == nil)
        #expect(!options.progress && !options.noProgress && !options.acceptNewIdentity && !options.report.verbose)
    }

    @Test func everyOptionOfPullAndPushReachesItsField() throws {
        let words = [
            "--delete", "--max-delete", "-1", "--parallel", "3", "--log", "run.log", "-q", "-v", "--progress",
            "--no-progress", "--accept-new-identity", "--on-conflict", "newer-wins", "c.yaml",
        ]
        for command in ["pull", "push"] {
            let parsed = try FTPSyncCLI.parse([command] + words)
            let options = try #require((parsed as? PullCommand)?.options ?? (parsed as? PushCommand)?.options)
            #expect(options.delete && options.maxDeleteLimit == nil && options.parallel == 3)
            #expect(options.log == "run.log" && options.quiet && options.report.verbose)
            #expect(options.progress && options.noProgress && options.acceptNewIdentity)
            #expect(options.onConflict == .newerWins && options.configFile.config == "c.yaml")
            let run = options.runOptions(direction: .push)
            #expect(run.deleteExtraneous && run.maxDelete == nil && run.onConflict == .newerWins)
            #expect(run.connections == 3 && run.acceptNewIdentity && run.direction == .push)
        }
    }

    @Test func theOtherCommandsTakeTheirOptions() throws {
        let check = try #require(
            try FTPSyncCLI.parse(["check", "c.yaml", "--device", "cam", "--json", "-v"]) as? CheckCommand)
        #expect(check.configFile.config == "c.yaml" && check.selection.names == ["cam"])
        #expect(check.report.json && check.report.verbose && check.jobsOption.jobs == 4)
        let ls = try #require(try FTPSyncCLI.parse(["ls", "c.yaml", "cam:/DCIM", "--json"]) as? LsCommand)
        #expect(ls.positionals == ["c.yaml", "cam:/DCIM"] && ls.report.json && !ls.report.verbose)
        let status = try #require(try FTPSyncCLI.parse(["status", "--json"]) as? StatusCommand)
        #expect(status.json && status.configFile.config == nil)
    }

    @Test(arguments: [
        (["--on-conflict", "keep-both"], ConflictPolicy.keepBoth), (["--on-conflict=local-wins"], .localWins),
        (["--on-conflict", "Remote-Wins"], .remoteWins), (["--on-conflict", "report"], .report),
    ])
    func conflictValuesBecomeThePolicy(words: [String], policy: ConflictPolicy) throws {
        let options = try pull(words)
        for direction in [SyncDirection.pull, .push] {
            #expect(options.runOptions(direction: direction).onConflict == policy)
        }
    }

    /// `--bwlimit off` and `--bwlimit 0` mean no limit, as the `bwlimit` key reads them (found
    /// by a breaker: the key took 0, the option refused it); `k` is 1,024 bytes, `kb` too.
    @Test(
        arguments: [
            (["--bwlimit", "0"], nil), (["--bwlimit", "off"], nil), (["--bwlimit", "OFF"], nil),
            (["--bwlimit", "200k"], 204_800), (["--bwlimit", "200kb"], 204_800), (["--bwlimit=1.5M"], 1_572_864),
        ] as [([String], Int64?)])
    func bwlimitValuesBecomeTheRunsCap(words: [String], rate: Int64?) throws {
        #expect(try pull(words).runOptions(direction: .pull).bwlimit == rate)
    }

    /// The device's `on_conflict`, else the direction's default, decides then (`RunOptionsTests`).
    @Test func withoutOnConflictTheRunLeavesItToTheDevice() throws {
        let options = try pull([])
        #expect(options.runOptions(direction: .pull).onConflict == nil)
        #expect(options.runOptions(direction: .push).onConflict == nil)
    }

    @Test(arguments: [
        (["pull", "--dry-rnu"], "unknown option '--dry-rnu'; did you mean '--dry-run'?"),
        (["push", "--max-delet", "3"], "unknown option '--max-delet'; did you mean '--max-delete'?"),
        (["status", "--jsn"], "unknown option '--jsn'; did you mean '--json'?"),
        (["pull", "-nq", "--bogus"], "unknown option '--bogus'"),
        (["pul"], "unknown command 'pul'; did you mean 'pull'? (see ftpsync --help)"),
        (["stauts"], "unknown command 'stauts'; did you mean 'status'? (see ftpsync --help)"),
        (["frobnicate"], "unknown command 'frobnicate' (see ftpsync --help)"),
        (["pull", "--device"], "missing value for '--device <NAME>' (see ftpsync help pull)"),
        (
            ["pull", "--json=yes"],
            "the option '--json' does not take any value, but 'yes' was specified (see ftpsync help pull)"
        ),
        (
            ["pull", "--max-delete", "x"],
            "the value 'x' is invalid for '--max-delete <N>': expected a whole number of files, or -1 for no limit"
                + " (see ftpsync help pull)"
        ),
        (
            ["push", "--max-delete", "-2"],
            "the value '-2' is invalid for '--max-delete <N>': expected a whole number of files, or -1 for no limit"
                + " (see ftpsync help push)"
        ),
        (
            ["pull", "--parallel", "0"],
            "the value '0' is invalid for '--parallel <N>': expected a number of connections from 1 to 16"
                + " (see ftpsync help pull)"
        ),
        (
            ["pull", "--parallel", "17"],
            "the value '17' is invalid for '--parallel <N>': expected a number of connections from 1 to 16"
                + " (see ftpsync help pull)"
        ),
        (
            ["check", "-j", "257"],
            "the value '257' is invalid for '-j <N>': expected a number of devices from 1 to 256"
                + " (see ftpsync help check)"
        ),
        (
            ["pull", "--on-conflict", "mine"],
            "the value 'mine' is invalid for '--on-conflict <POLICY>': expected one of keep-both, local-wins,"
                + " remote-wins, newer-wins, report (see ftpsync help pull)"
        ),
        (
            // Found by a breaker (issue 19): an empty pattern ran (exit 1) instead of a usage error.
            ["push", "--exclude", ""],
            "the value '' is invalid for '--exclude <GLOB>': expected a glob pattern such as '*.tmp' or 'DCIM/**',"
                + " not an empty one (see ftpsync help push)"
        ),
        (
            // Found by a breaker (issue 19): `/` was called empty, `./` ran and matched nothing.
            ["pull", "--include", "/"],
            "the value '/' is invalid for '--include <GLOB>': expected a glob pattern such as '*.tmp' or 'DCIM/**',"
                + " not one that names no path ('/') (see ftpsync help pull)"
        ),
        (
            ["pull", "--exclude", "./"],
            "the value './' is invalid for '--exclude <GLOB>': expected a glob pattern such as '*.tmp' or"
                + " 'DCIM/**', not one that names no path ('./') (see ftpsync help pull)"
        ),
        (
            ["pull", "--bwlimit", "fast"],
            "the value 'fast' is invalid for '--bwlimit <RATE>': expected bytes per second such as 512k, 2M or"
                + " 1.5M, or off (see ftpsync help pull)"
        ),
        (
            // Found by a breaker: 0.4 bytes per second rounded to 0, which means no cap at all.
            ["pull", "--bwlimit", "0.4"],
            "the value '0.4' is invalid for '--bwlimit <RATE>': expected at least 1 byte per second, or off (or 0)"
                + " for no cap (see ftpsync help pull)"
        ),
        (["pull", "a.yaml", "b.yaml"], "unexpected argument 'b.yaml' (see ftpsync help pull)"),
        (["ls"], "ls needs DEVICE[:PATH] (see ftpsync help ls)"),
        (["ls", "a", "b", "c"], "ls takes [CONFIG] DEVICE[:PATH], got: a b c (see ftpsync help ls)"),
        (["--json"], "unknown option '--json'"),
    ])
    func mistakesAreOneClearLine(words: [String], message: String) {
        #expect(refusal(words) == message)
        #expect(!(refusal(words) ?? "").contains("\n"))
    }

    @Test(arguments: [["pull", "--dry-rnu"], ["pul"], ["pull", "--max-delete", "x"], ["ls"], ["status", "a", "b"]])
    func mistakesExitTwo(words: [String]) {
        #expect(FTPSyncCLI.main(["ftpsync"] + words) == ExitCode.usage.rawValue)
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try pull(["--", "-weird.yaml"]).configFile.config == "-weird.yaml")
        #expect(try pull(["--", "--dry-rnu"]).configFile.config == "--dry-rnu")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameEveryCommandAndOption(shell: String) throws {
        var text = ""
        do {
            _ = try FTPSyncCLI.parse(["--generate-completion-script", shell])
            Issue.record("no script")
        } catch let finished as ParsedToTheEnd {
            text = finished.text
        }
        #expect(text.count > 1000)
        for command in ["pull", "push", "ls", "check", "status", "verify"] {
            #expect(text.contains(command), "\(shell): \(command)")
        }
        for option in ["dry-run", "max-delete", "on-conflict", "accept-new-identity", "no-progress"] {
            #expect(text.contains(option), "\(shell): \(option)")
        }
        #expect(FTPSyncCLI.main(["ftpsync", "--generate-completion-script", shell]) == 0)
    }

    @Test func anUnknownShellIsAUsageError() {
        #expect(FTPSyncCLI.main(["ftpsync", "--generate-completion-script", "tcsh"]) == ExitCode.usage.rawValue)
    }

    @Test func versionIsPrintedWithExitZero() throws {
        do {
            _ = try FTPSyncCLI.parse(["--version"])
            Issue.record("no version")
        } catch let finished as ParsedToTheEnd {
            #expect(finished.text == "ftpsync \(ftpsyncVersion)")
        }
    }

    @Test func configPathFallsBackToEnvironmentThenDeviceYAML() {
        #expect(resolveConfigPath("x.yaml", environment: ["FTPSYNC_CONFIG": "y"]) == "x.yaml")
        #expect(resolveConfigPath(nil, environment: ["FTPSYNC_CONFIG": "y.yaml"]) == "y.yaml")
        #expect(resolveConfigPath(nil, environment: [:]) == "device.yaml")
    }
}
