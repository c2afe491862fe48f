// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncConfig

/// Sizes and rates in the units of CONTRACT.md 0.2 (`512k`, `2M`, `1.5M`).
struct ByteSizeTextTests {
    @Test(
        arguments: [
            ("4096", Int64(4_096)), ("512k", 524_288), ("512K", 524_288), ("2M", 2_097_152),
            ("1.5M", 1_572_864), ("2GiB", 2_147_483_648), ("3MB", 3_145_728), (" 1t ", 1_099_511_627_776),
            ("0", 0), ("0.5k", 512), ("1.25k", 1_280), ("1024P", nil),
        ] as [(String, Int64?)])
    func sizesInTheirUnits(text: String, bytes: Int64?) {
        #expect(ByteSizeText.bytes(text) == bytes)
    }

    @Test(arguments: [
        "", "k", "B", "-5k", "1.k", ".5k", "5 k", "10x", "1e3", "٣k", "1.2.3M", "1.0000001M", "99999999999999999",
        "1025T",
    ])
    func notASize(text: String) {
        #expect(ByteSizeText.bytes(text) == nil)
    }
}
