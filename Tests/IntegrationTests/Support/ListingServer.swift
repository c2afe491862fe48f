// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// `scripts/listing-ftp.py`: a scripted LIST-only server serving the folders and files of a
/// spec (see the script), on loopback.
final class ListingServer: @unchecked Sendable {
    let address: String
    let port: Int
    private let process: ScriptServerProcess
    private let specPath: String
    private var stopped = false

    /// Writes `spec` (the script's JSON spec) to a temporary file and starts the server on
    /// `address` (a free port), waiting until it listens.
    init(_ spec: [String: Any], address: String) throws {
        self.address = address
        specPath = NSTemporaryDirectory() + "listing-spec-\(UUID().uuidString.prefix(8)).json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        process = try ScriptServerProcess(
            script: "listing-ftp.py", [specPath, address], what: "listing-ftp.py on \(address)")
        port = process.port
    }

    /// Stops the server (idempotent).
    func stop() {
        if stopped { return }
        stopped = true
        process.stop()
        unlink(specPath)
    }

    deinit { stop() }

    /// The commands received so far, "VERB ARG".
    func commands() -> [String] { process.commands().map { $0.trimmingCharacters(in: .whitespaces) } }

    /// A config file for one device "cam" on this server (time zone UTC, `encoding` when
    /// given), written into `folder`.
    func config(local: String, at folder: String, encoding: String? = nil) throws -> String {
        var text = """
            local: \(local)
            devices:
              - name: cam
                host: \(address)
                port: \(port)
                user: tester
                password: secret
                timezone: UTC
                timeout: 3
                retries: 0

            """
        if let encoding { text += "    encoding: \(encoding)\n" }
        let path = folder + "/device.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
