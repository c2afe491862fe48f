// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

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
        /// Once the order broke: by path, the spelling given last and its value.
        private var others: [RelativePath: (path: RelativePath, value: Value)]?

        public init() {}

        /// Adds `value` for `path` (replacing an earlier value of the same path, in another
        /// spelling too: the last spelling is the one kept).
        public mutating func append(_ path: RelativePath, _ value: Value) {
            if others != nil {
                others![path] = (path, value)
                return
            }
            if path.isNFC, last.map({ $0 < path }) ?? true {
                table.paths.append(path)
                table.values.append(value)
                last = path
                return
            }
            var byPath: [RelativePath: (path: RelativePath, value: Value)] = [:]
            for position in 0..<table.count {
                let kept = table.paths[position]
                byPath[kept] = (kept, table.values[position])
            }
            byPath[path] = (path, value)
            others = byPath
            table = PathTable()
        }

        /// The table of the pairs added.
        public consuming func finish() -> PathTable {
            guard let others else { return table }
            var sorted = PathTable()
            for (path, value) in others.values.sorted(by: { $0.path < $1.path }) {
                sorted.paths.append(path)
                sorted.values.append(value)
            }
            // The index is chosen on the spellings kept (a path's first spelling is the
            // dictionary's key, its last the one kept: NFC then NFD in SQLite's byte order).
            if !others.values.allSatisfy(\.path.isNFC) {
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
        position(of: path).map { values[$0] }
    }

    /// Where `path` is, if it has a value.
    func position(of path: RelativePath) -> Int? {
        if let index { return index[path] }
        return paths.search(path.canonical)
    }

    /// The path and the value at `position` (`0..<count`).
    func path(at position: Int) -> RelativePath { paths[position] }
    func value(at position: Int) -> Value { values[position] }

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
