// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The entries of a `Snapshot` in compact columns (issue 17): an entry costs some 40 bytes and
/// its path's bytes, where a `SnapshotEntry` with its path `String` cost some 170. Each entry
/// read is made again as a `SnapshotEntry`.
struct EntryColumns: Sendable {
    private(set) var paths = PathColumn()
    private var kinds: [EntryKind] = []
    private var sizes: [UInt64] = []
    private var times: [Double] = []
    /// Per entry: bit 0 a size, bit 1 a time, bits 2–3 its granularity.
    private var flags: [UInt8] = []
    private var digests = DigestColumn()
    /// The raw names (legacy encodings), by position: few.
    private var rawNames: [Int: [UInt8]] = [:]

    var count: Int { flags.count }

    mutating func reserve(_ count: Int, bytes: Int) {
        paths.reserve(count: count, bytes: bytes)
        kinds.reserveCapacity(count)
        sizes.reserveCapacity(count)
        times.reserveCapacity(count)
        flags.reserveCapacity(count)
        digests.reserve(count)
    }

    /// Adds `entry` last.
    mutating func append(_ entry: SnapshotEntry) {
        if let rawName = entry.rawName { rawNames[count] = rawName }
        paths.append(entry.path)
        kinds.append(entry.kind)
        sizes.append(entry.size ?? 0)
        times.append(entry.modified?.seconds ?? 0)
        var flag: UInt8 = entry.size == nil ? 0 : 1
        if let time = entry.modified { flag |= 2 | UInt8(time.granularity.rawValue & 3) << 2 }
        flags.append(flag)
        digests.append(entry.digest)
    }

    /// Adds entry `position` of `other` last.
    mutating func append(_ position: Int, of other: EntryColumns) {
        if let rawName = other.rawNames[position] { rawNames[count] = rawName }
        paths.append(position, of: other.paths)
        kinds.append(other.kinds[position])
        sizes.append(other.sizes[position])
        times.append(other.times[position])
        flags.append(other.flags[position])
        digests.append(position, of: other.digests)
    }

    /// What entry `position` is, without making its path.
    func kind(at position: Int) -> EntryKind { kinds[position] }

    /// The entry at `position`.
    subscript(position: Int) -> SnapshotEntry {
        let flag = flags[position]
        let granularity = TimeGranularity(rawValue: Int(flag >> 2 & 3)) ?? .second
        return SnapshotEntry(
            path: paths[position], kind: kinds[position], size: flag & 1 != 0 ? sizes[position] : nil,
            modified: flag & 2 != 0 ? FileTime(seconds: times[position], granularity: granularity) : nil,
            digest: digests[position], rawName: rawNames[position])
    }
}
