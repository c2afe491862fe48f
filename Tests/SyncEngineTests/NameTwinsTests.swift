// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncEngine

/// Local names of device names equal after normalization (`NameTwins`), from real spellings.
@Suite struct NameTwinsTests {
    static let nfc = "caf\u{E9}.txt"
    static let nfd = "cafe\u{301}.txt"

    @Test(
        arguments: [
            ([nfc, nfd, "a.txt"], [1: "caf\u{E9}~nfd.txt"]),
            ([nfd, nfc], [0: "caf\u{E9}~nfd.txt"]),
            ([nfd, "x.txt"], [:]),  // an NFD name alone is no twin
            (["a.txt", "b.txt"], [:]),
            (["Fo\u{308}lder", "F\u{F6}lder"], [0: "F\u{F6}lder~nfd"]),
            // Three spellings, none in NFC: the smallest in bytes keeps the name.
            (["e\u{301}\u{323}.jpg", "e\u{323}\u{301}.jpg"], [1: "\u{1EB9}\u{301}~nfd.jpg"]),
        ] as [([String], [Int: String])])
    func theNFCSpellingKeepsItsNameTheOthersGetATag(names: [String], expected: [Int: String]) {
        #expect(NameTwins.renamed(names) == expected)
    }
}
