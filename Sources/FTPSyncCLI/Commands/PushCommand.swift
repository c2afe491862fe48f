import FTPClient
import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore

/// `ftpsync push [CONFIG] [options]`: local tree → devices. Takes the options of pull.
struct PushCommand {
    static var help: String {
        Help.text(
            for: "push", options: PullCommand.options, usage: "ftpsync push [CONFIG] [options]",
            summary: """
                Copy <local>/<device> onto each device: new and changed files are uploaded under a
                temporary name and renamed into place (interrupted uploads resume), local moves become
                renames on the device, and a device file changed since the last sync is reported as a
                conflict, never overwritten (--on-conflict local-wins overwrites it, keep-both keeps it as
                NAME.conflict-<UTC>.EXT on the device). Several devices may share one local folder.
                """,
            example: "ftpsync push device.yaml --delete --dry-run")
    }

    let sync: SyncRun

    init(arguments: [String], console: Console) throws {
        sync = try SyncRun(direction: .push, arguments: arguments, console: console)
    }

    func run() throws -> ExitCode { try sync.run() }
}
