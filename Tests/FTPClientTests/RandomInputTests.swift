// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import Testing

/// Issue 7: the parsers of server data survive random and mutated input (a short, deterministic
/// version of the libFuzzer run in scripts/fuzz.sh), and what they return keeps its promises:
/// reply codes 100...599, passive ports 1...65535, listing names that are never empty, `.`,
/// `..`, nor hold `/` or NUL.
struct RandomInputTests {
    /// xorshift64*: the same inputs on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    /// Real replies and listing lines, the starting points of mutation.
    static let seeds: [String] = [
        "220 ready\r\n", "230-Welcome\r\n  to the server\r\n230 Logged in\r\n",
        "227 Entering Passive Mode (127,0,0,1,195,80).\r\n", "229 Entering Extended Passive Mode (|||50000|)\r\n",
        "211-Features:\r\n MLST type*;size*;modify*;\r\n MDTM\r\n REST STREAM\r\n UTF8\r\n211 End\r\n",
        "213 20240501102000.123\r\n", "150 Opening BINARY mode data connection\r\n226 Transfer complete\r\n",
        "type=file;size=12;modify=20240501102000;unix.mode=0644; a b.jpg\r\ntype=dir;modify=20240501102000; DCIM\r\n",
        "type=cdir; .\r\ntype=pdir; ..\r\ntype=OS.unix=symlink;size=3; link\r\n",
        "-rw-r--r--    1 ftp ftp  1048576 May 01 10:20 a.jpg\r\ndrwxr-xr-x 2 0 0 4096 Jan  1  2019 b\r\n",
        "lrwxrwxrwx    1 0 0 11 Jan 01 00:00 lnk -> /etc/passwd\r\ntotal 12\r\n",
        "05-01-24  10:20AM       <DIR>          c\r\n12-31-99  11:59PM             1024 d.txt\r\n",
    ]

    /// Random bytes, or a seed with a few bytes replaced, inserted, deleted or duplicated.
    static func input(_ index: Int, using generator: inout Generator) -> [UInt8] {
        if index.isMultiple(of: 2) {
            let count = Int.random(in: 0...256, using: &generator)
            return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &generator)].utf8)
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            let interesting: [UInt8] = [0, 10, 13, 32, 44, 45, 47, 46, 59, 61, 124, 255, 0x39, 0x30]
            let byte =
                Bool.random(using: &generator)
                ? interesting.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0...255, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0 where !bytes.isEmpty: bytes[position] = byte
            case 1: bytes.insert(byte, at: position)
            case 2 where !bytes.isEmpty: bytes.remove(at: position)
            default:
                let end = min(bytes.count, position + Int.random(in: 1...16, using: &generator))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            }
        }
        return bytes
    }

    /// The names among `entries` that break the listing parsers' promises.
    static func badNames(_ entries: [ListingEntry]) -> [String] {
        entries.map(\.name).filter { name in
            name.isEmpty || name == "." || name == ".." || name.utf8.contains(47) || name.utf8.contains(0)
        }
    }

    @Test func twentyThousandRandomAndMutatedInputsNeitherCrashNorBreakPromises() {
        var generator = Generator(state: 0x9E37_79B9_7F4A_7C15)
        let context = ListingContext(now: Date(timeIntervalSince1970: 1_800_000_000))
        var replies = 0
        var entries = 0
        var broken: [String] = []
        for index in 0..<20_000 {
            let bytes = Self.input(index, using: &generator)
            let mlsd = ListingParser.parse(bytes, format: .mlsd, context: context)
            let list = ListingParser.parse(bytes, format: .list, context: context)
            broken += Self.badNames(mlsd.entries + list.entries).map { "name '\($0)' from \(bytes)" }
            entries += mlsd.entries.count + list.entries.count
            var parser = ReplyParser()
            for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
                let trimmed = line.last == 13 ? line.dropLast() : line
                guard let reply = try? parser.feed(trimmed) else { continue }
                replies += 1
                if !(100...599).contains(reply.code) || reply.lines.isEmpty { broken.append("reply \(reply)") }
                if let endpoint = try? PassiveEndpoint.parse(reply), endpoint.port == 0 { broken.append("port 0") }
                _ = FTPFeatures(reply: reply)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            for code in [227, 229] {
                let reply = FTPReply(code: code, lines: ["\(code) " + text])
                if let endpoint = try? PassiveEndpoint.parse(reply), endpoint.port == 0 { broken.append("port 0") }
            }
            _ = FTPTime.parse(text)
        }
        #expect(broken.isEmpty, "\(broken.prefix(5))")
        // The inputs reach deep: many whole replies and listing entries were parsed.
        #expect(replies > 1_000)
        #expect(entries > 1_000)
    }
}
