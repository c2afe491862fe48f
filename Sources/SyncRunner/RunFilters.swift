// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncConfig
import SyncCore

/// The filter options of a run (`--include`, `--exclude`, `--filter-from`, `--min-size`,
/// `--max-size`, `--min-age`, `--max-age`) and how they meet each device's keys.
///
/// The glob rules add to the device's: the device's `filter_from` lines then the option's file,
/// then the device's `exclude` then `--exclude`, then the device's `include` then `--include`
/// (`FilterRule.combining`: the first match decides). A size or age option replaces the
/// device's key.
public struct RunFilters: Sendable, Equatable {
    /// `--include` patterns, in order.
    public var include: [String] = []
    /// `--exclude` patterns, in order.
    public var exclude: [String] = []
    /// The rules of `--filter-from`, in file order.
    public var filterFrom: [FilterRule] = []
    /// Bytes (`--min-size`, `--max-size`); nil: the device's key.
    public var minSize: Int64?
    public var maxSize: Int64?
    /// Seconds (`--min-age`, `--max-age`); nil: the device's key.
    public var minAge: Int?
    public var maxAge: Int?

    /// No filter options: each device's keys alone.
    public init() {}

    /// The glob rules of `device` with these options, in the order they apply.
    /// With `hidden: false` dot files and folders are left out first, on both sides (`- .*`):
    /// the device's listing may not show them, so they are never uploaded over, nor deleted
    /// for being missing.
    public func rules(for device: DeviceConfig) -> [FilterRule] {
        let hidden = device.hidden ? [] : [FilterRule(include: false, pattern: ".*")]
        return hidden
            + FilterRule.combining(
                filterFrom: device.filterRules + filterFrom, exclude: device.exclude + exclude,
                include: device.include + include)
    }

    /// The size and age bounds of `device` with these options.
    public func bounds(for device: DeviceConfig) -> FileBounds {
        FileBounds(
            minimumSize: (minSize ?? device.minSize).map { UInt64(clamping: $0) },
            maximumSize: (maxSize ?? device.maxSize).map { UInt64(clamping: $0) },
            maximumAge: (maxAge ?? device.maxAge).map(Double.init))
    }

    /// Seconds of `min_age` for `device` (`--min-age` over the key).
    public func minimumAge(for device: DeviceConfig) -> Int { minAge ?? device.minAge }
}
