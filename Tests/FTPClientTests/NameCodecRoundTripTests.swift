// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Synchronization
import Testing

@testable import FTPClient

/// Names that cannot be decoded keep their bytes: `decode` maps each undecodable byte to
/// U+F700 + byte and `encode` turns it back, for every encoding a device may use.
struct NameCodecRoundTripTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var encoding: String?
        var bytes: [UInt8]
        var name: String
        var testDescription: String { "\(encoding ?? "utf-8") \(bytes)" }
    }

    static let cases: [Case] = [
        // Valid names decode to their text.
        Case(encoding: "gbk", bytes: [0xCE, 0xC4, 0xBC, 0xFE] + Array(".txt".utf8), name: "文件.txt"),
        Case(encoding: "gb18030", bytes: [0xD5, 0xD5, 0xC6, 0xAC], name: "照片"),
        Case(encoding: "big5", bytes: [0xA4, 0xA4, 0xA4, 0xE5], name: "中文"),
        Case(encoding: "euc-kr", bytes: [0xC7, 0xD1, 0xB1, 0xDB], name: "한글"),
        Case(encoding: "cp1251", bytes: [0xF4, 0xE0, 0xE9, 0xEB], name: "файл"),
        // GBK: 0x81 0xFF is no GBK character; the valid parts around it still decode.
        Case(
            encoding: "gbk", bytes: Array("bad".utf8) + [0x81, 0xFF] + [0xCE, 0xC4] + Array(".bin".utf8),
            name: "bad\u{F781}\u{F7FF}文.bin"),
        // A lead byte cut off at the end of the name.
        Case(encoding: "shift_jis", bytes: [0x83, 0x81, 0x83], name: "メ\u{F783}"),
        // UTF-8 (no encoding configured): Latin-1 bytes from a server that does not say.
        Case(encoding: nil, bytes: Array("caf".utf8) + [0xE9] + Array(".txt".utf8), name: "caf\u{F7E9}.txt"),
        Case(encoding: "utf-8", bytes: [0xC3, 0x28], name: "\u{F7C3}("),
    ]

    @Test(arguments: cases)
    func decodesReversibly(_ c: Case) throws {
        let codec = try NameCodec(encoding: c.encoding)
        let name = codec.decode(c.bytes)
        #expect(name == c.name)
        #expect(!name.contains("\u{FFFD}") && !name.contains("?"))
        #expect(try codec.encode(name) == c.bytes)
    }

    /// A long name full of bytes the encoding cannot take decodes in one pass (issue 16's
    /// fuzz run: each bad byte used to retry every shorter prefix, quadratic in the length;
    /// 20,000 bytes did not finish in minutes; the mutated-lines benchmark keeps the speed).
    @Test(arguments: ["gbk", "shift_jis"])
    func aLongNameOfBadBytesDecodesReversibly(encoding: String) throws {
        let codec = try NameCodec(encoding: encoding)
        let bytes = (0..<5000).flatMap { _ in [0x81, 0xFF, 0x41, 0x20] as [UInt8] }
        let name = codec.decode(bytes)
        #expect(try codec.encode(name) == bytes)
    }

    /// Conversion descriptors are reused (`IconvPool`), one conversion at a time each: names
    /// decoded and encoded on many threads at once come out right, bad bytes and shift state
    /// left by one name never reach the next.
    @Test func manyThreadsShareTheConverters() throws {
        let codec = try NameCodec(encoding: "shift_jis")
        let good: [UInt8] = [0x83, 0x65, 0x83, 0x58, 0x83, 0x67, 0x2E, 0x74, 0x78, 0x74]  // テスト.txt
        let bad: [UInt8] = [0x83, 0xFF, 0x41]
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            for _ in 0..<200 {
                let bytes = index % 2 == 0 ? good : bad
                let name = codec.decode(bytes)
                if (try? codec.encode(name)) != bytes { failures.add(1, ordering: .relaxed) }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(codec.decode(good) == "テスト.txt")
    }
}
