// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// How much of a device's listing the state's records recognise: the evidence that the server
/// at a device's address still holds the device's own files (issue 14 item 18). A camera of
/// the same model swapped in at the same address shows the same banner, SYST and FEAT; only its
/// files differ. Pure: compares a listing with the records, touches nothing.
public struct ListingOverlap: Sendable, Equatable {
    /// Fewest records before the overlap is judged (a young state proves little).
    public static let minimumRecords = 20
    /// Below this share (percent) of the records found again (a file at the recorded path, or
    /// one of the recorded name and size elsewhere) the listing is another tree.
    public static let minimumSharePercent = 10

    /// Records of files that count: not below a folder the listing could not read in full.
    public let records: Int
    /// Of those, the ones the listing holds as a file at their path (any size: rewritten on the
    /// device), or (moved, a folder renamed) at another path with their name and size.
    public let matched: Int
    /// Files of the listing no record recognises (another path, or another size).
    public let unrecognised: Int

    /// Measures the overlap of `remote` (the device's listing) with `records` (the state).
    public init(remote: Snapshot, records: [RelativePath: FileRecord]) {
        var counted = 0
        var found = Set<RelativePath>()
        var moved: [RelativePath: FileRecord] = [:]
        for (path, record) in records where !record.offloaded {
            if remote.unknown.contains(where: { $0 == path || $0.isAncestor(of: path) }) { continue }
            counted += 1
            // At its path, whatever its size now (files are rewritten on the device itself).
            if let entry = remote[path], entry.kind == .file {
                found.insert(path)
            } else {
                moved[path] = record
            }
        }
        // A file moved or its folder renamed keeps its name and size: found again elsewhere.
        var elsewhere: [String: Int] = [:]
        for entry in remote.entries where entry.kind == .file && !found.contains(entry.path) {
            elsewhere[Self.key(entry.path.name, entry.size), default: 0] += 1
        }
        var foundElsewhere = 0
        for (path, record) in moved {
            let key = Self.key(path.name, record.remoteSize)
            guard let left = elsewhere[key], left > 0 else { continue }
            elsewhere[key] = left - 1
            foundElsewhere += 1
        }
        self.records = counted
        matched = found.count + foundElsewhere
        unrecognised = elsewhere.values.reduce(0, +)
    }

    /// The overlap from its counts (`Tally`).
    init(records: Int, matched: Int, unrecognised: Int) {
        self.records = records
        self.matched = matched
        self.unrecognised = unrecognised
    }

    /// The overlap counted one folder at a time (a folder walk): the same numbers as
    /// `init(remote:records:)` over the whole listing while the records not found at their
    /// path and the listed files without a record at theirs (kept by name and size, to find
    /// them again elsewhere) number at most `keyLimit` keys. Past that, only the keys of a
    /// sample are kept (those whose hash has its top `sampleBits` bits clear: half of them,
    /// then a quarter, …) and what they match is scaled back up, so memory stays bounded
    /// however many files moved or are new (issue 17); `found` and the record count stay exact.
    struct Tally {
        /// The most keys kept (records not found, files not recorded): 100,000.
        static let defaultKeyLimit = 100_000

        private let keyLimit: Int
        private var counted = 0
        private var found = 0
        private var moved: [String: Int] = [:]
        private var elsewhere: [String: Int] = [:]
        /// The keys kept are those whose hash has its top `sampleBits` bits clear.
        private var sampleBits = 0
        /// Records at a path the device lists as a folder: they count unless that folder turns
        /// out unknown (known once it is listed).
        private var atFolders: [(RelativePath, FileRecord)] = []

        init(keyLimit: Int = Tally.defaultKeyLimit) {
            self.keyLimit = max(1, keyLimit)
        }

