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
    /// Entries in `RelativePath` order, one per path.
    public private(set) var entries: [SnapshotEntry]
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

    /// Builds a snapshot; entries are sorted, and of two entries for one path the first is kept.
    public init(_ entries: [SnapshotEntry]) {
        let canonical = entries.allSatisfy { $0.path.isNFC }
        // Fast path (scanners and planners hand over sorted entries): strictly increasing NFC
        // paths are distinct, so the input is kept as is.
        if canonical && entries.indices.dropFirst().allSatisfy({ entries[$0 - 1].path < entries[$0].path }) {
            self.entries = entries
            index = nil
            return
        }
        var seen = Set<RelativePath>()
        let unique = entries.filter { seen.insert($0.path).inserted }
        self.entries = unique.sorted { $0.path < $1.path }
        index = canonical ? nil : Snapshot.positions(of: self.entries)
    }

    /// Builds a snapshot as `init(_:)` does, with the folders whose content is unknown.
    public init(_ entries: [SnapshotEntry], unknown: Set<RelativePath>) {
        self.init(entries)
        self.unknown = unknown
    }

    private init(sorted entries: [SnapshotEntry], index: [RelativePath: Int]?, unknownOf other: Snapshot) {
        self.entries = entries
        self.index = index
        unknown = other.unknown
        hiddenUnknown = other.hiddenUnknown
    }

    private static func positions(of entries: [SnapshotEntry]) -> [RelativePath: Int] {
        var index: [RelativePath: Int] = [:]
        index.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() { index[e.path] = i }
        return index
    }

    /// The entry at `path`, if any.
    public subscript(path: RelativePath) -> SnapshotEntry? {
        position(of: path).map { entries[$0] }
    }

    public var count: Int { entries.count }

    /// Where `path` is in `entries`, if present.
    func position(of path: RelativePath) -> Int? {
        if let index { return index[path] }
        let key = path.canonical
        var low = 0
        var high = entries.count
        while low < high {
            let middle = low + (high - low) / 2
            if entries[middle].path < key { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].path == key ? low : nil
    }

    /// For each entry, the position of the same path in `other`, or -1: one merge pass when both
    /// snapshots are NFC, otherwise a lookup per entry.
    func positions(in other: Snapshot) -> [Int] {
        guard index == nil, other.index == nil else { return entries.map { other.position(of: $0.path) ?? -1 } }
        var result = [Int](repeating: -1, count: entries.count)
        let theirs = other.entries
        var j = 0
        for (i, entry) in entries.enumerated() {
            while j < theirs.count && theirs[j].path < entry.path { j += 1 }
            if j == theirs.count { break }
            if theirs[j].path == entry.path { result[i] = j }
        }
        return result
    }

    /// The entries `keep` accepts, in order; the snapshot itself when it accepts all of them.
    func filter(_ keep: (SnapshotEntry) -> Bool) -> Snapshot {
        var kept: [SnapshotEntry]?
        for (i, entry) in entries.enumerated() {
            let accepted = keep(entry)
            if kept == nil && !accepted { kept = Array(entries[..<i]) }
            if accepted { kept?.append(entry) }
        }
        guard let kept else { return self }
        // Removing entries from a sorted, duplicate-free list keeps it so.
        return Snapshot(sorted: kept, index: index == nil ? nil : Snapshot.positions(of: kept), unknownOf: self)
    }
}
