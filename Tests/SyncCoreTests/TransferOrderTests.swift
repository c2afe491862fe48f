// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// `TransferOrder`: each order, ties broken by path, unknown times and sizes last.
@Suite struct TransferOrderTests {
    /// A download of `path` whose source has `size` bytes and was modified at `seconds`.
    private static func transfer(_ path: String, size: UInt64?, seconds: Double?) -> Action {
        let relative = (try? RelativePath(validating: path)) ?? .root
        let source = SnapshotEntry(
            path: relative, kind: .file, size: size,
            modified: seconds.map { FileTime(seconds: $0, granularity: .exact) })
        return Action(kind: .download, path: relative, bytes: size ?? 0, source: source, reason: "new")
    }

    private static let transfers = [
        transfer("b", size: 30, seconds: 200), transfer("a", size: 30, seconds: 300),
        transfer("c", size: nil, seconds: nil), transfer("d/x", size: 10, seconds: 100),
        transfer("0", size: nil, seconds: nil), transfer("d/y", size: 20, seconds: 300),
    ]

    @Test(arguments: [
        (TransferOrder.name, ["0", "a", "b", "c", "d/x", "d/y"]),
        (.oldestFirst, ["d/x", "b", "a", "d/y", "0", "c"]),
        (.newestFirst, ["a", "d/y", "b", "d/x", "0", "c"]),
        (.smallestFirst, ["d/x", "d/y", "a", "b", "0", "c"]),
        (.largestFirst, ["a", "b", "d/y", "d/x", "0", "c"]),
    ])
    func sortsByTheOrderThenByPathUnknownLast(order: TransferOrder, expected: [String]) {
        let sorted = Self.transfers.sorted(by: order.precedes)
        #expect(sorted.map(\.path.string) == expected)
        // A strict order: no transfer precedes itself, and of two distinct ones exactly one goes first.
        for lhs in Self.transfers {
            #expect(!order.precedes(lhs, lhs))
            for rhs in Self.transfers where rhs.path != lhs.path {
                #expect(order.precedes(lhs, rhs) != order.precedes(rhs, lhs))
            }
        }
    }

    @Test func aTransferWithoutASourceHasNeitherTimeNorSize() {
        let bare = Action(kind: .upload, path: (try? RelativePath(validating: "a")) ?? .root, reason: "new")
        let known = Self.transfer("z", size: 1, seconds: 1)
        for order in [TransferOrder.oldestFirst, .newestFirst, .smallestFirst, .largestFirst] {
            #expect(order.precedes(known, bare) && !order.precedes(bare, known))
        }
        #expect(TransferOrder.name.precedes(bare, known))
    }

    @Test func theNamesAreTheOptionsValues() {
        #expect(
            TransferOrder.allCases.map(\.rawValue) == [
                "name", "oldest-first", "newest-first", "smallest-first", "largest-first",
            ])
    }
}
