// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// `/work/shared/netsim/latency_proxy.py` in front of a server, standing for a link or a
/// middlebox that flips one bit of one data stream, once (`--corrupt-once N`: byte N of the
/// first data connection carrying more than N bytes from the server; `--corrupt-upload-once N`:
/// the same for bytes going to the server), optionally at a capped rate (`--rate-mbit`).
///
/// The relay listens on `address` at the server's control port and at each of its passive
/// ports, and forwards each to the same port on the server's address. The server must take
/// its passive ports from `passivePorts` only (`--pasv-ports`); no masquerade is needed, since
/// ftpsync connects data connections to its control connection's peer (the relay).
final class CorruptingRelay: @unchecked Sendable {
    /// Which stream loses a bit, and at which byte (counted from 0).
    enum Fault: Sendable {
        /// Nothing is changed (a plain relay, with its rate cap if any).
        case none
        /// Byte `at` of the first data connection from the server longer than that.
        case download(at: Int)
        /// Byte `at` of the first data connection to the server longer than that.
        case upload(at: Int)

        var arguments: [String] {
            switch self {
            case .none: []
            case .download(let offset): ["--corrupt-once", String(offset)]
            case .upload(let offset): ["--corrupt-upload-once", String(offset)]
            }
        }
    }

    struct RelayError: Error, CustomStringConvertible {
        var description: String
    }

    /// The address clients connect to; the control port is the server's.
    let address: String
    private let pid: pid_t
    private let output: Spawned
    private var stopped = false

    /// Starts relaying `address:port` and `address:passivePorts` to the same ports on `target`,
    /// and returns once every port listens (the relay writes its `--portfile` then); throws
    /// when the relay exits or is not ready within 15 s (a port in use, say), with what it
    /// printed.
    /// - Parameters:
    ///   - rateMbit: a cap per connection and direction, in megabits per second; nil: none.
    ///   - seconds: the relay stops by itself after this long, in case a test never stops it.
    init(
        address: String, target: String, port: Int, passivePorts: ClosedRange<Int>, fault: Fault,
        rateMbit: Double? = nil, seconds: Int = 900
    ) throws {
        self.address = address
        let ready = NSTemporaryDirectory() + "ftpsync-it-relay-\(UUID().uuidString.prefix(8))"
        let arguments =
            [
                "/work/shared/netsim/latency_proxy.py", "--listen", address, "--target", target, "--rtt-ms", "0",
                "--ports", "\(port),\(passivePorts.lowerBound)-\(passivePorts.upperBound)", "--portfile", ready,
                "--seconds", String(seconds),
            ] + fault.arguments + (rateMbit.map { ["--rate-mbit", String($0)] } ?? [])
        let child = try spawn("/usr/bin/python3", arguments, output: true)
        output = child
        pid = child.pid
        defer { unlink(ready) }
        var exited = false
        let started = waitUntil(15) {
            var status: Int32 = 0
            if waitpid(child.pid, &status, WNOHANG) == child.pid {
                exited = true
                return true
            }
            return (try? String(contentsOfFile: ready, encoding: .utf8))?.hasPrefix("ready") == true
        }
        guard started, !exited else {
            if !exited {
                kill(child.pid, SIGKILL)
                _ = waitForExit(child.pid, timeout: 5)
            }
            stopped = true
            let printed = (try? String(contentsOfFile: child.stderr, encoding: .utf8)) ?? ""
            unlink(child.stdout)
            unlink(child.stderr)
            throw RelayError(description: "the relay on \(address) did not start: \(printed)")
        }
    }

    /// Cuts the link at once (SIGKILL): every connection breaks, the bytes the relay holds never
    /// arrive.
    func cut() { end(SIGKILL) }

    /// Stops the relay (idempotent).
    func stop() { end(SIGTERM) }

    /// Ends the relay with `signal` (once) and removes its output files.
    private func end(_ signal: Int32) {
        if stopped { return }
        stopped = true
        kill(pid, signal)
        _ = waitForExit(pid, timeout: 5)
        unlink(output.stdout)
        unlink(output.stderr)
    }

    deinit { stop() }
}
