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
        var builder = Builder()
        for (path, value) in pairs { builder.append(path, value) }
        self = builder.finish()
    }

    /// Makes a table from pairs given one at a time: those in strictly increasing NFC path
    /// order go straight into the columns; any other order is sorted once, at `finish()`.
    public struct Builder {
        private var table = PathTable()
        private var last: RelativePath?
        private var others: [RelativePath: Value]?

        public init() {}

        /// Adds `value` for `path` (replacing an earlier value of the same path).
        public mutating func append(_ path: RelativePath, _ value: Value) {
            if others != nil {
                others![path] = value
                return
            }
            if path.isNFC, last.map({ $0 < path }) ?? true {
                table.paths.append(path)
                table.values.append(value)
                last = path
                return
            }
            var byPath: [RelativePath: Value] = [:]
            for position in 0..<table.count { byPath[table.paths[position]] = table.values[position] }
            byPath[path] = value
            others = byPath
            table = PathTable()
        }

        /// The table of the pairs added.
        public consuming func finish() -> PathTable {
            guard let others else { return table }
            var sorted = PathTable()
            for (path, value) in others.sorted(by: { $0.key < $1.key }) {
                sorted.paths.append(path)
                sorted.values.append(value)
            }
            if !others.keys.allSatisfy(\.isNFC) {
                var index: [RelativePath: Int] = [:]
                for position in 0..<sorted.count { index[sorted.paths[position]] = position }
                sorted.index = index
            }
            return sorted
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
