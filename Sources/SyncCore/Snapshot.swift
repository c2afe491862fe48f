// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a snapshot entry is. Only files are transferred; folders are made; links and
/// other kinds are reported and left alone.
public enum EntryKind: String, Sendable, Hashable, Codable {
    case file
    case directory
    case symlink
    case other
}

/// One path of a snapshot: what one side (the local tree or a device) holds at that path.
public struct SnapshotEntry: Sendable, Hashable {
    /// Where, relative to the device's root.
    public var path: RelativePath
    public var kind: EntryKind
    /// Size in bytes; nil when unknown (folders, links, approximate LIST sizes).
    public var size: UInt64?
    /// Modification time, nil when the side gave none.
    public var modified: FileTime?
    /// XXH3-128 digest as 32 lowercase hex digits (local files only, when hashed).
    public var digest: String?
    /// The name's bytes as the server sent them, when they differ from the UTF-8 of the path's last
    /// component (legacy encodings); used for commands.
    public var rawName: [UInt8]?

    public init(
        path: RelativePath, kind: EntryKind, size: UInt64? = nil, modified: FileTime? = nil, digest: String? = nil,
        rawName: [UInt8]? = nil
    ) {
        self.path = path
        self.kind = kind
        self.size = size
        self.modified = modified
        self.digest = digest
        self.rawName = rawName
    }
}

/// Everything one side holds under a device's root, sorted by path (the root itself excluded).
///
/// Lookups are binary searches and two snapshots are joined by one merge pass, both exact when
/// every path is in Unicode NFC (then equal paths have equal bytes and `RelativePath.<` is a
/// total order). A snapshot holding another spelling keeps a hash index instead.
public struct Snapshot: Sendable {
    /// The entries, in compact columns (`EntryColumns`).
    private var columns: EntryColumns
    /// Position by path, only when some path is not in NFC (nil: binary search and merge).
    private var index: [RelativePath: Int]?
    /// Folders whose content this side could not read in full (a listing that failed, was cut
    /// short or looked like another folder's; a local folder that could not be read): what is
    /// absent below them is unknown, not absent. The planners delete, rename and overwrite
    /// nothing at or below them (see `UnknownFolders`).
    public var unknown: Set<RelativePath> = []
    /// Folders whose dot-names (`.config`) are unknown: listed in a way that may leave them
    /// out (`STAT`, whose `ls` hides them) and showing none. A dot-name absent there, and what
    /// lies below a dot-folder there, is unknown, not absent (see `UnknownFolders`).
    public var hiddenUnknown: Set<RelativePath> = []
    /// The paths of this side's entries the glob rules (`FilterRules`) left out. The other
    /// side's entry at such a path is left out too (a rule `x/` leaves out a folder `x` here
    /// and would let a file `x` there be deleted as extraneous), and no folder holding one is
    /// deleted: it would take what was left out along (`WalkLedger`).
    public var leftOut: Set<RelativePath> = []

    /// Entries in `RelativePath` order, one per path; each is made from the columns when read.
    public var entries: Entries { Entries(columns: columns) }

    /// The entries of a snapshot, in path order.
    public struct Entries: RandomAccessCollection, Equatable, Sendable {
        fileprivate let columns: EntryColumns
        public var startIndex: Int { 0 }
        public var endIndex: Int { columns.count }
        /// The entry at `position` (`0..<count`).
        public subscript(position: Int) -> SnapshotEntry { columns[position] }

        public static func == (lhs: Entries, rhs: Entries) -> Bool { lhs.elementsEqual(rhs) }
    }

    /// Builds a snapshot; entries are sorted, and of two entries for one path the first is kept.
    public init(_ entries: [SnapshotEntry]) {
        var builder = Builder(reserving: entries.count, bytes: entries.reduce(0) { $0 + $1.path.string.utf8.count })
        for entry in entries { builder.append(entry) }
        self = builder.finish()
    }

    /// Builds a snapshot as `init(_:)` does, with the folders whose content is unknown.
    public init(_ entries: [SnapshotEntry], unknown: Set<RelativePath>) {
        self.init(entries)
        self.unknown = unknown
    }

    private init(sorted columns: EntryColumns, index: [RelativePath: Int]?, unknownOf other: Snapshot) {
        self.init(sorted: columns, index: index, unknown: other.unknown, hiddenUnknown: other.hiddenUnknown)
        leftOut = other.leftOut
    }

    private init(
        sorted columns: EntryColumns, index: [RelativePath: Int]?, unknown: Set<RelativePath>,
        hiddenUnknown: Set<RelativePath>
    ) {
        self.columns = columns
        self.index = index
        self.unknown = unknown
        self.hiddenUnknown = hiddenUnknown
    }

    private static func positions(of columns: EntryColumns) -> [RelativePath: Int] {
        var index: [RelativePath: Int] = [:]
        index.reserveCapacity(columns.count)
        for position in 0..<columns.count { index[columns.paths[position]] = position }
        return index
    }

    /// The entry at `path`, if any.
    public subscript(path: RelativePath) -> SnapshotEntry? {
        position(of: path).map { columns[$0] }
    }

    public var count: Int { columns.count }

    /// What the entry at `position` is, without making its path.
    func kind(at position: Int) -> EntryKind { columns.kind(at: position) }

