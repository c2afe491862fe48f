// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore

extension Configuration {
    /// The devices of `shard` among those named in `names` (all when empty), in file order;
    /// with no shard, `selectDevices(named:)`.
    /// - Throws: `UnknownDeviceError` for a name no device has; `OutsideShardError` when a
    ///   named device belongs to another shard (both usage errors, exit 2).
    public func selectDevices(named names: [String], shard: Shard?) throws -> [DeviceConfig] {
        let named = try selectDevices(named: names)
        guard let shard else { return named }
        if !names.isEmpty {
            let outside = named.filter { !shard.holds($0.name) }
            if !outside.isEmpty {
                throw OutsideShardError(
                    shard: shard, outside: outside.map { ($0.name, Shard.index(of: $0.name, count: shard.count)) })
            }
        }
        return named.filter { shard.holds($0.name) }
    }
}

/// `--device NAME` named a device that `--shard K/N` does not hold: a usage error (exit 2).
public struct OutsideShardError: Error, Sendable, CustomStringConvertible {
    /// The shard the run was given.
    public let shard: Shard
    /// Each named device outside it, with the shard that holds it.
    public let outside: [(name: String, shard: Int)]

    /// `device 'cam-7' is in shard 3/4, not in shard 1/4 (--shard)`, one clause per device.
    public var description: String {
        let clauses = outside.map { "device '\($0.name)' is in shard \($0.shard)/\(shard.count)" }
        return clauses.joined(separator: ", ") + ", not in shard \(shard) (--shard); run it with its own shard"
    }
}
