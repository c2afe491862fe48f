// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A proxy for the proxy tests (issue 22): microsocks (SOCKS5) or tinyproxy (HTTP CONNECT),
/// listening on one loopback address and making its outgoing connections from another (`bind`),
/// so the server's `--peer-log` shows which connections came through it.
///
/// Neither proxy says when it is ready and microsocks takes no port 0: tests use fixed places,
/// addresses 127.0.65.1–60 and 127.0.66.1–60 and ports 46500–46599 (nothing else uses them),
/// each test its own. The proxy is stopped by `stop()`, on deinit, and by a watchdog when the
/// test process dies.
final class ProxyProcess: @unchecked Sendable {
    struct ProxyError: Error, CustomStringConvertible {
        var description: String
    }

    /// The proxy's URL scheme: `socks5` (microsocks) or `http` (tinyproxy).
    let scheme: String
    let address: String
    let port: Int
    /// The address the proxy's outgoing connections come from.
    let bind: String
    let user: String?
    let password: String?
    private let child: Spawned
    private let watchdog: pid_t
    /// Files to remove once stopped (tinyproxy's configuration folder).
    private let scratch: String?
    /// tinyproxy's own log (nil for microsocks, which prints to stderr).
    private let logFile: String?
    private var stopped = false
    /// Whether the proxy's exit was already collected (it exited during start-up).
    private var reaped = false

    /// Starts `executable arguments` (through `unshare` when `hosts` is given) and waits up to
    /// 10 s until `address:port` takes a connection.
    private init(
        scheme: String, executable: String, arguments: [String], address: String, port: Int, bind: String,
        user: String?, password: String?, scratch: String?, logFile: String?
    ) throws {
        self.scheme = scheme
        self.address = address
        self.port = port
        self.bind = bind
        self.user = user
        self.password = password
        self.scratch = scratch
        self.logFile = logFile
        let child = try spawn(executable, arguments, output: true)
        self.child = child
        // Stops the proxy once this test process is gone (a crash, a SIGKILL): no stale proxy
        // holds the fixed port for the next run.
        let script = "while kill -0 \"$1\" 2>/dev/null && kill -0 \"$2\" 2>/dev/null; do sleep 1; done; kill -9 \"$2\""
        watchdog =
            (try? spawn("/bin/bash", ["-c", script, "watchdog", String(getpid()), String(child.pid)], output: false))?
            .pid ?? 0
        var exited = false
        let ready = waitUntil(10) {
            exited = Self.exited(child.pid)
            return exited || acceptsConnection(address, port)
        }
        // another proxy still on the port (this one then fails to bind and exits)
        if ready && !exited {
            usleep(50_000)
            exited = Self.exited(child.pid)
        }
        reaped = exited
        if !ready || exited {
            let printed = (try? String(contentsOfFile: child.stderr, encoding: .utf8)) ?? ""
            let logged = logFile.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
            end()
            let why = exited ? "exited" : "did not take connections on \(address):\(port) within 10 s"
            throw ProxyError(description: "\(executable) \(why): \(printed)\(logged)")
        }
    }