    /// Where `path` is in `entries`, if present.
    func position(of path: RelativePath) -> Int? {
        if let index { return index[path] }
        return columns.paths.search(path.canonical)
    }

    /// For each entry, the position of the same path in `other`, or -1: one merge pass when both
    /// snapshots are NFC, otherwise a lookup per entry.
    func positions(in other: Snapshot) -> [Int] {
        guard index == nil, other.index == nil else { return entries.map { other.position(of: $0.path) ?? -1 } }
        var result = [Int](repeating: -1, count: count)
        let mine = columns.paths
        let theirs = other.columns.paths
        var j = 0
        for i in 0..<mine.count {
            while j < theirs.count && theirs.precedes(j, mine, i) { j += 1 }
            if j == theirs.count { break }
            if theirs.hasSameBytes(j, mine, i) { result[i] = j }
        }
        return result
    }

    /// Makes a snapshot from entries given one at a time, in compact form as they come (a scan
    /// of one folder of 100,000 names holds no array of entries): strictly increasing NFC paths
    /// go straight into the columns; any other order is sorted once, at `finish(unknown:)`, as
    /// `init(_:)` sorts it.
    public struct Builder {
        private var columns = EntryColumns()
        /// True while every path came after the one before (so all are distinct).
        private var ordered = true
        private var canonical = true

        public init() {}

        init(reserving count: Int, bytes: Int) {
            columns.reserve(count, bytes: bytes)
        }

        /// How many entries were added.
        public var count: Int { columns.count }

        /// Adds `entry` (of two entries for one path the first is kept).
        public mutating func append(_ entry: SnapshotEntry) {
            if canonical && !entry.path.isNFC { canonical = false }
            if ordered, columns.count > 0, !columns.paths.precedes(columns.count - 1, entry.path) { ordered = false }
            columns.append(entry)
        }

        /// The snapshot of the entries added, with the folders whose content is unknown.
        public consuming func finish(unknown: Set<RelativePath> = []) -> Snapshot {
            if !ordered || !canonical { columns = Self.sortedUnique(columns, canonical: canonical) }
            return Snapshot(
                sorted: columns, index: canonical ? nil : Snapshot.positions(of: columns), unknown: unknown,
                hiddenUnknown: [])
        }

        /// `columns` in path order, of two entries for one path (equal strings) the first kept:
        /// a sort of positions, the entries copied once. NFC paths are equal when their bytes
        /// are (neighbours once sorted); other spellings are told apart by a set first.
        private static func sortedUnique(_ columns: EntryColumns, canonical: Bool) -> EntryColumns {
            let paths = columns.paths
            var positions = Array(0..<columns.count)
            if !canonical {
                var seen = Set<RelativePath>()
                positions = positions.filter { seen.insert(paths[$0]).inserted }
            }
            let order = positions.sorted { a, b in
                paths.precedes(a, paths, b) || (!paths.precedes(b, paths, a) && a < b)
            }
            var sorted = EntryColumns()
            sorted.reserve(columns.count, bytes: paths.bytes.count)
            var previous: Int?
            for position in order {
                if canonical, let previous, paths.hasSameBytes(previous, paths, position) { continue }
                sorted.append(position, of: columns)
                previous = position
            }
            return sorted
        }
    }

    /// The entries at `positions`, with this snapshot's unknown folders (a walk plans a huge
    /// folder a slice at a time).
    func slice(_ positions: Range<Int>) -> Snapshot {
        var part = EntryColumns()
        for position in positions.clamped(to: 0..<count) { part.append(position, of: columns) }
        return Snapshot(sorted: part, index: index == nil ? nil : Snapshot.positions(of: part), unknownOf: self)
    }

    /// The positions of `slice(range)` that `part` (a filter of that slice) left out, as
    /// positions of this snapshot.
    func positions(leftOutOf range: Range<Int>, by part: Snapshot) -> [Int] {
        let sliceCount = range.clamped(to: 0..<count).count
        guard part.count < sliceCount else { return [] }
        let sliced = slice(range)
        let found = sliced.positions(in: part)
        return found.indices.filter { found[$0] < 0 }.map { range.lowerBound + $0 }
    }

    /// This snapshot without the entries at `positions` (sorted).
    func removing(positions: [Int]) -> Snapshot {
        guard !positions.isEmpty else { return self }
        var next = 0
        return filterPositions { position in
            if next < positions.count && positions[next] == position {
                next += 1
                return false
            }
            return true
        }
    }

    /// The entries `keep` accepts, in order; the snapshot itself when it accepts all of them.
    func filter(_ keep: (SnapshotEntry) -> Bool) -> Snapshot {
        filterPositions { keep(columns[$0]) }
    }

    /// The entries whose position `keep` accepts, in order; the snapshot itself when it accepts
    /// all of them.
    private func filterPositions(_ keep: (Int) -> Bool) -> Snapshot {
        var kept: EntryColumns?
        for position in 0..<count {
            let accepted = keep(position)
            if kept == nil && !accepted {
                var head = EntryColumns()
                for earlier in 0..<position { head.append(earlier, of: columns) }
                kept = head
            }
            if accepted { kept?.append(position, of: columns) }
        }
        guard let kept else { return self }
        // Removing entries from a sorted, duplicate-free list keeps it so.
        return Snapshot(sorted: kept, index: index == nil ? nil : Snapshot.positions(of: kept), unknownOf: self)
    }
}
