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
