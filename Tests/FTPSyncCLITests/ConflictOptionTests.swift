import SyncCore
import Testing

@testable import FTPSyncCLI

/// `--on-conflict`: parsed into the policy the planners take; the defaults per direction.
@Suite struct ConflictOptionTests {
    @Test(arguments: [
        (["--on-conflict", "keep-both"], ConflictPolicy.keepBoth), (["--on-conflict=local-wins"], .localWins),
        (["--on-conflict", "Remote-Wins"], .remoteWins), (["--on-conflict", "newer-wins"], .newerWins),
        (["--on-conflict", "report"], .report),
    ])
    func valuesBecomeThePolicy(arguments: [String], policy: ConflictPolicy) throws {
        let parsed = try ArgumentParser.parse(arguments, specs: PullCommand.options)
        for direction in [SyncDirection.pull, .push] {
            #expect(try syncPolicy(parsed, direction: direction).onConflict == policy)
        }
    }

    @Test func withoutTheOptionPullKeepsBothAndPushReports() throws {
        let parsed = try ArgumentParser.parse([], specs: PullCommand.options)
        #expect(try syncPolicy(parsed, direction: .pull).onConflict == .keepBoth)
        #expect(try syncPolicy(parsed, direction: .push).onConflict == .report)
    }

    @Test func aBadValueNamesTheValidOnes() throws {
        let parsed = try ArgumentParser.parse(["--on-conflict", "mine"], specs: PullCommand.options)
        do {
            _ = try syncPolicy(parsed, direction: .pull)
            Issue.record("no error")
        } catch let error as UsageError {
            #expect(
                error.message
                    == "--on-conflict needs one of keep-both, local-wins, remote-wins, newer-wins, report; got 'mine'")
        }
    }
}
