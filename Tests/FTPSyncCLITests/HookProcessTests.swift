// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncConfig
import Testing

@testable import FTPSyncCLI

/// Issue 18: a hook is `/bin/sh -c COMMAND` in a process group of its own, fed the document on
/// its standard input, bounded in time; how it ends is told, never more.
@Suite struct HookProcessTests {
    private let short = HookProcess.Limits(seconds: 0.5, grace: 0.5)

    init() {
        // As `FTPSyncCLI.main` does: a hook that stops reading is an EPIPE, not our death.
        signal(SIGPIPE, SIG_IGN)
    }

    private func folder() throws -> String {
        var template = Array("/tmp/hook-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        return String(cString: made)
    }

    /// Seconds `body` takes.
    private func timed(_ body: () -> Void) -> Double {
        let start = Date()
        body()
        return Date().timeIntervalSince(start)
    }

    /// True when `pid` is gone (or a zombie waiting for its new parent).
    /// True once `pid` has ended (gone, or a zombie not reaped yet), within 5 seconds: a
    /// signalled process dies when it is next scheduled, which on a loaded machine is not at once.
    private func isGone(_ pid: pid_t) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            if stat.split(separator: ")").last?.split(separator: " ").first == "Z" { return true }
            usleep(20_000)
        } while Date() < deadline
        return false
    }

    @Test func theHookReadsItsInputAndEnvironment() throws {
        let work = try folder()
        let command = "cat > '\(work)/in.txt'; printf '%s' \"$HOOK_TEST\" > '\(work)/env.txt'; exit 0"
        let outcome = HookProcess.run(command, environment: ["HOOK_TEST": "seen"], limits: HookProcess.Limits()) {
            write in
            for index in 0..<2_000 { write("line \(index)\n") }
        }
        #expect(outcome == .exited(0))
        let input = try String(contentsOfFile: work + "/in.txt", encoding: .utf8)
        #expect(input.hasPrefix("line 0\nline 1\n") && input.hasSuffix("line 1999\n"))
        #expect(try String(contentsOfFile: work + "/env.txt", encoding: .utf8) == "seen")
    }

    @Test func exitCodesAndSignalsAreTold() {
        #expect(HookProcess.run("exit 7", environment: [:], limits: short) { _ in } == .exited(7))
        #expect(HookProcess.run("kill -9 $$", environment: [:], limits: short) { _ in } == .signalled(9))
        #expect(
            HookProcess.run("no-such-command-here 2>/dev/null", environment: [:], limits: short) { _ in }
                == .exited(127))
    }

    @Test func aHookThatDoesNotReadNeitherBlocksNorKillsUs() {
        let megabyte = String(repeating: "x", count: 1 << 20)
        var outcome = HookProcess.Outcome.exited(-1)
        let quick = timed {
            outcome = HookProcess.run("exit 0", environment: [:], limits: HookProcess.Limits()) { write in
                for _ in 0..<8 { write(megabyte) }
            }
        }
        #expect(outcome == .exited(0))
        #expect(quick < 30)
        // One that neither reads nor exits: stopped at the bound, the writing too.
        let bounded = timed {
            outcome = HookProcess.run("sleep 30", environment: [:], limits: short) { write in
                for _ in 0..<8 { write(megabyte) }
            }
        }
        #expect(outcome == .timedOut)
        #expect(bounded < 10)
    }

    /// A hook whose shell exits while a process it left keeps its standard input open and
    /// unread ends the writing there (it held ftpsync until the hook's time limit).
    @Test func aHookThatExitsLeavingItsInputHeldEndsTheWriting() throws {
        let work = try folder()
        let megabyte = String(repeating: "x", count: 1 << 20)
        var outcome = HookProcess.Outcome.exited(-1)
        let seconds = timed {
            outcome = HookProcess.run(
                "exec 3<&0; sleep 30 <&3 3<&- & echo $! > '\(work)/child'; exit 0", environment: [:],
                limits: HookProcess.Limits(seconds: 20, grace: 1)
            ) { write in
                for _ in 0..<8 { write(megabyte) }
            }
        }
        if let text = try? String(contentsOfFile: work + "/child", encoding: .utf8),
            let child = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(child, SIGKILL)
        }
        #expect(outcome == .exited(0))
        #expect(seconds < 10, "\(seconds) s")
    }

    @Test func aHookPastItsBoundIsStoppedWithItsWholeGroup() throws {
        let work = try folder()
        var outcome = HookProcess.Outcome.exited(-1)
        let seconds = timed {
            outcome = HookProcess.run(
                "sleep 30 & echo $! > '\(work)/child'; sleep 30", environment: [:], limits: short
            ) { _ in }
        }
        #expect(outcome == .timedOut)
        #expect(seconds < 10)
        let child = pid_t(
            try String(contentsOfFile: work + "/child", encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines))
        #expect(child != nil)
        if let child { #expect(isGone(child), "the hook's child \(child) survived") }
    }

    @Test func aHookIgnoringSIGTERMGetsSIGKILLAfterTheGrace() throws {
        let work = try folder()
        var outcome = HookProcess.Outcome.exited(-1)
        let seconds = timed {
            outcome = HookProcess.run(
                "trap '' TERM; sleep 30 & echo $! > '\(work)/child'; wait", environment: [:], limits: short
            ) { _ in }
        }
        #expect(outcome == .timedOut)
        #expect(seconds >= 1 && seconds < 10, "\(seconds)")
        let text = try String(contentsOfFile: work + "/child", encoding: .utf8)
        if let child = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            #expect(isGone(child), "the hook's child \(child) survived")
        }
    }

    @Test func theTestBoundComesFromTheEnvironmentOnly() {
        #expect(HookProcess.Limits.fromEnvironment([:]) == HookProcess.Limits(seconds: 60, grace: 5))
        #expect(
            HookProcess.Limits.fromEnvironment(["FTPSYNC_HOOK_LIMITS": "0.5:2"])
                == HookProcess.Limits(seconds: 0.5, grace: 2))
        for bad in ["1", "0:1", "-1:1", "x:1", "1:2:3", "99999:1"] {
            #expect(HookProcess.Limits.fromEnvironment(["FTPSYNC_HOOK_LIMITS": bad]) == HookProcess.Limits())
        }
    }

    @Test func whichHooksRunAndInWhatOrder() {
        var configuration = Configuration(localRoot: "/tmp/x", devices: [], configPath: "/tmp/x/device.yaml")
        configuration.run.onFailure = "alert"
        configuration.run.onFinish = "done"
        let hooks = RunHooks(configuration: configuration, console: Console(), log: nil, environment: [:])
        #expect(hooks.applicable(exitCode: 1, dryRun: false).map(\.name) == ["on_failure", "on_finish"])
        #expect(hooks.applicable(exitCode: 0, dryRun: false).map(\.command) == ["done"])
        #expect(hooks.applicable(exitCode: 4, dryRun: true).isEmpty)
        configuration.run.onFinish = nil
        let failureOnly = RunHooks(configuration: configuration, console: Console(), log: nil, environment: [:])
        #expect(failureOnly.applicable(exitCode: 0, dryRun: false).isEmpty)
        #expect(failureOnly.applicable(exitCode: 3, dryRun: false).map(\.command) == ["alert"])
    }

    @Test func outcomesReadAsOneLine() {
        let limits = HookProcess.Limits()
        #expect(RunHooks.describe(.exited(3), limits: limits) == "exited 3")
        #expect(RunHooks.describe(.timedOut, limits: limits) == "was stopped after 60 s")
        #expect(RunHooks.describe(.timedOut, limits: short) == "was stopped after 0.5 s")
        #expect(RunHooks.describe(.signalled(9), limits: limits) == "was ended by signal 9")
        #expect(RunHooks.describe(.notStarted("/bin/sh: E2BIG"), limits: limits) == "could not start: /bin/sh: E2BIG")
    }
}
