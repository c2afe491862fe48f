// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser

/// The version `ftpsync --version` prints and the JSON documents carry: `git describe` of the
/// built commit (`0.2.0`, `0.2.0+git3.1a2b3c4`; see scripts/version.sh), baked in at build time.
public let ftpsyncVersion = ftpsyncBuildVersion

/// `ftpsync`: the root of the command tree. It runs nothing itself; `FTPSyncCLI.main` parses
/// the command line with it and runs the command it names.
struct FTPSyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ftpsync",
        abstract: "keep file trees in sync between this machine and the FTP servers of devices",
        version: "ftpsync \(ftpsyncVersion)",
        subcommands: [
            PullCommand.self, PushCommand.self, SyncCommand.self, ApplyCommand.self, LsCommand.self, CheckCommand.self,
            StatusCommand.self,
            VerifyCommand.self,
        ])
}

/// A command of `ftpsync`: parsed by the argument parser, run by `FTPSyncCLI.main`.
protocol FTPSyncSubcommand: ParsableCommand {
    /// The example at the end of the command's help page.
    static var example: String { get }

    /// Runs the command.
    /// - Returns: the exit code (CONTRACT.md, "Exit codes").
    /// - Throws: `UsageError` (exit 2); any other error is exit 1.
    func execute(console: Console) throws -> ExitCode
}
