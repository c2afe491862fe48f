// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Glibc

/// A server of the lab started by `scripts/ftp-server.sh` (vsftpd or pyftpdlib, with TLS
/// options), stopped when released. Output goes to temporary files; waitpid reaps.
final class LabServer {
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    static let script: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path + "/scripts/ftp-server.sh"
    }()

    let root: String
    let address: String
    let port: Int
    let pid: String
    let user = "tlstester"
    let password = "tls-pw-1"
    /// The certificate's SHA-256, `sha256:AB:...`, from the run folder's info file.
    let fingerprint: String
    let logPath: String

    init(kind: String, address: String, options: [String]) throws {
        root = NSTemporaryDirectory() + "ftpclient-tls-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        chmod(root, 0o755)
        self.address = address
        logPath = root + ".log"
        let result = Self.run(
            ["start", kind, root, address, "0", user, password, "--log", logPath, "--owner", String(getpid())]
                + options)
        let words = result.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        guard result.status == 0, words.count == 2, let port = Int(words[1]) else {
            throw StartError(description: "ftp-server.sh start failed: \(result.stderr)")
        }
        pid = words[0]
        self.port = port
        let lab = ProcessInfo.processInfo.environment["FTPSYNC_LAB"] ?? "/tmp/ftpsync-lab"
        let info = (try? String(contentsOfFile: "\(lab)/run/\(kind)-\(address)-\(port)/info", encoding: .utf8)) ?? ""
        fingerprint =
            info.split(separator: "\n").first { $0.hasPrefix("FINGERPRINT=") }.map {
                String($0.dropFirst("FINGERPRINT=".count))
            } ?? ""
    }

    deinit {
        _ = Self.run(["stop", pid])
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The commands the server logged (PASS masked).
    func commands() -> [String] {
        Self.run(["commands", logPath]).stdout.split(separator: "\n").map(String.init)
    }

    private static func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let token = UUID().uuidString.prefix(8)
        let out = NSTemporaryDirectory() + "labserver-out-\(token)"
        let err = NSTemporaryDirectory() + "labserver-err-\(token)"
        defer {
            unlink(out)
            unlink(err)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([script] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, script, &actions, nil, argv, environ) == 0 else { return (-1, "", "spawn failed") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        return (
            code, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        )
    }
}
