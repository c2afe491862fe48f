// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A server of any KIND `scripts/ftp-server.sh` knows (pyftpdlib, vsftpd, proftpd, pure-ftpd,
/// busybox), started on loopback and stopped with it. `FTPServer` covers the first two with
/// its command-log helpers; this one only needs to serve.
final class LabServer: @unchecked Sendable {
    let kind: String
    let address: String
    let port: Int
    let user = "lstester"
    let password = "ls-t3st-pw"
    private let pid: String

    /// Starts `kind` serving `root` on `address`, on a free port.
    /// - Parameter environment: for the server's process (e.g. libfaketime's `FAKETIME`).
    init(
        _ kind: String, root: String, address: String, options: [String] = [], environment: [String: String] = [:]
    ) throws {
        self.kind = kind
        self.address = address
        let result = try run(
            packageRoot + "/scripts/ftp-server.sh",
            ["start", kind, root, address, "0", user, password, "--owner", String(getpid())] + options,
            environment: environment, timeout: 600)
        let words = result.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        guard result.status == 0, words.count == 2, let port = Int(words[1]) else {
            throw FTPServer.ServerError(message: "could not start \(kind) on \(address): \(result.stderr)")
        }
        pid = words[0]
        self.port = port
    }

    /// Stops the server (idempotent).
    func stop() {
        _ = try? run(packageRoot + "/scripts/ftp-server.sh", ["stop", pid], timeout: 60)
    }

    deinit { stop() }

    /// A config file with one device `name` for this server; returns its path.
    func writeConfig(in folder: String, name: String, extra: [String] = []) throws -> String {
        var lines = [
            "local: \(folder)/mirror", "devices:", "  - name: \(name)", "    host: \(address)", "    port: \(port)",
            "    user: \(user)", "    password: \(password)",
        ]
        lines += extra.map { "    " + $0 }
        let path = folder + "/device.yaml"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)  // it holds a password: no permission warning (pull, check and ls warn alike)
        return path
    }
}

/// One entry of `ftpsync ls --json`, as parsed from its output.
struct ListedEntry: Hashable, CustomStringConvertible {
    var name: String
    var type: String
    var size: UInt64?
    var modified: String?

    var description: String { "\(type) \(name) \(size.map(String.init) ?? "-") \(modified ?? "-")" }
}

/// The entries of an `ls --json` document (empty when it does not parse).
func listedEntries(_ json: String) -> [ListedEntry] {
    guard let document = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
        let entries = document["entries"] as? [[String: Any]]
    else { return [] }
    return entries.map { item in
        ListedEntry(
            name: item["name"] as? String ?? "", type: item["type"] as? String ?? "",
            size: (item["size"] as? NSNumber)?.uint64Value, modified: item["modified"] as? String)
    }
}
