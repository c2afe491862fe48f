// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import SyncCore

/// `ftpsync push [CONFIG] [options]`: local tree → devices. Takes the options of pull.
struct PushCommand: FTPSyncSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "copy the local tree to the devices (here -> devices)",
        usage: "ftpsync push [CONFIG] [options]",
        discussion: """
            Copy <local>/<device> onto each device: new and changed files are uploaded under a
            temporary name and renamed into place (interrupted uploads resume), local moves become
            renames on the device, and a device file changed since the last sync is reported as a
            conflict, never overwritten (--on-conflict local-wins overwrites it, keep-both keeps it as
            NAME.conflict-<UTC>.EXT on the device). Several devices may share one local folder.
            """)
    static let example = "ftpsync push device.yaml --delete --dry-run"

    @OptionGroup var options: SyncOptions

    /// An offload deletes device files after a pull; a push never deletes a local file.
    func validate() throws {
        if options.resync { throw ValidationError("--resync is for sync only") }
        if options.removeSource || options.removeSourceFolders {
            throw ValidationError(
                "--remove-source and --remove-source-folders are for pull only (a push never deletes local files)")
        }
    }

    func execute(console: Console) throws -> ExitCode {
        try SyncRun(direction: .push, options: options, console: console).run()
    }
}
