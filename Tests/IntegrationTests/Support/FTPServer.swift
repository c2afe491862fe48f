// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A real FTP server on loopback, started through `scripts/ftp-server.sh` and stopped with it.
final class FTPServer: @unchecked Sendable {
    enum Kind: String, CaseIterable {
        case pyftpdlib
        case vsftpd
        case proftpd
        case pureFTPd = "pure-ftpd"
        case busybox

        /// Whether `ftp-server.sh commands` can show what this kind received: pure-ftpd and
        /// busybox ftpd keep no command log the script reads, so tests check the disk instead.
        var logsCommands: Bool { self != .pureFTPd && self != .busybox }

        /// Whether the lab can limit this kind's transfer rate (`--throttle`).
        var throttles: Bool { self == .pyftpdlib || self == .vsftpd }
    }

    let kind: Kind
    let address: String
    let port: Int
    let user: String
    let password: String
    let root: String
    /// The server's log of commands (read through `ftp-server.sh commands`).
    let logPath: String
    private let pid: String

    /// Starts a server serving `root` and waits until it answers.
    init(
        _ kind: Kind, root: String, address: String, port: Int = 0, user: String = "tester",
        password: String = "t3st-pw", options: [String] = []
    ) throws {
        self.kind = kind
        self.address = address
        self.root = root
        self.user = user
        self.password = password
        logPath = root + ".log"
        let owner = String(getpid())
        let result = try run(
            packageRoot + "/scripts/ftp-server.sh",
            ["start", kind.rawValue, root, address, String(port), user, password, "--log", logPath, "--owner", owner]
                + options,
            timeout: 300)
        let words = result.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        // "PID PORT" when the script picked the port, "PID" when it was given.
        let chosen = words.count == 2 ? Int(words[1]) : (words.count == 1 && port != 0 ? port : nil)
        guard result.status == 0, let chosen else {
            throw ServerError(message: "could not start \(kind.rawValue) on \(address): \(result.stderr)")
        }
        self.pid = words[0]
        self.port = chosen
    }

    struct ServerError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Stops the server (idempotent).
    func stop() {
        _ = try? run(packageRoot + "/scripts/ftp-server.sh", ["stop", pid], timeout: 60)
    }

    deinit { stop() }

    /// The commands the server received since it started, as logged (PASS masked).
    func commands() -> [String] {
        let result = try? run(packageRoot + "/scripts/ftp-server.sh", ["commands", logPath], timeout: 30)
        return (result?.stdout ?? "").split(separator: "\n").map(String.init)
    }

    /// Number of logged commands starting with `verb` (e.g. "RETR").
    func count(_ verb: String) -> Int {
        commands().filter { $0.uppercased().hasPrefix(verb + " ") || $0.uppercased() == verb }.count
    }

    /// A device entry for a config file.
    func deviceYAML(name: String, remote: String = "/", extra: String = "") -> String {
        """
          - name: \(name)
            host: \(address)
            port: \(port)
            user: \(user)
            password: \(password)
            remote: \(remote)
        \(extra)
        """
    }
}
