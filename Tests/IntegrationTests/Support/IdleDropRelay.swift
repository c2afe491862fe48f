// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// `/work/shared/netsim/latency_proxy.py`: a relay in front of a server that adds a round trip
/// and, like a NAT router, closes a connection (control or passive data) idle for `idleDrop`
/// seconds.
/// The server must take its passive ports from `passivePorts` (`--pasv-ports`).
final class IdleDropRelay: @unchecked Sendable {
    /// The address clients connect to; the control port is the server's.
    let address: String
    private let pid: pid_t
    private var stopped = false

    /// Relays `address:port` and `address:passivePorts` to the same ports on `target`; returns
    /// once the control port takes connections.
    /// - Parameters:
    ///   - idleDrop: seconds after which an idle connection is closed; 0: never.
    ///   - rttMilliseconds: the round trip the relay adds.
    init(
        address: String, target: String, port: Int, passivePorts: ClosedRange<Int>, idleDrop: Int,
        rttMilliseconds: Int = 0
    ) throws {
        self.address = address
        let script = "/work/shared/netsim/latency_proxy.py"
        pid = try spawn(
            "/usr/bin/python3",
            [
                script, "--listen", address, "--target", target, "--rtt-ms", String(rttMilliseconds), "--idle-drop",
                String(idleDrop), "--seconds", "300", "--ports",
                "\(port),\(passivePorts.lowerBound)-\(passivePorts.upperBound)",
            ], output: false
        ).pid
        for _ in 0..<100 where !Self.listens(address, port) { usleep(50_000) }
    }

    private static func listens(_ address: String, _ port: Int) -> Bool {
        (try? run("/usr/bin/python3", ["-c", "import socket; socket.create_connection(('\(address)', \(port)), 1)"]))?
            .status == 0
    }

    /// Stops the relay (idempotent).
    func stop() {
        if stopped { return }
        stopped = true
        kill(pid, SIGTERM)
        _ = waitForExit(pid, timeout: 5)
    }

    deinit { stop() }
}