        /// Adds one folder: `listing` its entries on the device (none when it has no such
        /// folder), `records` the records directly in it, `unknown` true when the folder or one
        /// above it could not be listed in full.
        mutating func add(listing: Snapshot, records: some Sequence<FileRecord>, unknown: Bool) {
            // Which listed entries have a record, by position: no set of paths.
            var recorded = [Bool](repeating: false, count: listing.count)
            // An offloaded file left the device on purpose: its record proves nothing either way.
            for record in records where !unknown && !record.offloaded {
                let position = listing.position(of: record.path)
                switch position.map({ listing.entries[$0].kind }) {
                case .file?:
                    counted += 1
                    found += 1
                    if let position { recorded[position] = true }
                case .directory?:
                    atFolders.append((record.path, record))
                default:
                    counted += 1
                    Self.keep(
                        ListingOverlap.key(record.path.name, record.remoteSize), in: &moved, sampleBits: sampleBits)
                }
            }
            for (position, entry) in listing.entries.enumerated() where entry.kind == .file && !recorded[position] {
                Self.keep(ListingOverlap.key(entry.path.name, entry.size), in: &elsewhere, sampleBits: sampleBits)
            }
            while moved.count + elsewhere.count > keyLimit && sampleBits < 63 {
                sampleBits += 1
                let bits = sampleBits
                moved = moved.filter { Self.sampled($0.key, bits: bits) }
                elsewhere = elsewhere.filter { Self.sampled($0.key, bits: bits) }
            }
        }

        /// How many keys are kept now (at most `keyLimit` after each folder).
        var keysKept: Int { moved.count + elsewhere.count }

        /// Counts `key` in `counts` (in place: a method of `self` taking `&self.moved` would copy
        /// the dictionary at each call) when it is in the sample of `sampleBits`.
        private static func keep(_ key: String, in counts: inout [String: Int], sampleBits: Int) {
            if sampled(key, bits: sampleBits) { counts[key, default: 0] += 1 }
        }

        /// Whether `key` is in the sample: the top `bits` bits of its FNV-1a hash are clear.
        private static func sampled(_ key: String, bits: Int) -> Bool {
            guard bits > 0 else { return true }
            return FNV1a.hash(key.utf8) >> (64 - bits) == 0
        }

        /// The overlap, `unknownFolders` being every folder the device could not list in full.
        func overlap(unknownFolders: Set<RelativePath>) -> ListingOverlap {
            var counted = counted
            var moved = moved
            for (path, record) in atFolders where !unknownFolders.contains(path) {
                counted += 1
                Self.keep(ListingOverlap.key(path.name, record.remoteSize), in: &moved, sampleBits: sampleBits)
            }
            var taken = 0
            var left = 0
            for (key, listed) in elsewhere {
                let matching = min(listed, moved[key] ?? 0)
                taken += matching
                left += listed - matching
            }
            // A sample of 1 in 2^sampleBits keys stands for all of them.
            let scale = Int64(1) << sampleBits
            let matched = Saturating.add(Int64(found), Saturating.multiply(Int64(taken), scale))
            let unrecognised = Saturating.multiply(Int64(left), scale)
            return ListingOverlap(
                records: counted, matched: Int(clamping: min(matched, Int64(counted))),
                unrecognised: Int(clamping: unrecognised))
        }
    }

    private static func key(_ name: String, _ size: UInt64?) -> String {
        name + "\u{0}" + (size.map(String.init) ?? "-")
    }

    /// True when the listing is another tree: at least `minimumRecords` records, fewer than
    /// `minimumSharePercent` of them found again, and files of its own in the listing (an emptied
    /// card, with no files at all, is left to the delete limit instead).
    public var isAnotherTree: Bool {
        records >= Self.minimumRecords && matched * 100 < records * Self.minimumSharePercent && unrecognised > 0
    }

    /// The refusal's message for a device at `host`, saying what was measured and how to accept.
    public func refusal(host: String) -> String {
        "the server at \(host) lists another tree than this device's: \(matched) of \(records) recorded files "
            + "found (by path, or by name and size), \(unrecognised) listed files not recorded; probably another device at "
            + "the same address, so nothing was changed for this device. If it is the same device (its card was "
            + "replaced or reformatted), run once with --accept-new-identity"
    }
}
