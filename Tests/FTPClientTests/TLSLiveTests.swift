// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import Testing

/// FTPS against the lab's vsftpd (`require_ssl_reuse=YES`) and pyftpdlib: uploads and
/// downloads over TLS data connections, byte for byte, with TLS 1.3 and 1.2.
@Suite(.serialized) struct TLSLiveTests {
    /// (server kind, `--tls` mode, server's highest TLS version, client limit, expected version, address)
    static let cases: [(String, String, String, TLSVersionLimit, String, String)] = [
        ("vsftpd", "explicit", "1.3", .tls13, "TLSv1.3", "127.0.0.57"),
        ("vsftpd", "explicit", "1.3", .tls12, "TLSv1.2", "127.0.0.57"),
        ("vsftpd", "implicit", "1.2", .tls13, "TLSv1.2", "127.0.0.58"),
        ("pyftpdlib", "explicit", "1.3", .tls13, "TLSv1.3", "127.0.0.59"),
    ]

    @Test(arguments: cases)
    func uploadsAndDownloadsAreIntactAndResumeTheSession(
        kind: String, mode: String, serverMax: String, limit: TLSVersionLimit, version: String, address: String
    ) throws {
        let server = try LabServer(
            kind: kind, address: address, options: ["--tls", mode, "--tls-max", serverMax])
        let configuration = FTPSessionConfiguration(
            host: address, port: server.port, user: server.user, password: server.password, timeout: 20,
            tls: mode == "implicit" ? .implicit : .explicit, certificateCheck: .pinned(sha256: server.fingerprint),
            tlsVersionLimit: limit)
        let lines = LogLines()
        let session = FTPSession(configuration: configuration, log: lines.sink)
        try session.connect()
        defer { session.quit() }
        #expect(session.tlsDetails?.version == version)
        #expect(session.tlsDetails?.fingerprint == server.fingerprint)

        // Sizes around TLS record (16 KiB) and buffer (256 KiB) boundaries; 12 uploads of
        // 300000 bytes is the lab's truncation probe.
        let sizes = [0, 1, 16_384, 16_385, 262_144, 1_000_003] + Array(repeating: 300_000, count: 12)
        for (index, size) in sizes.enumerated() {
            let content = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            var offset = 0
            try session.store("f\(index).bin") { buffer in
                let count = min(buffer.count, content.count - offset)
                buffer.copyBytes(from: content[offset..<offset + count])
                offset += count
                return count
            }
            var back: [UInt8] = []
            let received = try session.retrieve("f\(index).bin") { back += $0 }
            #expect(received == UInt64(size))
            #expect(back == content, "file \(index) of \(size) bytes")
            let onDisk = FileManager.default.contents(atPath: server.root + "/f\(index).bin")
            #expect(onDisk.map { [UInt8]($0) } == content, "stored file \(index)")
        }
        // From a file descriptor: over TLS the bytes are read (pread) and encrypted.
        let content = (0..<1_000_003).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let local = NSTemporaryDirectory() + "ftpsync-tls-upload-\(UUID().uuidString).bin"
        try Data(content).write(to: URL(fileURLWithPath: local))
        defer { unlink(local) }
        let descriptor = open(local, O_RDONLY)
        defer { close(descriptor) }
        #expect(try session.store("fd.bin", file: descriptor, fileOffset: 3) { _ in } == 1_000_000)
        #expect(
            FileManager.default.contents(atPath: server.root + "/fd.bin").map { [UInt8]($0) } == Array(content[3...]))
        let listing = try session.listRaw("")
        #expect(!listing.bytes.isEmpty)
        #expect(!lines.lines.contains { $0.contains("did not resume") }, "\(lines.lines)")
    }

    @Test func aWrongPinThrowsBeforeUserWithThePresentedFingerprint() throws {
        let server = try LabServer(kind: "vsftpd", address: "127.0.0.57", options: ["--tls", "explicit"])
        let wrong = "sha256:" + String(repeating: "00:", count: 31) + "00"
        let configuration = FTPSessionConfiguration(
            host: "127.0.0.57", port: server.port, user: server.user, password: server.password, timeout: 20,
            tls: .explicit, certificateCheck: .pinned(sha256: wrong))
        let session = FTPSession(configuration: configuration)
        #expect(throws: FTPError.fingerprintMismatch(pinned: wrong, presented: server.fingerprint)) {
            try session.connect()
        }
        #expect(!session.isConnected)
        #expect(!server.commands().contains { $0.uppercased().hasPrefix("USER") })
    }
}
