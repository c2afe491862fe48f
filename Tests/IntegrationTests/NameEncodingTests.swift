// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Legacy name encodings and Unicode normalization, end to end with the built binary against
/// pyftpdlib serving raw byte names (`--raw-names`). Addresses 127.0.0.66–68.
@Suite(.serialized) struct NameEncodingTests {
    /// Creates a file at exactly the path bytes `path` (no UTF-8 round trip), with `content`
    /// and modification time `modified` (seconds since 1970).
    static func writeRaw(_ path: [UInt8], _ content: String, modified: Double) {
        let fd = (path + [0]).withUnsafeBytes {
            open($0.baseAddress!.assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        #expect(fd >= 0)
        let bytes = Array(content.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var times = [timespec(tv_sec: Int(modified), tv_nsec: 0), timespec(tv_sec: Int(modified), tv_nsec: 0)]
        futimens(fd, &times)
        close(fd)
    }

    /// Makes a folder at exactly the path bytes `path`.
    static func makeRawFolder(_ path: [UInt8]) {
        let status = (path + [0]).withUnsafeBytes { mkdir($0.baseAddress!.assumingMemoryBound(to: CChar.self), 0o755) }
        #expect(status == 0)
    }

    /// The names in `folder` as raw bytes.
    static func rawNames(_ folder: String) -> Set<[UInt8]> {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var out = Set<[UInt8]>()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [46] && name != [46, 46] { out.insert(name) }
        }
        return out
    }

    static let recent = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 86_400

    @Test func gbkNamesArriveAsUTF8AndUndecodableBytesSurvive() throws {
        let work = try makeTemporaryFolder("gbk")
        let served = work + "/served"
        // 文件.txt and 中文目录/照片.jpg in GBK; "bad\x81\xff.bin" is not valid GBK.
        let file = [0xCE, 0xC4, 0xBC, 0xFE] + Array(".txt".utf8)
        let folder = [0xD6, 0xD0, 0xCE, 0xC4, 0xC4, 0xBF, 0xC2, 0xBC] as [UInt8]
        let photo = [0xD5, 0xD5, 0xC6, 0xAC] + Array(".jpg".utf8)
        let bad = Array("bad".utf8) + [0x81, 0xFF] + Array(".bin".utf8)
        let root = Array(served.utf8) + [UInt8(ascii: "/")]
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        Self.writeRaw(root + file, "hello", modified: Self.recent)
        Self.writeRaw(root + bad, "zz", modified: Self.recent)
        Self.makeRawFolder(root + folder)
        Self.writeRaw(root + folder + [UInt8(ascii: "/")] + photo, "abc", modified: Self.recent)

        let server = try LabServer("pyftpdlib", root: served, address: "127.0.0.66", options: ["--raw-names"])
        defer { server.stop() }
        let config = try server.writeConfig(in: work, name: "gbk", extra: ["encoding: gbk"])

        let listing = try ftpsync(["ls", config, "gbk", "--json"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let names = Set(listedEntries(listing.stdout).map(\.name))
        #expect(names == ["文件.txt", "中文目录", "bad\u{F781}\u{F7FF}.bin"])

        let first = try ftpsync(["pull", config, "--json"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let mirror = work + "/mirror/gbk"
        #expect(
            Self.rawNames(mirror)
                == [Array("文件.txt".utf8), Array("中文目录".utf8), Array("bad\u{F781}\u{F7FF}.bin".utf8)])
        #expect(Self.rawNames(mirror + "/中文目录") == [Array("照片.jpg".utf8)])
        #expect((try? String(contentsOfFile: mirror + "/中文目录/照片.jpg", encoding: .utf8)) == "abc")
        #expect((try? String(contentsOfFile: mirror + "/bad\u{F781}\u{F7FF}.bin", encoding: .utf8)) == "zz")

        // Nothing left to do on the second run.
        let second = try ftpsync(["pull", config, "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stdout.contains("\"download\""), "\(second.stdout)")
    }

    @Test func latin1NamesAreListedDecoded() throws {
        let work = try makeTemporaryFolder("latin1")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let root = Array(served.utf8) + [UInt8(ascii: "/")]
        Self.writeRaw(root + Array("caf".utf8) + [0xE9] + Array(".txt".utf8), "x", modified: Self.recent)
        Self.writeRaw(root + [0xC4, 0x70, 0x66, 0x65, 0x6C], "y", modified: Self.recent)  // Äpfel
        let server = try LabServer("pyftpdlib", root: served, address: "127.0.0.67", options: ["--raw-names"])
        defer { server.stop() }
        let config = try server.writeConfig(in: work, name: "l1", extra: ["encoding: latin1"])
        let listing = try ftpsync(["ls", config, "l1", "--json"])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(Set(listedEntries(listing.stdout).map(\.name)) == ["café.txt", "Äpfel"])

        // Without the encoding, the undecodable byte is kept, never dropped or turned into '?'.
        let plain = try server.writeConfig(in: work, name: "raw")
        let raw = try ftpsync(["ls", plain, "raw", "--json"])
        #expect(Set(listedEntries(raw.stdout).map(\.name)) == ["caf\u{F7E9}.txt", "\u{F7C4}pfel"])
        let text = try ftpsync(["ls", plain, "raw"])
        #expect(text.stdout.contains("caf\\xe9.txt"), "\(text.stdout)")
    }

    @Test func nfdOnTheServerAndNFCHereAreTheSameFile() throws {
        let work = try makeTemporaryFolder("nfd")
        let served = work + "/served"
        let nfd = "Cafe\u{301} e\u{301}te\u{301}"  // folder and file names in NFD, as macOS writes them
        try writeFile(served + "/" + nfd + "/re\u{301}sume\u{301}.txt", Array("cv\n".utf8), modified: Self.recent)
        try writeFile(served + "/plain.txt", Array("p\n".utf8), modified: Self.recent)
        let server = try LabServer("pyftpdlib", root: served, address: "127.0.0.68")
        defer { server.stop() }
        let config = try server.writeConfig(in: work, name: "mac")

        let first = try ftpsync(["pull", config, "--json"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let mirror = work + "/mirror/mac"
        let nfc = "Café été"
        #expect(Self.rawNames(mirror) == [Array(nfc.utf8), Array("plain.txt".utf8)])
        #expect(Self.rawNames(mirror + "/" + nfc) == [Array("résumé.txt".utf8)])
        #expect((try? String(contentsOfFile: mirror + "/" + nfc + "/résumé.txt", encoding: .utf8)) == "cv\n")

        let second = try ftpsync(["pull", config, "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stdout.contains("\"download\""), "\(second.stdout)")
        #expect(!second.stdout.contains("\"delete_local\""), "\(second.stdout)")
        #expect(Self.rawNames(mirror) == [Array(nfc.utf8), Array("plain.txt".utf8)])
    }
}
