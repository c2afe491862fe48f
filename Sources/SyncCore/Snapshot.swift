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
public struct Snapshot: Sendable {
    /// Entries in `RelativePath` order, one per path.
    public private(set) var entries: [SnapshotEntry]
    private var index: [RelativePath: Int]

    /// Builds a snapshot; entries are sorted, and of two entries for one path the first is kept.
    public init(_ entries: [SnapshotEntry]) {
        // Fast path (scanners and planners hand over sorted entries): strictly increasing input
        // with no two equal paths is kept as is, skipping the duplicate filter and the sort.
        if entries.indices.dropFirst().allSatisfy({ entries[$0 - 1].path < entries[$0].path }) {
            var index: [RelativePath: Int] = [:]
            index.reserveCapacity(entries.count)
            var unique = true
            for (i, e) in entries.enumerated() where index.updateValue(i, forKey: e.path) != nil {
                unique = false
                break
            }
            if unique {
                self.entries = entries
                self.index = index
                return
            }
        }
        var seen = Set<RelativePath>()
        let unique = entries.filter { seen.insert($0.path).inserted }
        self.entries = unique.sorted { $0.path < $1.path }
        var index: [RelativePath: Int] = [:]
        index.reserveCapacity(self.entries.count)
        for (i, e) in self.entries.enumerated() { index[e.path] = i }
        self.index = index
    }

    /// The entry at `path`, if any.
    public subscript(path: RelativePath) -> SnapshotEntry? {
        index[path].map { entries[$0] }
    }

    public var count: Int { entries.count }
}
