import FTPClient
import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncStore

/// `ftpsync pull [CONFIG] [options]`: devices → local tree.
struct PullCommand {
    static let options: [OptionSpec] = [
        OptionSpec(
            names: ["--device"], key: "device", takesValue: true, valueName: "NAME",
            help: "only this device; repeatable"),
        OptionSpec(
            names: ["-n", "--dry-run"], key: "dry-run", takesValue: false, help: "print the plan; change nothing"),
        OptionSpec(
            names: ["--delete"], key: "delete", takesValue: false,
            help: "also remove what the source side no longer has (pull: to the trash)"),
        OptionSpec(
            names: ["--max-delete"], key: "max-delete", takesValue: true, valueName: "N",
            help: "refuse a device (exit 4) whose plan deletes more than N files; default 50, -1 = no limit"),
        OptionSpec(
            names: ["--parallel"], key: "parallel", takesValue: true, valueName: "N",
            help: "control connections per device, transfers spread over them (overrides `connections`)"),
        OptionSpec(
            names: ["--log"], key: "log", takesValue: true, valueName: "FILE",
            help: "append a timestamped log of actions and errors to FILE"),
        OptionSpec(names: ["--json"], key: "json", takesValue: false, help: "print one JSON document on stdout"),
        OptionSpec(names: ["-q", "--quiet"], key: "quiet", takesValue: false, help: "print nothing but errors"),
        OptionSpec(
            names: ["-v", "--verbose"], key: "verbose", takesValue: false,
            help: "log every FTP command and reply to stderr (PASS masked)"),
        OptionSpec(
            names: ["--progress"], key: "progress", takesValue: false,
            help: "progress on stderr: redrawn in place on a terminal, else a line per finished action"),
        OptionSpec(
            names: ["--no-progress"], key: "no-progress", takesValue: false,
            help: "no progress while it runs; the report only"),
        FleetOptions.specs[0], FleetOptions.specs[1],
        OptionSpec(
            names: ["--on-conflict"], key: "on-conflict", takesValue: true, valueName: "POLICY",
            help: "what a conflict does: keep-both, local-wins, remote-wins, newer-wins or report"),
    ]

    static var help: String {
        Help.text(
            for: "pull", options: options, usage: "ftpsync pull [CONFIG] [options]",
            summary: """
                Copy what each device holds into <local>/<device>: new and changed files are downloaded
                (interrupted downloads resume), files already in sync are left alone, device moves become
                local renames, and a local file changed since the last sync is kept as NAME.conflict-<UTC>.EXT
                (--on-conflict local-wins, remote-wins, newer-wins or report choose otherwise).
                """,
            example: "ftpsync pull device.yaml --dry-run")
    }

    let sync: SyncRun

    init(arguments: [String], console: Console) throws {
        sync = try SyncRun(direction: .pull, arguments: arguments, console: console)
    }

    func run() throws -> ExitCode { try sync.run() }
}

/// `CONFIG` when given, else `$FTPSYNC_CONFIG`, else `./device.yaml`.
func resolveConfigPath(_ given: String?, environment: [String: String]) -> String {
    if let given { return given }
    if let fromEnvironment = environment["FTPSYNC_CONFIG"], !fromEnvironment.isEmpty { return fromEnvironment }
    return "device.yaml"
}

/// The exit code a set of device reports calls for.
func exitCode(for reports: [DeviceReport]) -> ExitCode {
    if reports.contains(where: { $0.status == .refused }) { return .safetyStop }
    if reports.contains(where: { $0.status != .ok }) { return .partialFailure }
    return .success
}
