// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import Foundation
import SyncConfig
import SyncStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ftpsync status [CONFIG] [--json] [--stale DURATION] [--device NAME]... [--events] [-q]`:
/// what the state database knows about each device. Reads the state only: no network, no
/// lock, and nothing is created when there is no state yet.
struct StatusCommand: FTPSyncSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "what the state knows: last sync and health per device, trash size, recent events",
        usage: "ftpsync status [CONFIG] [--json] [--stale DURATION] [--device NAME]... [--shard K/N] [--events] [-q]",
        discussion: """
            Show, per device of CONFIG, what the state under <local>/.ftpsync/ records: the end of the
            last successful sync, the last run and its error, the runs in a row that were not ok and
            since when, the files and bytes tracked, interrupted transfers waiting to resume, its
            share of pull's trash, and whether the server's identity is known. One line per device,
            devices in trouble (failing, stale, never synced) first. --events lists the recent
            transitions instead (went offline, came back, identity changed, delete guard, clock jump).
            Makes no network connection and changes nothing. Exit 0; 1 when --stale finds a device
            without a successful sync within DURATION (or none ever), or the state cannot be read;
            2 for a usage or configuration error.
            """)
    static let example = "ftpsync status device.yaml --stale 6h -q || echo 'a device is stale'"

    @OptionGroup var configFile: ConfigArgument
    @OptionGroup var selection: DeviceSelection

    @Flag(help: ArgumentHelp("print one JSON document on stdout", discussion: "a text report"))
    var json = false

    /// `--stale`: the window in seconds.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "exit 1 when a device had no successful sync within DURATION (90s, 15m, 6h, 7d, 2w)",
            discussion: "no staleness check", valueName: "DURATION"),
        transform: { text in
            let seconds = try OptionValue.duration(text)
            guard seconds > 0 else { throw ValidationError("expected a duration greater than 0, such as 15m or 6h") }
            return seconds
        })
    var stale: Int?

    @Flag(
        help: ArgumentHelp(
            "list the \(StatusDocument.eventLimit) most recent device events, newest first", discussion: "off"))
    var events = false

    @Flag(name: .shortAndLong, help: ArgumentHelp("print nothing but errors (for the exit code)", discussion: "off"))
    var quiet = false

    /// `environment` with every variable the file names in `password_env` set (empty when
    /// missing): status makes no connection, so an unset password must not stop it.
    static func offline(_ environment: [String: String], configPath: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: configPath, encoding: .utf8) else { return environment }
        var result = environment
        for match in text.matches(of: /password_env["']?\s*:\s*["']?([A-Za-z_][A-Za-z0-9_]*)/) {
            let name = String(match.output.1)
            if result[name] == nil { result[name] = "" }
        }
        return result
    }

    /// Prints the status; exit 2 for a bad configuration or an unknown device, 1 when the state
    /// cannot be read or (with `--stale`) a device listed is stale.
    func execute(console: Console) throws -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(configFile.config, environment: environment)
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(
                path: configPath, environment: StatusCommand.offline(environment, configPath: configPath),
                console: console)
        } catch {
            console.error(error.description)
            stopped(error.description, local: nil, console: console)
            return .usage
        }
        let request: StatusDocument.Request
        do {
            request = StatusDocument.Request(
                devices: try configuration.selectDevices(named: selection.names, shard: selection.shard),
                staleWindow: stale.map(TimeInterval.init),
                events: events ? StatusDocument.eventLimit : nil, now: Date())
        } catch {
            stopped("\(error)", local: configuration.localRoot, console: console)
            throw UsageError("\(error)")
        }
        let document: StatusDocument
        do {
            document = try StatusDocument.read(configuration, request)
        } catch {
            let message = "cannot read the state of \(configuration.localRoot): \(error)"
            console.error("ftpsync: " + message)
            stopped(message, local: configuration.localRoot, console: console)
            return .partialFailure
        }
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: configuration.localRoot, isDirectory: &isFolder)
            || !isFolder.boolValue
        {
            console.error(
                "ftpsync: the local tree \(configuration.localRoot) does not exist: no run has made it yet, "
                    + "or 'local' in \(configuration.displayPath) names another folder")
        }
        if !quiet,
            let note = ShardNote.status(
                localRoot: configuration.localRoot, treeShard: document.treeShard, given: selection.shard)
        {
            console.error(note)
        }
        if quiet {
            // Nothing printed: the exit code tells.
        } else if json {
            console.json(jsonText(document))
        } else if let events = document.events {
            console.out(StatusTable.eventsText(events))
        } else {
            let width = isatty(1) == 1 ? TerminalProgress.size().columns : 200
            console.out(StatusTable.text(document, width: width))
        }
        return document.anyStale ? .partialFailure : .success
    }

    /// With `--json`, the document of a status that could not be made: `local` (null when the
    /// configuration did not load), `error`, and no devices.
    private func stopped(_ message: String, local: String?, console: Console) {
        guard json else { return }
        console.json(jsonText(StatusStopDocument(local: local, error: message)))
    }
}

/// `status --json` when it stops on an error: `{"local": …, "error": "…", "devices": []}`.
struct StatusStopDocument: Encodable {
    var local: String?
    var error: String
    var devices: [String] = []

    enum CodingKeys: String, CodingKey { case local, error, devices }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(local, forKey: .local)
        try container.encode(error, forKey: .error)
        try container.encode(devices, forKey: .devices)
    }
}
