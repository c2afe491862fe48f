import Foundation

/// Values by path in compact form (issue 17): the paths' bytes in one buffer beside an array
/// of values, sorted by path and looked up by binary search (a hash index only when some path
/// is not in NFC). What a scan keeps of its files' identities, without a dictionary of
/// `RelativePath` keys.
public struct PathTable<Value: Sendable>: Sendable {
    private var paths = PathColumn()
    private var values: [Value] = []
    private var index: [RelativePath: Int]?

    /// No values.
    public init() {}

    /// `pairs` sorted by path; of two values for one path the last is kept.
    public init(_ pairs: some Sequence<(RelativePath, Value)>) {
        var byPath: [RelativePath: Value] = [:]
        var ordered = true
        var last: RelativePath?
        for (path, value) in pairs {
            if ordered, path.isNFC, last.map({ $0 < path }) ?? true {
                paths.append(path)
                values.append(value)
                last = path
                continue
            }
            if ordered {
                // Another order: collected and sorted once.
                ordered = false
                for position in 0..<paths.count { byPath[paths[position]] = values[position] }
                paths = PathColumn()
                values = []
            }
            byPath[path] = value
        }
        guard !ordered else { return }
        for (path, value) in byPath.sorted(by: { $0.key < $1.key }) {
            paths.append(path)
            values.append(value)
        }
        if !byPath.keys.allSatisfy(\.isNFC) {
            var index: [RelativePath: Int] = [:]
            for position in 0..<paths.count { index[paths[position]] = position }
            self.index = index
        }
    }

    /// How many paths have a value.
    public var count: Int { values.count }

    /// The value of `path`, if any.
    public subscript(_ path: RelativePath) -> Value? {
        guard let position = index.map({ $0[path] }) ?? paths.search(path.canonical) else { return nil }
        return values[position]
    }

    /// The paths and their values, in path order.
    public var pairs: [(path: RelativePath, value: Value)] {
        (0..<count).map { (paths[$0], values[$0]) }
    }
}

extension PathTable: Equatable where Value: Equatable {
    /// Equal when they hold the same paths (same bytes) with equal values.
    public static func == (lhs: PathTable, rhs: PathTable) -> Bool {
        lhs.count == rhs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.path == $1.path && $0.value == $1.value }
    }
}
