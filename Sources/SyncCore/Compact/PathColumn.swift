// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Paths kept as UTF-8 bytes in one buffer, one after another (issue 17: compact entries): a
/// path costs its bytes and one offset, not a `String` of its own. A path is made again as a
/// `RelativePath` each time it is read.
///
/// Kept in `RelativePath` order by its owner; `position(of:)` is then a binary search on the
/// bytes. When some path is not in NFC, the owner keeps a hash index instead (as `Snapshot`).
struct PathColumn: Sendable, Hashable {
    /// Every path's bytes, in order.
    private(set) var bytes: [UInt8] = []
    /// Where each path's bytes end in `bytes`.
    private(set) var ends: [Int] = []

    var count: Int { ends.count }

    /// Room for `count` more paths of `bytes` bytes in all.
    mutating func reserve(count: Int, bytes more: Int) {
        ends.reserveCapacity(ends.count + max(0, count))
        bytes.reserveCapacity(bytes.count + max(0, more))
    }

    /// Adds `path` last.
    mutating func append(_ path: RelativePath) {
        bytes.append(contentsOf: path.string.utf8)
        ends.append(bytes.count)
    }

    /// The bytes of path `position`.
    func range(_ position: Int) -> Range<Int> {
        (position == 0 ? 0 : ends[position - 1])..<ends[position]
    }

    /// The path at `position`.
    subscript(position: Int) -> RelativePath {
        RelativePath(trusted: String(decoding: bytes[range(position)], as: UTF8.self))
    }

    /// True when the path at `position` has the bytes of `path`.
    func hasBytes(of path: RelativePath, at position: Int) -> Bool {
        bytes[range(position)].elementsEqual(path.string.utf8)
    }

    /// True when the path at `position` sorts before `key` (`RelativePath.<`).
    func precedes(_ position: Int, _ key: RelativePath) -> Bool {
        let span = range(position)
        let fast = bytes.withUnsafeBufferPointer { all in
            key.string.utf8.withContiguousStorageIfAvailable { theirs in
                PathBytes.order(UnsafeBufferPointer(rebasing: all[span]), theirs)
            } ?? nil
        }
        if let decided = fast { return decided }
        return self[position] < key
    }

    /// Where `key` is, by binary search, when the paths are sorted and in NFC and `key` is too.
    func search(_ key: RelativePath) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = low + (high - low) / 2
            if precedes(middle, key) { low = middle + 1 } else { high = middle }
        }
        return low < count && hasBytes(of: key, at: low) ? low : nil
    }
}

extension PathColumn {
    /// True when path `position` sorts before path `other` of `column` (`RelativePath.<`).
    func precedes(_ position: Int, _ column: PathColumn, _ other: Int) -> Bool {
        let mine = range(position)
        let theirs = column.range(other)
        let fast = bytes.withUnsafeBufferPointer { a in
            column.bytes.withUnsafeBufferPointer { b in
                PathBytes.order(UnsafeBufferPointer(rebasing: a[mine]), UnsafeBufferPointer(rebasing: b[theirs]))
            }
        }
        if let decided = fast { return decided }
        return self[position] < column[other]
    }

    /// True when path `position` and path `other` of `column` have the same bytes.
    func hasSameBytes(_ position: Int, _ column: PathColumn, _ other: Int) -> Bool {
        bytes[range(position)].elementsEqual(column.bytes[column.range(other)])
    }

    /// Adds path `position` of `column` last, its bytes copied.
    mutating func append(_ position: Int, of column: PathColumn) {
        bytes.append(contentsOf: column.bytes[column.range(position)])
        ends.append(bytes.count)
    }
}
