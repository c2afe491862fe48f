// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPClient

/// Uploads from an open file descriptor (`store(_:file:fileOffset:…)`): read with pread(2) in
/// steps, over plain and TLS data connections. Checked byte for byte on the server's disk.
@Suite struct FileUploadTests {
    /// A temporary local file holding `bytes`, open for reading.
    final class LocalFile {
        let path: String
        let descriptor: Int32
        init(_ bytes: [UInt8]) throws {
            path = NSTemporaryDirectory() + "ftpsync-upload-\(UUID().uuidString).bin"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            descriptor = open(path, O_RDONLY)
            #expect(descriptor >= 0)
        }
        deinit {
            close(descriptor)
            unlink(path)
        }
    }

    /// On a slow link `progress` is heard from every fraction of a second, not once per 4 MiB,
    /// so a run stopped by SIGINT abandons an upload within its grace period (a 40 KiB/s device
    /// took 100 s per 4 MiB call before).
    @Test func aSlowUploadReportsProgressOften() throws {
        let server = try TestServer(options: ["--throttle", "40000"])
        let session = FTPSession(configuration: server.configuration(timeout: 10))
        try session.connect()
        defer { session.quit() }
        let file = try LocalFile(testBytes(2_000_000, seed: 41))
        struct Stop: Error {}
        let started = Date()
        var calls = 0
        #expect(throws: Stop.self) {
            try session.store("slow.bin", file: file.descriptor, fileOffset: 0) { _ in
                calls += 1
                // A cancelled run: the second progress report abandons the transfer.
                if calls == 2 { throw Stop() }
            }
        }
        #expect(Date().timeIntervalSince(started) < 8, "progress came every \(Date().timeIntervalSince(started)) s")
    }

    /// The bytes of one step follow the measured rate (a quarter second of it), within
    /// 64 KiB...256 KiB.
    @Test(arguments: [
        (262_144, 0.000_1, 262_144), (65_536, 1.6, 65_536), (262_144, 0.5, 131_072),
        (131_072, 0.5, 65_536), (0, 1.0, 262_144), (100, 0, 262_144),
    ])
    func theStepFollowsTheRate(bytes: Int, seconds: Double, step: Int) {
        #expect(FTPSessionCore.nextUploadStep(after: bytes, seconds: seconds) == step)
    }

    /// Sizes around the 256 KiB step and buffer, and empty files.
    @Test(arguments: [0, 1, 262_145, 4 * 1024 * 1024 + 3, 9_000_001])
    func wholeFilesArriveIntact(size: Int) throws {
        let server = try TestServer()
        let session = FTPSession(configuration: server.configuration())
        try session.connect()
        defer { session.quit() }
        let bytes = testBytes(size, seed: UInt64(size) + 7)
        let file = try LocalFile(bytes)
        var reported = 0
        let sent = try session.store("whole.bin", file: file.descriptor, fileOffset: 0) { reported += $0 }
        #expect(sent == UInt64(size))
        #expect(reported == size)
        #expect(server.contents("whole.bin") == bytes)
        // The descriptor is read at explicit offsets and never moved.
        #expect(lseek(file.descriptor, 0, SEEK_CUR) == 0)
    }

    @Test func resumesWithAppendAndWithRestFromTheFilesOffset() throws {
        let server = try TestServer()
        let log = LogLines()
        let session = FTPSession(configuration: server.configuration(), log: log.sink)
        try session.connect()
        defer { session.quit() }
        let bytes = testBytes(5_000_000, seed: 11)
        let file = try LocalFile(bytes)
        try session.upload("appended.bin", Array(bytes.prefix(1_234_567)))
        let appended = try session.store(
            "appended.bin", file: file.descriptor, fileOffset: 1_234_567, append: true, progress: { _ in })
        #expect(appended == 5_000_000 - 1_234_567)
        #expect(server.contents("appended.bin") == bytes)

        try session.upload("restarted.bin", Array(bytes.prefix(777)))
        let restarted = try session.store(
            "restarted.bin", file: file.descriptor, fileOffset: 777, offset: 777, progress: { _ in })
        #expect(restarted == 5_000_000 - 777)
        #expect(server.contents("restarted.bin") == bytes)
        let commands = log.lines.filter { $0.hasPrefix("> ") }
        #expect(commands.contains("> APPE appended.bin"))
        #expect(commands.contains("> REST 777"))
    }

    /// `length` caps what is sent, from any offset: a file that grew after it
    /// was planned is not sent beyond the planned size.
    @Test(arguments: [(UInt64(0), UInt64(1000)), (UInt64(5), UInt64(4 * 1024 * 1024 + 1)), (UInt64(100), UInt64(0))])
    func lengthCapsTheBytesSent(fileOffset: UInt64, length: UInt64) throws {
        let server = try TestServer()
        let session = FTPSession(configuration: server.configuration())
        try session.connect()
        defer { session.quit() }
        let bytes = testBytes(6_000_000, seed: 21)
        let file = try LocalFile(bytes)
        let sent = try session.store("capped.bin", file: file.descriptor, fileOffset: fileOffset, length: length) { _ in
        }
        #expect(sent == length)
        #expect(server.contents("capped.bin") == Array(bytes[Int(fileOffset)..<Int(fileOffset + length)]))
    }

    /// A progress handler that throws abandons the upload; the session stays in step.
    @Test func throwingProgressAbandonsTheUploadAndKeepsTheSession() throws {
        struct Stop: Error {}
        let server = try TestServer()
        let session = FTPSession(configuration: server.configuration())
        try session.connect()
        defer { session.quit() }
        let file = try LocalFile(testBytes(9_000_000, seed: 3))
        #expect(throws: Stop.self) {
            try session.store("stopped.bin", file: file.descriptor, fileOffset: 0) { _ in throw Stop() }
        }
        #expect(try session.raw("NOOP").code == 200)
        let again = try session.store("stopped.bin", file: file.descriptor, fileOffset: 0) { _ in }
        #expect(again == 9_000_000)
    }

    /// A descriptor that cannot be read fails the upload with the local cause, not a crash.
    @Test func unreadableDescriptorFails() throws {
        let server = try TestServer()
        let session = FTPSession(configuration: server.configuration())
        try session.connect()
        defer { session.quit() }
        let folder = open(NSTemporaryDirectory(), O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(throws: (any Error).self) {
            try session.store("folder.bin", file: folder, fileOffset: 0) { _ in }
        }
        #expect(try session.raw("NOOP").code == 200)
    }
}
