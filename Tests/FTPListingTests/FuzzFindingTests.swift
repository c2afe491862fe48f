// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import Testing

/// Lines the fuzz driver's mutated-lines mode (Benchmarks/fuzz/mutated-lines) crashed on:
/// each must parse (to an entry or a rejection) without trapping.
struct FuzzFindingTests {
    static let context = ListingContext(now: Date(timeIntervalSince1970: 1_718_452_800))

    /// An approximate size (`12.5M` style) whose whole part times the fraction's scale
    /// overflows 64 bits: it trapped; now the size is unknown and the line still reads.
    @Test(arguments: [
        "-rw-r--r-- 1 ftp ftp 1844674407370955161.5M May 01 10:20 big.bin",
        "-rw-r--r-- 1 ftp ftp 18446744073709551615.999999k May 01 10:20 big.bin",
    ])
    func anApproximateSizeThatOverflowsDoesNotTrap(line: String) {
        let parsed = ListingParser.parseLine(Array(line.utf8), format: .list, context: Self.context)
        if case .entry(let entry) = parsed { #expect(entry.name == "big.bin") }
    }
}
