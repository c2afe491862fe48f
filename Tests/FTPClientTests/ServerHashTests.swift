// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import FTPClient

/// The server-hash commands: what FEAT offers, how replies are read, and the same algorithms
/// computed here (known test vectors).
@Suite struct ServerHashTests {
    static func reply(_ code: Int, _ lines: [String]) -> FTPReply {
        FTPReply(code: code, lines: lines)
    }

    /// proftpd's mod_digest FEAT: HASH with SHA-1 the default, and the older commands.
    @Test func featuresOfProftpdMod_digest() {
        let feat = Self.reply(
            211,
            [
                "211-Features:", " HASH CRC32;MD5;SHA-1*;SHA-256;SHA-512;", " MDTM", " XCRC", " XMD5", " XSHA1",
                " XSHA256", "211 End",
            ])
        let features = FTPFeatures(reply: feat)
        #expect(features.hashAlgorithms == [.sha256, .sha1, .md5, .crc32])
        #expect(features.defaultHashAlgorithm == .sha1)
        #expect(features.legacyHashAlgorithms == [.sha256, .sha1, .md5, .crc32])
        #expect(features.offersFileHash)
        #expect(!FTPFeatures(reply: Self.reply(211, ["211-Features:", " MDTM", "211 End"])).offersFileHash)
        let xcrcOnly = FTPFeatures(reply: Self.reply(211, ["211-Features:", " XCRC", "211 End"]))
        #expect(xcrcOnly.hashAlgorithms.isEmpty && xcrcOnly.legacyHashAlgorithms == [.crc32])
    }

    static let sha = "2c3202707ce7a3d6a78d29eea258868d21c0a91002f949b582f63bd66c156522"

    /// (last line of a 213 reply to HASH, listed size, digest found?)
    static let hashReplies: [(String, UInt64?, Bool)] = [
        ("213 SHA-256 0-1048576 \(sha) a.bin", 1_048_576, true),  // proftpd: end = size
        ("213 SHA-256 0-1048575 \(sha) a b.bin", 1_048_576, true),  // the draft: end = last byte
        ("213 SHA-256 0-1048576 \(sha) a.bin", nil, true),
        ("213 SHA-256 0-1000 \(sha) a.bin", 1_048_576, false),  // a part of the file only
        ("213 SHA-256 10-1048576 \(sha) a.bin", 1_048_576, false),
        ("213 SHA-1 0-1048576 \(sha) a.bin", 1_048_576, false),  // not the algorithm asked for
        ("213 SHA-256 0-1048576 \(sha.dropLast(2)) a.bin", 1_048_576, false),  // too short
        ("213 SHA-256 0-1048576 zz\(sha.dropFirst(2)) a.bin", 1_048_576, false),  // not hex
        ("213 SHA-256 0-0 \(sha) empty", 0, true),
        ("213 SHA-256 0-18446744073709551615 \(sha) x", 0, false),
        ("213 SHA-256", 5, false),
    ]

    @Test(arguments: hashReplies)
    func readsHashReplies(line: String, size: UInt64?, found: Bool) {
        let reply = Self.reply(213, ["213-Computing SHA-256 digest", line])
        let digest = FTPSessionCore.digest(inHashReply: reply, algorithm: .sha256, range: size.map { 0..<$0 })
        #expect((digest != nil) == found)
        if found { #expect(digest?.first == 0x2c && digest?.count == 32) }
    }

    /// (algorithm, last line of the reply, digest as hex or nil)
    static let legacyReplies: [(ServerHashAlgorithm, String, String?)] = [
        (.sha256, "250 \(sha.uppercased())", sha),
        (.sha256, "250 \(sha) a.bin", sha),
        (.md5, "250 2ECD35242E4993E5B7776FEB8A56F947", "2ecd35242e4993e5b7776feb8a56f947"),
        (.crc32, "250 CD7EABD6", "cd7eabd6"),
        (.crc32, "250 7EABD6", "007eabd6"),  // leading zeros dropped
        (.crc32, "250 Computing CRC32 digest", nil),  // words of text are no digest
        (.sha1, "250 \(sha)", nil),  // SHA-256 length for SHA-1
    ]

    @Test(arguments: legacyReplies)
    func readsLegacyReplies(algorithm: ServerHashAlgorithm, line: String, hex: String?) {
        let digest = FTPSessionCore.digest(inLegacyReply: Self.reply(250, [line]), algorithm: algorithm)
        #expect(digest.map { $0.map { String(format: "%02x", $0) }.joined() } == hex)
    }

    /// (algorithm, input, digest as hex): the standard test vectors.
    static let vectors: [(ServerHashAlgorithm, String, String)] = [
        (.sha256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (.sha1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (.md5, "abc", "900150983cd24fb0d6963f7d28e17f72"),
        (.crc32, "123456789", "cbf43926"),
        (.crc32, "", "00000000"),
        (.sha256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ]

    @Test(arguments: vectors)
    func localHashesMatchTheStandardVectors(algorithm: ServerHashAlgorithm, input: String, hex: String) {
        let hasher = algorithm.makeHasher()
        let bytes = Array(input.utf8)
        // Fed in two parts: the digest is of the whole stream.
        let half = bytes.count / 2
        bytes[..<half].withUnsafeBytes { hasher.update($0) }
        bytes[half...].withUnsafeBytes { hasher.update($0) }
        #expect(hasher.finalize().map { $0.map { String(format: "%02x", $0) }.joined() } == hex)
    }
}
