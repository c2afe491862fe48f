// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import LocalTree

struct XXH3HasherTests {
    /// File sizes around the 1 MiB read buffer and the XXH3 internal block sizes.
    static let sizes = [0, 1, 3, 16, 17, 128, 129, 240, 241, 1024, 65_536, 1_048_575, 1_048_576, 1_048_577, 3_145_739]

    @Test(arguments: sizes)
    func matchesXxhsum(size: Int) throws {
        let tree = try TempTree()
        try tree.write("f.bin", pseudoRandomBytes(size, seed: UInt64(size) + 7))
        let expected = try run("/usr/bin/xxhsum", ["-H2", tree.url("f.bin")]).split(separator: " ").first.map(
            String.init)
        let digest = try XXH3Hasher.digest(fileAt: tree.url("f.bin"))
        #expect(digest == expected)
        #expect(digest.count == 32)
        #expect(digest == digest.lowercased())
    }

    @Test func knownDigestOfEmptyInput() {
        // xxhsum -H2 /dev/null
        #expect(XXH3Hasher.digest(of: []) == "99aa06d3014798d86001c324468d497f")
    }

    @Test(arguments: [1, 7, 4096, 1_000_003])
    func streamingInPiecesEqualsOneShot(piece: Int) throws {
        let bytes = pseudoRandomBytes(2_500_000, seed: 42)
        let hasher = try XXH3Hasher()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            bytes[start..<end].withUnsafeBytes { hasher.update($0) }
            start = end
        }
        #expect(hasher.finalize() == XXH3Hasher.digest(of: bytes))
    }

    @Test func prefixOfFileEqualsDigestOfPrefix() throws {
        let tree = try TempTree()
        let bytes = pseudoRandomBytes(2_000_000, seed: 9)
        try tree.write("part", bytes)
        let hasher = try XXH3Hasher()
        let fed = try hasher.update(fileAt: tree.url("part"), length: 1_234_567)
        #expect(fed == 1_234_567)
        hasher.update(Array(bytes[1_234_567...]))
        #expect(hasher.finalize() == XXH3Hasher.digest(of: bytes))
    }

    @Test func shortFileAndMissingFileAreTypedErrors() throws {
        let tree = try TempTree()
        try tree.write("small", [1, 2, 3])
        let hasher = try XXH3Hasher()
        #expect(throws: LocalFileError.self) { try hasher.update(fileAt: tree.url("small"), length: 4) }
        do {
            _ = try XXH3Hasher.digest(fileAt: tree.url("missing"))
            Issue.record("expected an error")
        } catch {
            #expect(error.isNotFound)
            #expect(error.description == "open \(tree.url("missing")): No such file or directory")
        }
    }
}
