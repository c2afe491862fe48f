// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pyftpdlib server (`ftp_server.py` beside this file) on loopback for the unit tests of
/// several targets (FTPClientTests, SyncRunnerTests), killed when released.
public final class PythonFTPServer {
    /// The server did not print its `READY <port>` line.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    private let process = Process()
    /// The port it listens on (chosen by the system).
    public let port: Int

    /// Starts the server on `host` serving the folder `root` for `user`/`password`, with extra
    /// options of ftp_server.py (`--no-epsv-mlsd`, `--masquerade A`, `--throttle BPS`,
    /// `--drop-after N`, `--silent`), and waits for its `READY <port>` line.
    /// - Throws: `StartError` when it does not start.
    public init(host: String, root: String, user: String, password: String, options: [String] = []) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ftp_server.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [script.path, "--host", host, "--root", root, "--user", user, "--password", password] + options
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard text.hasPrefix("READY "), let port = Int(text.dropFirst(6).prefix { $0.isNumber }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw StartError(description: "ftp_server.py did not start: \(text)")
        }
        self.port = port
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
