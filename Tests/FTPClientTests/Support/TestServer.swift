// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPTestSupport
import Foundation
import Glibc

/// A pyftpdlib server (FTPTestSupport's `PythonFTPServer`) on loopback, serving a fresh folder, stopped
/// when the value is released.
final class TestServer {
    /// A file the test meant to put on the server could not be made.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    private let server: PythonFTPServer
    let root: URL
    let host: String
    let port: Int
    static let user = "tester"
    static let password = "secret-pw"

    /// Starts the server on `host` with extra options (`--no-epsv-mlsd`, `--masquerade A`,
    /// `--throttle BPS`, `--drop-after N`, `--silent`) and waits for its `READY <port>` line.
    init(host: String = "127.0.0.1", options: [String] = []) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("ftpclient-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        self.host = host
        server = try PythonFTPServer(
            host: host, root: root.path, user: Self.user, password: Self.password, options: options)
        port = server.port
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func configuration(
        password: String = TestServer.password, passiveAddress: PassiveAddressPolicy = .peer, timeout: Double = 10,
        encoding: String? = nil
    ) -> FTPSessionConfiguration {
        FTPSessionConfiguration(
            host: host, port: port, user: Self.user, password: password, passiveAddress: passiveAddress,
            timeout: timeout, encoding: encoding)
    }

    /// Writes a file under the root (creating folders).
    func put(_ path: String, _ bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Creates a file whose name is the raw bytes `name` (not UTF-8) in the root.
    func put(rawName name: [UInt8], _ bytes: [UInt8]) throws {
        let path = Array(root.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        guard fd >= 0 else { throw SetupError(description: "cannot create raw-named file") }
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    func contents(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: root.appendingPathComponent(path))).map { Array($0) }
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }
}

/// Collects log lines from a session (thread-safe).
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    var sink: @Sendable (String) -> Void { { [self] line in lock.withLock { stored.append(line) } } }
}

/// Deterministic pseudo-random bytes.
func testBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}

extension FTPSession {
    /// Downloads into an array.
    func download(_ path: String, from offset: UInt64 = 0) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let count = try retrieve(path, from: offset) { bytes += $0 }
        guard count == UInt64(bytes.count) else { throw FTPError.protocolViolation("count mismatch") }
        return bytes
    }

    /// Uploads an array (in chunks of up to 100,000 bytes, to exercise the loop).
    @discardableResult
    func upload(_ path: String, _ bytes: [UInt8], append: Bool = false, offset: UInt64 = 0) throws -> UInt64 {
        var position = 0
        return try store(
            path,
            from: { buffer in
                let count = min(buffer.count, bytes.count - position, 100_000)
                buffer.copyBytes(from: bytes[position..<(position + count)])
                position += count
                return count
            }, append: append, offset: offset)
    }
}
