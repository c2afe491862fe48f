// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The order transfers start in (`--order`, config key `order`; CONTRACT.md, "Version 0.2"):
/// with several connections, the order they are handed out. Only transfers (downloads,
/// uploads) are reordered, and only among the consecutive transfers of a plan: an action of
/// another kind (a folder, a rename, a delete, a conflict) keeps its place, after every
/// transfer before it and before every one after it.
///
/// Ties (equal times or sizes) go by path; a transfer whose time or size is unknown comes after
/// every one whose time or size is known (by path among themselves).
public enum TransferOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// By path (`RelativePath.<`: byte order of the components).
    case name
    /// The earliest modification time first.
    case oldestFirst = "oldest-first"
    /// The latest modification time first.
    case newestFirst = "newest-first"
    /// The fewest bytes first (the source file's size).
    case smallestFirst = "smallest-first"
    /// The most bytes first.
    case largestFirst = "largest-first"

    /// True when transfer `lhs` starts before transfer `rhs` in this order (a strict total
    /// order over transfers of distinct paths).
    public func precedes(_ lhs: Action, _ rhs: Action) -> Bool {
        let ranked: Bool?
        switch self {
        case .name: ranked = nil
        case .oldestFirst: ranked = Self.first(lhs.source?.modified?.seconds, rhs.source?.modified?.seconds, by: <)
        case .newestFirst: ranked = Self.first(lhs.source?.modified?.seconds, rhs.source?.modified?.seconds, by: >)
        case .smallestFirst: ranked = Self.first(lhs.source?.size, rhs.source?.size, by: <)
        case .largestFirst: ranked = Self.first(lhs.source?.size, rhs.source?.size, by: >)
        }
        return ranked ?? (lhs.path < rhs.path)
    }

    /// Whether the value `lhs` goes first (`better`), unknown values last; nil for a tie.
    private static func first<Value: Comparable>(
        _ lhs: Value?, _ rhs: Value?, by better: (Value, Value) -> Bool
    ) -> Bool? {
        switch (lhs, rhs) {
        case (nil, nil): return nil
        case (nil, _): return false
        case (_, nil): return true
        case (let lhs?, let rhs?):
            if better(lhs, rhs) { return true }
            if better(rhs, lhs) { return false }
            return nil
        }
    }
}
