// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import SyncCore

/// `ftpsync sync [CONFIG] [options]`: devices <-> local tree, against the records of the last
/// sync. Takes the options of pull and push, and `--resync`.
struct SyncCommand: FTPSyncSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "sync both ways: changes here go to the devices, theirs come here",
        usage: "ftpsync sync [CONFIG] [options]",
        discussion: """
            Compare each side with what the last sync recorded and carry every change over: a file
            changed or new on one side is copied to the other, a move becomes a rename, and a file
            changed on both sides is a conflict (--on-conflict keep-both, the default, keeps both
            versions on both sides, the device's as NAME.conflict-<UTC>.EXT). A file deleted on one
            side is deleted on the other only with --delete (here: to the trash). The first sync
            takes the union of both sides and deletes nothing; --resync starts over that way.
            """)
    static let example = "ftpsync sync phone.yaml --dry-run"

    @OptionGroup var options: SyncOptions

    /// An offload is one-way: a sync never deletes a file because it was copied.
    func validate() throws {
        if options.removeSource || options.removeSourceFolders {
            throw ValidationError("--remove-source and --remove-source-folders are for pull only")
        }
    }

    func execute(console: Console) throws -> ExitCode {
        try SyncRun(direction: .sync, options: options, console: console).run()
    }
}
