// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import FTPClient
import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore

/// `ftpsync pull [CONFIG] [options]`: devices → local tree.
struct PullCommand: FTPSyncSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "pull", abstract: "copy what the devices hold into the local tree (devices -> here)",
        usage: "ftpsync pull [CONFIG] [options]",
        discussion: """
            Copy what each device holds into <local>/<device>: new and changed files are downloaded
            (interrupted downloads resume), files already in sync are left alone, device moves become
            local renames, and a local file changed since the last sync is kept as NAME.conflict-<UTC>.EXT
            (--on-conflict local-wins, remote-wins, newer-wins or report choose otherwise).
            """)
    static let example = "ftpsync pull device.yaml --dry-run"

    @OptionGroup var options: SyncOptions

    /// `--resync` starts a two-way sync over; a pull has nothing to start over.
    func validate() throws {
        if options.resync { throw ValidationError("--resync is for sync only") }
    }

    func execute(console: Console) throws -> ExitCode {
        try SyncRun(direction: .pull, options: options, console: console).run()
    }
}
