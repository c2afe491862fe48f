// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import Foundation
import SyncConfig
import SyncCore
import SyncRunner
import SyncStore

/// `ftpsync verify [CONFIG] [--device NAME]... [--json] [--local] [-v] [-j N]`: compares each
/// file the state records with the server's own hash of the device file (or, with `--local`,
/// with the XXH3 digest recorded at the last sync) and says which side changed (issue 21).
/// Changes nothing, on either side, and records nothing in the state (one from an older
/// ftpsync is brought to this version's schema on opening, as by every command).
struct VerifyCommand: FTPSyncSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "compare each recorded file with the server's hash of it; changes nothing",
        usage: "ftpsync verify [CONFIG] [--device NAME]... [--shard K/N] [--json] [--local] [-v] [-q] [-j N]",
        discussion: """
            For each device, compare every file the state records with the device's copy: the
            local file is hashed by the server's algorithm and compared with the server's own
            digest (HASH, else XSHA256, XSHA1, XMD5, XCRC; OPTS HASH is tried where FEAT names none).
            A file that differs is reported with the side that changed, told by the digests recorded
            at the last sync: a local file changed with its size and time kept is damage. --local
            makes no connection and compares each local file with the XXH3 digest recorded instead
            (bit rot here). Only the files that do not match are listed (all with -v; -q: only the
            devices with a problem).
            Changes nothing, on either side. Exit 0 when every file compared matches; 1 when one
            differs or is missing, or a device failed (a server with no hash command fails);
            2 for a usage or configuration error.
            """)
    static let example = "ftpsync verify device.yaml --device front-camera --json"

    @OptionGroup var configFile: ConfigArgument
    @OptionGroup var selection: DeviceSelection

    @Flag(help: ArgumentHelp("print one JSON document on stdout", discussion: "a text report"))
    var json = false

    @Flag(
        help: ArgumentHelp(
            "no network: compare with the XXH3 digests recorded at the last sync", discussion: "off"))
    var local = false

    @Flag(
        name: .shortAndLong,
        help: ArgumentHelp("also list the files that match (text and JSON)", discussion: "off"))
    var verbose = false

    @Flag(
        name: .shortAndLong,
        help: ArgumentHelp(
            "print only the devices with a problem and their files (for cron: silent when all match)",
            discussion: "off"))
    var quiet = false

    @OptionGroup var jobsOption: JobsOption

    /// Verifies the selected devices; exit 1 when a file differs or is missing, or a device failed.
    /// - Throws: `UsageError` for an unknown `--device`.
    func execute(console: Console) throws -> ExitCode {
        var environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(configFile.config, environment: environment)
        // --local makes no connection: an unset password must not stop it (as for status).
        if local { environment = StatusCommand.offline(environment, configPath: configPath) }
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: configPath, environment: environment, console: console)
        } catch {
            console.error(error.description)
            return .usage
        }
        let devices: [DeviceConfig]
        do {
            devices = try configuration.selectDevices(named: selection.names, shard: selection.shard)
        } catch {
            throw UsageError("\(error)")
        }
        let records: [String: [FileRecord]]
        do {
            records = try Self.records(of: devices, localRoot: configuration.localRoot)
        } catch {
            console.error("ftpsync: cannot read the state of \(configuration.localRoot): \(error)")
            return .partialFailure
        }
        if records.values.allSatisfy(\.isEmpty) {
            console.error(
                "ftpsync: note: the state under \(configuration.localRoot)/.ftpsync records no file of "
                    + (selection.names.isEmpty ? "any device" : "these devices") + ": nothing to verify")
        }
        if !local { warnAboutInsecureDevices(devices, console: console) }
        let local = self.local
        let results = DeviceRunner.runAll(devices, limit: jobsOption.jobs) { device in
            let mine = records[device.name] ?? []
            return local ? device.verifyLocally(mine) : device.verify(mine)
        }
        let reports = zip(devices, results).map { device, result in
            VerifyDeviceReport(name: device.name, result, verbose: verbose)
        }
        if json {
            console.json(jsonText(VerifyDocument(devices: reports)))
        } else {
            for (report, result) in zip(reports, results) where !quiet || result.hasProblem { console.out(report.text) }
            if results.contains(where: { $0.files.contains { $0.status != .ok && $0.status != .unverifiable } }) {
                console.out(Self.repairHint)
            }
        }
        return results.contains(where: \.hasProblem) ? .partialFailure : .success
    }

    /// What to do about a file that differs or is gone, printed once after the report.
    static let repairHint =
        "fix: a damaged or lost local copy: move it aside and `ftpsync pull` fetches it again;"
        + " a damaged device copy: `touch` the local file and `ftpsync push` sends it again"

    /// The records of each of `devices` in the state of the tree at `localRoot`; none when there
    /// is no state yet (nothing is created).
    /// - Throws: `StoreError` when the state exists but cannot be read.
    static func records(of devices: [DeviceConfig], localRoot: String) throws(StoreError) -> [String: [FileRecord]] {
        guard let store = try StateStore.openExisting(localRoot: localRoot) else { return [:] }
        defer { store.close() }
        var records: [String: [FileRecord]] = [:]
        for device in devices {
            records[device.name] = Array(try store.records(device: device.name).values)
        }
        return records
    }
}