    /// microsocks on `address:port`, connecting out from `bind`; with `user` and `password`
    /// it requires them (RFC 1929). `hosts`: names only this proxy resolves (name → IPv4
    /// address), through a private /etc/hosts in its own mount namespace (`unshare --mount`,
    /// see `canGiveOwnHosts`).
    static func microsocks(
        address: String, port: Int, bind: String, user: String? = nil, password: String? = nil,
        hosts: [String: String] = [:]
    ) throws -> ProxyProcess {
        var arguments = ["-i", address, "-p", String(port), "-b", bind]
        if let user, let password { arguments += ["-u", user, "-P", password] }
        var executable = "/usr/bin/microsocks"
        var scratch: String?
        if !hosts.isEmpty {
            let folder = try makeTemporaryFolder("proxy-hosts")
            let lines = ["127.0.0.1 localhost"] + hosts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: folder + "/hosts", atomically: true, encoding: .utf8)
            let mount = "mount --bind \"$0\" /etc/hosts && exec \"$@\""
            arguments = ["--mount", "/bin/sh", "-c", mount, folder + "/hosts", executable] + arguments
            executable = "/usr/bin/unshare"
            scratch = folder
        }
        return try ProxyProcess(
            scheme: "socks5", executable: executable, arguments: arguments, address: address, port: port,
            bind: bind, user: user, password: password, scratch: scratch, logFile: nil)
    }

    /// tinyproxy on `address:port`, connecting out from `bind` (`Bind`); with `user` and
    /// `password` it requires them (`BasicAuth`). Every port may be reached with CONNECT (no
    /// `ConnectPort` line), or only `connectPorts` when given.
    static func tinyproxy(
        address: String, port: Int, bind: String, user: String? = nil, password: String? = nil,
        connectPorts: [Int] = []
    ) throws -> ProxyProcess {
        let folder = try makeTemporaryFolder("tinyproxy")
        var lines = [
            "Port \(port)", "Listen \(address)", "Bind \(bind)", "MaxClients 100", "Timeout 60",
            "LogFile \"\(folder)/tinyproxy.log\"", "LogLevel Info", "PidFile \"\(folder)/tinyproxy.pid\"",
        ]
        if let user, let password { lines.append("BasicAuth \(user) \(password)") }
        lines += connectPorts.map { "ConnectPort \($0)" }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: folder + "/tinyproxy.conf", atomically: true, encoding: .utf8)
        return try ProxyProcess(
            scheme: "http", executable: "/usr/bin/tinyproxy", arguments: ["-d", "-c", folder + "/tinyproxy.conf"],
            address: address, port: port, bind: bind, user: user, password: password, scratch: folder,
            logFile: folder + "/tinyproxy.log")
    }

    /// Whether `unshare --mount` works here (root, or a user namespace): needed for `hosts`.
    static let canGiveOwnHosts: Bool = {
        (try? run("/usr/bin/unshare", ["--mount", "/bin/true"], timeout: 10))?.status == 0
    }()

    /// The `proxy:` value: `SCHEME://[user:password@]address:port`; `password` replaces the
    /// proxy's own (a wrong one), `scheme` its scheme (`socks5h`).
    func url(scheme: String? = nil, password: String? = nil, withPassword: Bool = true) -> String {
        var credentials = ""
        if let user {
            credentials = withPassword ? "\(user):\(password ?? self.password ?? "")@" : "\(user)@"
        }
        return "\(scheme ?? self.scheme)://\(credentials)\(address):\(port)"
    }

    /// What the proxy logged so far (tinyproxy's log file, microsocks' stderr).
    var log: String {
        let path = logFile ?? child.stderr
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Stops the proxy (idempotent).
    func stop() { end() }

    deinit { end() }

    private func end() {
        if stopped { return }
        stopped = true
        if !reaped {
            // SIGKILL: a proxy keeps nothing worth a clean exit, and the test process may hand
            // its children SIGTERM blocked (they then sat out waitForExit's 5 s).
            kill(child.pid, SIGKILL)
            _ = waitForExit(child.pid, timeout: 5)
        }
        if watchdog > 0 {
            kill(watchdog, SIGKILL)
            _ = waitForExit(watchdog, timeout: 5)
        }
        unlink(child.stdout)
        unlink(child.stderr)
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    /// Whether child `pid` has exited (its exit is then collected).
    private static func exited(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }
}

/// Whether a TCP connection to `address:port` (IPv4) is accepted within about a second.
func acceptsConnection(_ address: String, _ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var target = sockaddr_in()
    target.sin_family = sa_family_t(AF_INET)
    target.sin_port = in_port_t(UInt16(port).bigEndian)
    guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else { return false }
    return withUnsafePointer(to: &target) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// The `--peer-log` of a pyftpdlib lab server: one `control IP` or `data IP` line per
/// connection it accepted.
struct PeerLog {
    let path: String

    /// The option that makes the server write this log.
    var options: [String] { ["--peer-log", path] }

    /// Forgets what was logged so far (the start-up probe of `ftp-server.sh`, from 127.0.0.1).
    func clear() { truncate(path, 0) }

    /// The connections logged, as (kind, peer address).
    var entries: [(kind: String, peer: String)] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            return (words.first ?? "", words.count > 1 ? words[1] : "")
        }
    }

    /// Nil when at least one control connection (and with `needData` one data connection) was
    /// logged and every one came from `peer`; else what was logged instead.
    func problem(allFrom peer: String, needData: Bool = true) -> String? {
        let entries = self.entries
        let control = entries.filter { $0.kind == "control" }.count
        let data = entries.filter { $0.kind == "data" }.count
        let strangers = entries.filter { $0.peer != peer }
        if control >= 1, data >= 1 || !needData, strangers.isEmpty { return nil }
        return "expected control and data connections all from \(peer), logged: "
            + entries.map { "\($0.kind) \($0.peer)" }.joined(separator: ", ")
    }
}
