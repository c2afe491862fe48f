// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import FTPClient
import FTPListing
import Foundation
import SyncConfig
import SyncEngine
import SyncRunner

/// `ftpsync ls [CONFIG] DEVICE[:PATH] [--json]`: lists one remote folder, parsed.
///
/// `PATH` is absolute (`/DCIM/100`) or relative to the device's `remote` root; without it the
/// root itself is listed. Entries are sorted by name; `.` and `..` are never shown.
struct LsCommand: FTPSyncSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", abstract: "list one remote folder of a device, parsed: ftpsync ls cam:/DCIM",
        usage: "ftpsync ls [CONFIG] DEVICE[:PATH] [--json] [filter options] [--show-excluded]",
        discussion: """
            List one folder of a device as ftpsync reads it: type, size, modification time (UTC)
            and name, like `ls -l`. PATH is absolute or relative to the device's remote root.
            Only what the device's filters (and the filter options) keep is listed;
            --show-excluded also lists the rest, marked.
            """)
    static let example = "ftpsync ls device.yaml front-camera:2024 --json"

    /// `[CONFIG] DEVICE[:PATH]`: one or two words.
    @Argument(
        help: ArgumentHelp("[CONFIG] DEVICE[:PATH]", valueName: "config-and-device"),
        completion: .file(extensions: ["yaml", "yml"]))
    var positionals: [String] = []

    @OptionGroup var report: ReportOptions

    @OptionGroup var filters: FilterOptions

    @Flag(
        name: .customLong("show-excluded"),
        help: ArgumentHelp(
            "also list what the filters leave out, each marked [excluded: why]", discussion: "off"))
    var showExcluded = false

    /// - Throws: `ValidationError` (exit 2) without DEVICE or with more than two words.
    func validate() throws {
        switch positionals.count {
        case 1, 2: break
        case 0: throw ValidationError("ls needs DEVICE[:PATH]")
        default: throw ValidationError("ls takes [CONFIG] DEVICE[:PATH], got: \(positionals.joined(separator: " "))")
        }
    }

    func execute(console: Console) throws -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let target = positionals[positionals.count - 1]
        if positionals.count == 1, let message = Self.configWithoutDevice(target, environment: environment) {
            throw UsageError(message)
        }
        let configPath = resolveConfigPath(positionals.count == 2 ? positionals[0] : nil, environment: environment)
        let configuration: Configuration
        do {
            // As pull does: `~/.netrc`, the permission warning, `password_env`.
            configuration = try loadConfiguration(path: configPath, environment: environment, console: console)
        } catch {
            console.error(error.description)
            return .usage
        }
        let (deviceName, requested) = Self.splitTarget(target)
        guard let device = configuration.device(named: deviceName) else {
            let names = configuration.devices.map(\.name)
            let message = Help.suggesting(
                "unknown device '\(deviceName)' in \(configPath)", for: deviceName, among: names)
            throw UsageError(message + " (devices: \(names.joined(separator: ", ")))")
        }
        if let problem = device.problem {
            console.error("ftpsync: \(deviceName): configuration: \(problem)")
            return .partialFailure
        }
        let path = Self.remoteFolder(root: device.remote, requested: requested)

        var log: (@Sendable (String) -> Void)?
        if report.verbose {
            log = { line in console.error(deviceName + ": " + line) }
        }
        let remote: FTPRemote
        do {
            remote = try FTPRemote.connect(device.sessionConfiguration, timeZone: device.timezone, log: log)
        } catch {
            // A proxy's failure names the proxy and the device itself.
            var place = "cannot connect to \(device.host):\(device.port): "
            if case .proxyFailed? = error as? FTPError { place = "" }
            console.error("ftpsync: \(deviceName): \(place)\(device.explainingLogin(error))")
            return .partialFailure
        }
        defer { remote.close() }
        let listing: ParsedListing
        do {
            listing = try remote.list(path)
        } catch {
            console.error("ftpsync: \(deviceName): cannot list \(path): \(error)")
            return .partialFailure
        }
        if let reason = remote.session.controlListingReason {
            console.error("ftpsync: \(deviceName): note: listed over the control connection (STAT): \(reason)")
        }
        for warning in listing.warnings { console.error("ftpsync: \(deviceName): \(path): \(warning)") }
        // Some servers (vsftpd, busybox) list a missing folder as empty: ask the folder itself.
        if listing.warnings.isEmpty, LsListing.visibleEntries(listing.entries).isEmpty,
            (try? remote.folderExists(path)) == false
        {
            console.error("ftpsync: \(deviceName): folder \(path) does not exist on the device")
            return .partialFailure
        }

        let filter: LsFilter
        do {
            filter = try LsFilter(device: device, filters: filters.runFilters, path: path, now: Date())
        } catch {
            console.error("ftpsync: \(deviceName): configuration: \(error)")
            return .partialFailure
        }
        var entries: [ListingEntry] = []
        var verdicts: [LsFilter.Verdict] = []
        for entry in LsListing.visibleEntries(listing.entries) {
            let verdict = filter.verdict(entry)
            guard showExcluded || verdict.excluded == nil else { continue }
            entries.append(entry)
            verdicts.append(verdict)
        }
        let hidden = LsListing.visibleEntries(listing.entries).count - entries.count
        if hidden > 0 {
            console.error(
                "ftpsync: \(deviceName): \(path): \(hidden) entr\(hidden == 1 ? "y" : "ies") left out by the filters "
                    + "(--show-excluded lists them)")
        }
        if report.json {
            console.json(
                jsonText(
                    LsDocument(
                        device: deviceName, path: path, entries: entries, verdicts: showExcluded ? verdicts : nil)
                ))
        } else {
            console.out(LsListing.text(entries, verdicts: verdicts))
        }
        return .success
    }

    /// The message for `ls CONFIG` without a device (the only argument names a configuration
    /// file: it ends in `.yaml`/`.yml` or is an existing file), with the file's devices when it
    /// loads; nil when `argument` may be a device.
    static func configWithoutDevice(_ argument: String, environment: [String: String]) -> String? {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) && !isFolder.boolValue
        guard !argument.contains(":"), exists || argument.hasSuffix(".yaml") || argument.hasSuffix(".yml") else {
            return nil
        }
        var message = "ls needs a device after the configuration file: ftpsync ls \(argument) DEVICE[:PATH]"
        if let names = try? ConfigLoader.load(path: argument, environment: environment).devices.map(\.name),
            !names.isEmpty
        {
            message += " (devices: \(names.joined(separator: ", ")))"
        }
        return message
    }

    /// `DEVICE[:PATH]` split at the first colon (device names never hold one).
    static func splitTarget(_ target: String) -> (device: String, path: String?) {
        guard let colon = target.firstIndex(of: ":") else { return (target, nil) }
        let path = String(target[target.index(after: colon)...])
        return (String(target[..<colon]), path.isEmpty ? nil : path)
    }

    /// The absolute remote folder: `requested` when absolute, else joined to the device's root.
    static func remoteFolder(root: String, requested: String?) -> String {
        guard let requested else { return root.isEmpty ? "/" : root }
        if requested.hasPrefix("/") { return requested }
        return remotePath(root: root, relative: requested)
    }
}
