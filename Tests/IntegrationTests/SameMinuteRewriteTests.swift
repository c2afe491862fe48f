// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// A same-size rewrite within the listed minute (LIST-only vsftpd, minute precision) is caught
/// with MDTM, which is asked only for files whose minute cannot tell. Address 127.0.7.7.
@Suite(.serialized) struct SameMinuteRewriteTests {
    @Test func sameSizeRewriteInTheSameMinuteIsPulled() throws {
        let work = try makeTemporaryFolder("same-minute")
        let served = work + "/served"
        // The minute before this one: its times are in the past (vsftpd lists a time in the future
        // with its year only), and it counts as open for a minute more (`ListingPrecision.margin`).
        // The three pulls must fit in that minute: a start late in this one waits for the next.
        let intoMinute = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        if intoMinute > 40 { usleep(UInt32((61 - intoMinute) * 1_000_000)) }
        let minute = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 60
        try writeFile(served + "/clip.txt", Array("AAAA\n".utf8), modified: minute + 10)
        try writeFile(served + "/old/a.txt", Array("old a\n".utf8), modified: minute - 7200)
        try writeFile(served + "/old/b.txt", Array("old b\n".utf8), modified: minute - 3 * 86_400)
        let server = try FTPServer(.vsftpd, root: served, address: "127.0.7.7")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)

        let first = try ftpsync(["pull", config])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(try String(contentsOfFile: mirror + "/cam/clip.txt", encoding: .utf8) == "AAAA\n")

        // Rewritten with the same size, 30 s later in the same minute: LIST shows it as before.
        try writeFile(served + "/clip.txt", Array("BBBB\n".utf8), modified: minute + 40)
        let second = try ftpsync(["pull", config, "--json"])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(try String(contentsOfFile: mirror + "/cam/clip.txt", encoding: .utf8) == "BBBB\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: mirror + "/cam/clip.txt")
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970
        #expect(modified == minute + 40, "the precise time is kept")

        // A pull with nothing to do asks MDTM for the file whose minute is open, never for old ones.
        let before = server.commands().count
        let retrieved = server.count("RETR")
        let third = try ftpsync(["pull", config])
        #expect(third.status == 0, "\(third.stdout)\(third.stderr)")
        #expect(server.count("RETR") == retrieved, "nothing downloaded again")
        let asked = server.commands().dropFirst(before).filter { $0.uppercased().hasPrefix("MDTM") }
        #expect(asked.contains { $0.hasSuffix("clip.txt") }, "\(asked)")
        #expect(!asked.contains { $0.contains("old/") }, "no MDTM for old files: \(asked)")
    }
}
