// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Reads the configuration file (CONTRACT.md, "Configuration file") into a `Configuration`.
public enum ConfigLoader {
    /// Keys allowed at the top level of the file.
    static let topLevelKeys = [
        "local", "defaults", "devices", "metrics_file", "log_format", "trash_retention", "on_finish", "on_failure",
    ]

    /// Reads and validates the configuration file at `path` (relative paths are taken from the
    /// current directory). The environment is only consulted for `password_env` and for `~` in `local`.
    /// - Parameters:
    ///   - path: the file's path as the user gave it; error messages repeat it as written.
    ///   - environment: the process environment (for example `ProcessInfo.processInfo.environment`).
    /// - Throws: `ConfigError` when the file cannot be read (no position), is not valid YAML
    ///   (libyaml's problem position), or breaks a rule of the schema (the offending node's position).
    public static func load(path: String, environment: [String: String]) throws(ConfigError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try readFile(atPath: path)
        } catch {
            throw ConfigError(file: path, position: nil, message: "cannot read: \(error.reason)")
        }
        return try parse(bytes: bytes, path: path, environment: environment)
    }

    /// Validates configuration `text` as if read from `path` (which is not opened); relative
    /// paths inside resolve against `path`'s folder.
    /// - Throws: `ConfigError` as `load(path:environment:)` does, except for reading.
    public static func parse(text: String, path: String, environment: [String: String]) throws(ConfigError)
        -> Configuration
    {
        try parse(bytes: Array(text.utf8), path: path, environment: environment)
    }

    static func parse(bytes: [UInt8], path: String, environment: [String: String]) throws(ConfigError)
        -> Configuration
    {
        let reader = NodeReader(file: path)
        let root: YAMLNode?
        do {
            root = try composeYAMLDocument(try parseYAMLEvents(bytes))
        } catch let error as YAMLSyntaxError {
            throw reader.error(at: error.position, error.message)
        } catch let error as YAMLCompositionError {
            throw reader.error(at: error.position, error.message)
        } catch {
            throw reader.error(at: nil, "invalid YAML: \(error)")
        }
        guard let root, !root.isNull else {
            throw reader.error(
                at: SourcePosition(line: 1, column: 1), "the file is empty; it needs 'local' and 'devices'")
        }
        guard case .mapping(let pairs) = root.content else {
            throw reader.error(
                at: root.position,
                "the top level must be a mapping with 'local' and 'devices', found \(root.shortDescription)")
        }
        let configPath = absolutePath(path, relativeTo: FileManager.default.currentDirectoryPath)
        var values: [String: YAMLNode] = [:]
        for pair in pairs {
            let key = pair.key.scalarText ?? ""
            if DeviceFields.keys.contains(key) && key != "local" {
                throw reader.error(
                    at: pair.key.position,
                    "unknown key '\(key)' at the top level; device keys belong in a device under 'devices' "
                        + "or under 'defaults'")
            }
            try reader.checkKnown(pair.key, among: topLevelKeys, in: "at the top level")
            values[key] = pair.value
        }
        guard let localNode = values["local"] else {
            throw reader.error(at: root.position, "missing required key 'local' (the local tree's root folder)")
        }
        let localRoot = try resolveRoot(
            localNode, configFolder: parentFolder(of: configPath), environment: environment, reader: reader)
        let defaults = try DeviceFields(
            pairs: try values["defaults"].map { node throws(ConfigError) in try reader.mapping(node, "'defaults'") }
                ?? [],
            isDefaults: true, reader: reader)
        guard let devicesNode = values["devices"] else {
            throw reader.error(at: root.position, "missing required key 'devices' (the list of devices)")
        }
        let items = try reader.sequence(devicesNode, "'devices'")
        guard !items.isEmpty else {
            throw reader.error(at: devicesNode.position, "'devices' must list at least one device")
        }
        let builder = DeviceBuilder(
            defaults: defaults, localRoot: localRoot, configFolder: parentFolder(of: configPath),
            environment: environment, reader: reader)
        var devices: [DeviceConfig] = []
        var firstPosition: [String: SourcePosition] = [:]
        for (index, item) in items.enumerated() {
            let (device, namePosition) = try builder.device(from: item, number: index + 1)
            if let first = firstPosition[device.name] {
                throw reader.error(
                    at: namePosition,
                    "duplicate device name '\(device.name)' (first at line \(first.line), column \(first.column))")
            }
            firstPosition[device.name] = namePosition
            devices.append(device)
        }
        var configuration = Configuration(
            localRoot: localRoot, devices: devices, configPath: configPath, displayPath: path)
        configuration.run = try runSettings(values, configFolder: parentFolder(of: configPath), reader: reader)
        return configuration
    }

    /// The top-level keys about the whole run; relative `metrics_file` paths start at the
    /// configuration file's folder.
    private static func runSettings(
        _ values: [String: YAMLNode], configFolder: String, reader: NodeReader
    ) throws(ConfigError) -> RunSettings {
        var settings = RunSettings()
        if let node = values["metrics_file"] {
            settings.metricsFile = absolutePath(try reader.string(node, key: "metrics_file"), relativeTo: configFolder)
        }
        if let node = values["log_format"] { settings.logFormat = try reader.choice(node, key: "log_format") }
        if let node = values["trash_retention"] {
            guard !node.isNull, let seconds = DurationText.seconds(node.scalarText ?? "") else {
                throw reader.error(
                    at: node.position,
                    "'trash_retention' must be a duration like 30d, 12h or 90m (0 keeps the trash forever), "
                        + "found \(node.shortDescription)")
            }
            settings.trashRetentionSeconds = seconds
        }
        if let node = values["on_finish"] { settings.onFinish = try shellCommand(node, key: "on_finish", reader) }
        if let node = values["on_failure"] { settings.onFailure = try shellCommand(node, key: "on_failure", reader) }
        return settings
    }

    /// A hook's shell command: a non-empty string without NUL (several lines are allowed: the
    /// shell reads them as a script).
    private static func shellCommand(_ node: YAMLNode, key: String, _ reader: NodeReader) throws(ConfigError)
        -> String
    {
        guard let text = node.scalarText, !node.isNull else {
            throw reader.error(at: node.position, "'\(key)' must be a shell command, found \(node.shortDescription)")
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw reader.error(at: node.position, "'\(key)' must not be empty")
        }
        guard !text.contains("\0") else {
            throw reader.error(at: node.position, "'\(key)' must not contain NUL characters")
        }
        return text
    }

    /// The top-level `local` as an absolute path: `~` means `HOME`; relative paths start at the
    /// configuration file's folder.
    private static func resolveRoot(
        _ node: YAMLNode, configFolder: String, environment: [String: String], reader: NodeReader
    ) throws(ConfigError) -> String {
        let text = try reader.string(node, key: "local")
        if text == "~" || text.hasPrefix("~/") {
            guard let home = environment["HOME"], home.hasPrefix("/") else {
                throw reader.error(at: node.position, "'local' starts with '~' but HOME is not set")
            }
            return absolutePath(String(text.dropFirst()).trimmingPrefixSlashes(), relativeTo: home)
        }
        return absolutePath(text, relativeTo: configFolder)
    }
}

extension String {
    fileprivate func trimmingPrefixSlashes() -> String {
        String(drop { $0 == "/" })
    }
}
