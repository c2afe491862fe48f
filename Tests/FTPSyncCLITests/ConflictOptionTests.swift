import SyncConfig
import SyncCore
import SyncRunner
import Testing

@testable import FTPSyncCLI

/// `--on-conflict`: parsed into the runner's override; without it the override is unset and the
/// defaults per direction apply.
@Suite struct ConflictOptionTests {
    @Test(arguments: [
        (["--on-conflict", "keep-both"], ConflictPolicy.keepBoth), (["--on-conflict=local-wins"], .localWins),
        (["--on-conflict", "Remote-Wins"], .remoteWins), (["--on-conflict", "newer-wins"], .newerWins),
        (["--on-conflict", "report"], .report),
    ])
    func valuesBecomeThePolicy(arguments: [String], policy: ConflictPolicy) throws {
        let parsed = try ArgumentParser.parse(arguments, specs: PullCommand.options)
        for direction in [SyncDirection.pull, .push] {
            #expect(try runOptions(parsed, direction: direction).onConflict == policy)
        }
    }

    @Test func withoutTheOptionPullKeepsBothAndPushReports() throws {
        let parsed = try ArgumentParser.parse([], specs: PullCommand.options)
        let device = DeviceConfig(name: "cam", host: "127.0.0.1", localPath: "/tree/cam")
        for (direction, policy) in [(SyncDirection.pull, ConflictPolicy.keepBoth), (.push, .report)] {
            let options = try runOptions(parsed, direction: direction)
            #expect(options.onConflict == nil)
            #expect(options.job(for: device, localRoot: "/tree").policy.onConflict == policy)
        }
    }

    @Test func aBadValueNamesTheValidOnes() throws {
        let parsed = try ArgumentParser.parse(["--on-conflict", "mine"], specs: PullCommand.options)
        do {
            _ = try runOptions(parsed, direction: .pull)
            Issue.record("no error")
        } catch let error as UsageError {
            #expect(
                error.message
                    == "--on-conflict needs one of keep-both, local-wins, remote-wins, newer-wins, report; got 'mine'")
        }
    }
}
