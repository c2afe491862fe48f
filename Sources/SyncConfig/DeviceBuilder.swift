// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Turns one item of `devices` into a `DeviceConfig`: the device's keys win over `defaults`,
/// which win over the built-in defaults.
struct DeviceBuilder {
    let defaults: DeviceFields
    let localRoot: String
    /// The configuration file's folder: relative `filter_from` paths start there.
    let configFolder: String
    let environment: [String: String]
    let reader: NodeReader
    /// `defaults.filter_from`'s rules, read once for every device that does not name its own.
    private let defaultFilter: Result<[FilterRule], ConfigError>?

    init(
        defaults: DeviceFields, localRoot: String, configFolder: String, environment: [String: String],
        reader: NodeReader
    ) {
        self.defaults = defaults
        self.localRoot = localRoot
        self.configFolder = configFolder
        self.environment = environment
        self.reader = reader
        defaultFilter = defaults.filterFrom.map { located in
            Result { () throws(ConfigError) in
                try FilterFile.rules(at: absolutePath(located.value, relativeTo: configFolder))
            }
        }
    }

    /// The device of list item `number` (1-based) and the position of its `name` value.
    /// - Throws: `ConfigError` when the item is not a mapping, a key is wrong, or `name` or `host`
    ///   is missing (at the mapping's position); for a proxy with `passive: false`, or a wrong
    ///   `proxy_password_env` (see `proxy(own:)`). An unset `password_env` or `proxy_password_env`
    ///   variable or an unknown time zone is the device's `problem` instead: it fails that device only.
    func device(from node: YAMLNode, number: Int) throws(ConfigError) -> (DeviceConfig, SourcePosition) {
        guard case .mapping(let pairs) = node.content else {
            throw reader.error(
                at: node.position,
                "device #\(number) must be a mapping with at least 'name' and 'host', found \(node.shortDescription)")
        }
        let own = try DeviceFields(pairs: pairs, isDefaults: false, reader: reader)
        guard let name = own.name else {
            throw reader.error(at: node.position, "missing required key 'name' in device #\(number)")
        }
        guard let host = own.host ?? defaults.host else {
            throw reader.error(at: node.position, "missing required key 'host' in device '\(name.value)'")
        }
        let local = (own.local ?? defaults.local)?.value ?? name.value
        if own.local == nil && defaults.local == nil, let problem = deviceFolderProblem(local) {
            throw reader.error(at: name.position, "device '\(name.value)' needs its own 'local': " + problem)
        }
        var device = DeviceConfig(
            name: name.value, host: host, localPath: absolutePath(local, relativeTo: localRoot),
            port: own.port ?? defaults.port, position: node.position)
        device.local = local
        if let value = own.user ?? defaults.user { device.user = value }
        do {
            device.password = try password(own.password ?? defaults.password)
        } catch {
            device.problem = error.description
        }
        let zoneProblem = own.timezone == nil ? own.timezoneProblem ?? defaults.timezoneProblem : nil
        if device.problem == nil, let zoneProblem { device.problem = zoneProblem.description }
        if let value = own.remote ?? defaults.remote { device.remote = value }
        if let value = own.tls ?? defaults.tls {
            device.tls = value
            if own.port == nil && defaults.port == nil && value == .implicit { device.port = 990 }
        }
        device.fingerprint = own.fingerprint ?? defaults.fingerprint
        if let value = own.passiveAddress ?? defaults.passiveAddress { device.passiveAddress = value }
        if let value = own.passive ?? defaults.passive { device.passive = value.value }
        if let value = own.hidden ?? defaults.hidden { device.hidden = value }
        if let value = own.connections ?? defaults.connections { device.connections = value }
        if let value = own.timeout ?? defaults.timeout { device.timeout = value }
        device.timezone = own.timezone ?? defaults.timezone ?? utcTimeZone
        if let value = own.encoding ?? defaults.encoding { device.encoding = value }
        if let value = own.exclude ?? defaults.exclude { device.exclude = value }
        if let value = own.retries ?? defaults.retries { device.retries = value }
        if let value = own.minAge ?? defaults.minAge { device.minAge = value }
        if let value = own.include ?? defaults.include { device.include = value }
        device.minSize = own.minSize ?? defaults.minSize
        device.maxSize = own.maxSize ?? defaults.maxSize
        device.maxAge = own.maxAge ?? defaults.maxAge
        if let located = own.filterFrom ?? defaults.filterFrom {
            let path = absolutePath(located.value, relativeTo: configFolder)
            device.filterFrom = path
            do {
                if own.filterFrom == nil, let defaultFilter {
                    device.filterRules = try defaultFilter.get()
                } else {
                    device.filterRules = try FilterFile.rules(at: path)
                }
            } catch {
                // A device without its filter could copy or delete what the filter keeps out.
                if device.problem == nil { device.problem = error.description }
            }
        }
        if let value = own.insecure ?? defaults.insecure { device.insecure = value }
        if let value = own.acceptNewIdentity ?? defaults.acceptNewIdentity { device.acceptNewIdentity = value }
        device.onConflict = own.onConflict ?? defaults.onConflict
        device.order = own.order ?? defaults.order
        // A device's own rate or schedule wins over both of `defaults`.
        let ownsLimit = own.bwlimit != nil || own.bwlimitSchedule != nil
        if let value = ownsLimit ? own.bwlimit : defaults.bwlimit { device.bwlimit = value > 0 ? value : nil }
        if var schedule = ownsLimit ? own.bwlimitSchedule : defaults.bwlimitSchedule {
            schedule.timeZone = own.timezone ?? defaults.timezone ?? .current
            device.bwlimitSchedule = schedule
        }
        if let value = own.keepalive ?? defaults.keepalive { device.keepalive = value }
        if let value = own.segments ?? defaults.segments { device.segments = value }
        if let value = own.maxConnections ?? defaults.maxConnections { device.maxConnections = value }
        if let value = own.segmentThreshold ?? defaults.segmentThreshold { device.segmentThreshold = value }
        if let value = own.removeSource ?? defaults.removeSource { device.removeSource = value }
        if let value = own.removeSourceFolders ?? defaults.removeSourceFolders { device.removeSourceFolders = value }
        if let value = own.verify ?? defaults.verify { device.verify = value }
        let proxy = try proxy(own: own)
        device.proxy = proxy.setting
        if device.problem == nil, let problem = proxy.problem { device.problem = problem.description }
        return (device, name.position)
    }

    /// The password itself, reading `password_env`'s variable from `environment`.
    private func password(_ source: Located<PasswordSource>?) throws(ConfigError) -> String? {
        switch source?.value {
        case nil: return nil
        case .literal(let text): return text
        case .environment(let variable):
            guard let value = environment[variable] else {
                throw reader.error(
                    at: source?.position,
                    "environment variable '\(variable)' (named by 'password_env') is not set"
                        + " (cron and systemd start with almost no environment: set it in the crontab"
                        + " or an EnvironmentFile)")
            }
            return value
        }
    }
}
