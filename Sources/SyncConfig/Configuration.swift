// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The validated configuration file: the local tree's root and its devices, in file order.
public struct Configuration: Sendable, Hashable {
    /// Absolute, normalized path of the local tree's root (`local`, resolved against the
    /// configuration file's folder).
    public var localRoot: String
    /// The devices in the order of the file; names are unique.
    public var devices: [DeviceConfig]
    /// Absolute, normalized path of the configuration file.
    public var configPath: String
    /// The configuration file's path as the user gave it; the `file` of every `ConfigError`.
    public var displayPath: String
    /// The run's settings that are not about one device (the top-level keys beside `local`).
    public var run: RunSettings = RunSettings()

    /// Creates a configuration from validated parts (tests and tools; the loader builds it from a file).
    public init(localRoot: String, devices: [DeviceConfig], configPath: String, displayPath: String? = nil) {
        self.localRoot = localRoot
        self.devices = devices
        self.configPath = configPath
        self.displayPath = displayPath ?? configPath
    }

    /// The device called `name` (exact, case-sensitive), or nil.
    public func device(named name: String) -> DeviceConfig? {
        devices.first { $0.name == name }
    }

    /// The devices named in `names`, in file order and each once; all devices when `names` is empty.
    /// - Throws: `UnknownDeviceError` (a usage error) naming every unknown name and listing the known ones.
    public func selectDevices(named names: [String]) throws(UnknownDeviceError) -> [DeviceConfig] {
        guard !names.isEmpty else { return devices }
        let known = Set(devices.map(\.name))
        let unknown = names.filter { !known.contains($0) }
        if !unknown.isEmpty {
            var seen = Set<String>()
            throw UnknownDeviceError(
                unknownNames: unknown.filter { seen.insert($0).inserted }, knownNames: devices.map(\.name))
        }
        let wanted = Set(names)
        return devices.filter { wanted.contains($0.name) }
    }
}

/// The top-level keys of the configuration that concern a whole run (CONTRACT.md 0.2); the
/// command line's options of the same names override them.
public struct RunSettings: Sendable, Hashable {
    /// `metrics_file`: absolute path of the Prometheus text file written at the end of every run;
    /// nil when not set.
    public var metricsFile: String?
    /// `log_format`: how `--log` lines are written; nil when not set (text).
    public var logFormat: LogFormat?
    /// `trash_retention`: seconds pull's trash keeps a run's folder; 0 keeps them forever.
    public var trashRetentionSeconds: Int
    /// `on_finish`: a shell command run after every run; nil when not set.
    public var onFinish: String?
    /// `on_failure`: a shell command run after a run whose exit code is not 0; nil when not set.
    public var onFailure: String?

    /// `trash_retention`'s default: 30 days, in seconds.
    public static let defaultTrashRetentionSeconds = 30 * 86_400

    /// Settings from their parts; the defaults are those of a file without the keys.
    public init(
        metricsFile: String? = nil, logFormat: LogFormat? = nil,
        trashRetentionSeconds: Int = RunSettings.defaultTrashRetentionSeconds, onFinish: String? = nil,
        onFailure: String? = nil
    ) {
        self.metricsFile = metricsFile
        self.logFormat = logFormat
        self.trashRetentionSeconds = trashRetentionSeconds
        self.onFinish = onFinish
        self.onFailure = onFailure
    }
}

/// How the log file's lines are written (`log_format`, `--log-format`).
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// One line of text per event (`<UTC time> <message>`).
    case text
    /// One JSON object per line (`time`, `level`, `event`, `device`, `path`, …).
    case json
}

/// `--device NAME` named a device the configuration does not have (a usage error, exit 2).
public struct UnknownDeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The names asked for that no device has, in the order given, each once.
    public let unknownNames: [String]
    /// Every device name of the configuration, in file order.
    public let knownNames: [String]

    /// Creates the error for `unknownNames` given the configuration's `knownNames`.
    public init(unknownNames: [String], knownNames: [String]) {
        self.unknownNames = unknownNames
        self.knownNames = knownNames
    }

    /// `unknown device 'x'; known devices: a, b` (plural form for several unknown names).
    public var description: String {
        let quoted = unknownNames.map { "'\($0)'" }.joined(separator: ", ")
        let noun = unknownNames.count == 1 ? "device" : "devices"
        return "unknown \(noun) \(quoted); known devices: \(knownNames.joined(separator: ", "))"
    }
}
