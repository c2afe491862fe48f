// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import SyncConfig
import SyncCore
import SyncRunner

/// What a device's filters and the filter options say of the entries `ls` lists: left out
/// (`excluded`), held for a later run by `min_age` (`held`), or taken by a run (both nil).
struct LsFilter {
    let rules: FilterRules
    let bounds: FileBounds
    /// Seconds (`min_age`; 0: off).
    let minimumAge: Int
    /// The clock ages are measured against.
    let now: Date
    /// The listed folder relative to the device's root ("" for the root, or a folder outside it).
    let folder: String

    /// What a filter says of one entry.
    struct Verdict {
        var excluded: String?
        var held: String?
    }

    /// The filter of `device` with `filters`, for the entries of the absolute folder `path`.
    /// - Throws: `FilterRules.InvalidPattern` for an empty pattern.
    init(device: DeviceConfig, filters: RunFilters, path: String, now: Date) throws(FilterRules.InvalidPattern) {
        rules = try FilterRules(filters.rules(for: device))
        bounds = filters.bounds(for: device)
        minimumAge = filters.minimumAge(for: device)
        self.now = now
        folder = Self.relative(path, root: device.remote)
    }

    /// `path` relative to `root` (both absolute), without slashes at either end; "" for the
    /// root itself or a path outside it.
    static func relative(_ path: String, root: String) -> String {
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        guard path.hasPrefix(base + "/") else { return "" }
        return String(path.dropFirst(base.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }

    /// What the filters say of `entry` of the listed folder.
    func verdict(_ entry: ListingEntry) -> Verdict {
        let path = folder.isEmpty ? entry.name : folder + "/" + entry.name
        let (excluded, rule) = rules.decision(path: path, isFolder: entry.type == .dir)
        if excluded {
            let why = rule.map { "rule '\($0.include ? "+" : "-") \($0.pattern)'" } ?? "no include rule matches"
            return Verdict(excluded: why)
        }
        guard entry.type == .file else { return Verdict() }
        let size = entry.sizeIsExact ? entry.size : nil
        let modified = entry.modified?.date.timeIntervalSince1970
        if let why = bounds.excludesFile(size: size, modified: modified, now: now) { return Verdict(excluded: why) }
        if minimumAge > 0, let modified, now.timeIntervalSince1970 - modified < Double(minimumAge) {
            return Verdict(held: "modified less than \(minimumAge) s ago (min_age): left for a later run")
        }
        return Verdict()
    }
}
