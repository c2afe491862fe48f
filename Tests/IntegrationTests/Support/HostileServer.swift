// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// `scripts/hostile-ftp.py`: a misbehaving FTP server on loopback (see the script's modes).
final class HostileServer: @unchecked Sendable {
    let mode: String
    let address: String
    let port: Int
    private let process: ScriptServerProcess
    private var stopped = false

    /// Starts the server in `mode` on `address` (a free port) and waits until it listens.
    /// - Parameters:
    ///   - root: the folder a folder mode (`folder`, `stall-after-rnto`, ...) serves.
    ///   - environment: more settings of the mode (e.g. `HOSTILE_STALL`).
    init(_ mode: String, address: String, root: String? = nil, environment: [String: String] = [:]) throws {
        self.mode = mode
        self.address = address
        var settings = environment
        if let root { settings["HOSTILE_ROOT"] = root }
        process = try ScriptServerProcess(
            script: "hostile-ftp.py", [mode, address], environment: settings,
            what: "hostile-ftp.py \(mode) on \(address)")
        port = process.port
    }

    /// The lines the server printed after its port (e.g. the `tls-*` modes' certificate
    /// fingerprint), waiting up to 10 s for at least `count` of them.
    func printedLines(atLeast count: Int = 1) -> [String] { process.printedLines(atLeast: count) }

    /// Stops the server (idempotent).
    func stop() {
        if stopped { return }
        stopped = true
        process.stop()
    }

    deinit { stop() }

    /// The commands received so far as "VERB ARG" (the tree modes log them on stderr).
    func commands() -> [String] { process.commands() }

    /// A config file for one device "cam" on this server, written into `folder`; `connections`
    /// (when given) is the device's `connections`.
    func config(
        local: String, at folder: String, timeout: Int = 2, retries: Int = 1, connections: Int? = nil
    ) throws -> String {
        let extra = connections.map { "    connections: \($0)\n" } ?? ""
        let text = """
            local: \(local)
            devices:
              - name: cam
                host: \(address)
                port: \(port)
                user: tester
                password_env: HOSTILE_PASS
                timeout: \(timeout)
                retries: \(retries)
            \(extra)
            """
        let path = folder + "/device.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
