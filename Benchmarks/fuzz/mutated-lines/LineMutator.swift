// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// Seeded mutations of listing lines: the same seed and count give the same lines on every run.

/// xorshift64*: a small, fast, reproducible generator.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }

    /// A number in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Makes mutated lines from seed lines: 1–4 of bit flips, byte inserts and deletes, token
/// swaps, digit runs, long runs, truncation and CR/LF insertion.
struct LineMutator {
    /// Longest run of one byte a mutation inserts.
    static let longestRun = 4096
    /// Bytes that mean something to a listing parser.
    static let interesting: [UInt8] = Array(" \t-:,./;=<>()[]|\\*+lrwxdc0123456789\r\n".utf8) + [0, 0x80, 0xE6, 0xFF]
    /// Digit runs that probe number handling (overflow, signs, 2^31/2^32/2^63/2^64 edges).
    static let digitRuns: [[UInt8]] = [
        "0", "-1", "-2147483648", "2147483648", "4294967296", "9223372036854775807", "9223372036854775808",
        "18446744073709551616", "99999999999999999999999999999999", "24:00", "00:00", "29", "31", "1969", "1970",
        "2038", "9999", "10000",
    ].map { Array($0.utf8) }

    let seeds: [SeedLine]
    var generator: SeededGenerator

    init(seeds: [SeedLine], seed: UInt64) {
        self.seeds = seeds
        generator = SeededGenerator(seed: seed)
    }

    /// The next mutated line and whether its seed was an MLSD line.
    mutating func next() -> SeedLine {
        var line = seeds[generator.below(seeds.count)]
        for _ in 0...generator.below(4) { mutate(&line.bytes) }
        return line
    }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        let position = bytes.isEmpty ? 0 : generator.below(bytes.count + 1)
        switch generator.below(9) {
        case 0 where !bytes.isEmpty:  // bit flip
            let index = min(position, bytes.count - 1)
            bytes[index] ^= 1 << UInt8(generator.below(8))
        case 1:  // byte insert
            bytes.insert(Self.interesting[generator.below(Self.interesting.count)], at: position)
        case 2 where !bytes.isEmpty:  // byte delete
            bytes.remove(at: min(position, bytes.count - 1))
        case 3:  // token swap (two whitespace-separated tokens)
            swapTokens(&bytes)
        case 4:  // a digit run replaces the digits at or after the position
            replaceDigits(&bytes, from: position)
        case 5:  // long run of one byte
            let byte = Self.interesting[generator.below(Self.interesting.count)]
            let count = 1 + generator.below(generator.below(8) == 0 ? Self.longestRun : 64)
            bytes.insert(contentsOf: repeatElement(byte, count: count), at: position)
        case 6:  // truncation
            bytes.removeSubrange(position...)
        case 7:  // CR or LF inside the line
            bytes.insert(generator.below(2) == 0 ? 13 : 10, at: position)
        default:  // a piece of another seed spliced in
            let other = seeds[generator.below(seeds.count)].bytes
            guard !other.isEmpty else { return }
            let start = generator.below(other.count)
            let end = min(other.count, start + 1 + generator.below(32))
            bytes.insert(contentsOf: other[start..<end], at: position)
        }
    }

    private mutating func swapTokens(_ bytes: inout [UInt8]) {
        let tokens = bytes.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).map(Array.init)
        guard tokens.count >= 2 else { return }
        var reordered = tokens
        let first = generator.below(tokens.count)
        let second = generator.below(tokens.count)
        reordered.swapAt(first, second)
        bytes = Array(reordered.joined(separator: [UInt8(ascii: " ")]))
    }

    private mutating func replaceDigits(_ bytes: inout [UInt8], from position: Int) {
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let run = Self.digitRuns[generator.below(Self.digitRuns.count)]
        guard let start = bytes[position...].firstIndex(where: isDigit) else {
            bytes.insert(contentsOf: run, at: position)
            return
        }
        let end = bytes[start...].firstIndex { !isDigit($0) } ?? bytes.count
        bytes.replaceSubrange(start..<end, with: run)
    }
}
