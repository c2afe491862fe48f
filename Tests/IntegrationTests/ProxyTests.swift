// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 22, devices behind a proxy: microsocks (SOCKS5, RFC 1929 login) and tinyproxy (HTTP
/// CONNECT, Basic login) between ftpsync and a pyftpdlib server whose `--peer-log` records the
/// peer of every control and data connection. The proxy makes its outgoing connections from
/// an address of its own (`bind`), so a connection that did not go through the proxy shows up
/// as another peer. Also: what goes wrong at a proxy is told apart (a wrong login, the device
/// unreachable from the proxy, the proxy down), active mode is refused, the password may come
/// from the environment, and `check` shows the hop with the password masked.
/// Each test has its own addresses in 127.0.65.1–60 (the server, the proxy, its outgoing
/// address) and its own proxy port in 46500–46599; addresses in 127.0.66.x have nothing
/// listening. See Support/ProxyLab.swift.
struct ProxyTests {
    /// Where one test's server and proxy run.
    struct Place: Sendable, CustomTestStringConvertible {
        /// `socks5` (microsocks) or `http` (tinyproxy).
        var kind: String
        var server: String
        var proxy: String
        var bind: String
        var port: Int

        var testDescription: String { kind == "http" ? "tinyproxy" : "microsocks" }
    }

    static let proxyUser = "camproxy"
    static let proxyPassword = "Px-s3cret-91734"

    /// A server with a peer log, a proxy in front of it and the work folder.
    struct Lab {
        let work: String
        let server: FTPServer
        let proxy: ProxyProcess
        let peers: PeerLog

        func stop() {
            proxy.stop()
            server.stop()
        }

        /// Nil when every connection the server took came from the proxy, at least one control
        /// and (`data`) one data connection among them.
        func notThroughProxy(data: Bool = true) -> String? {
            peers.problem(allFrom: proxy.bind, needData: data)
        }
    }

    /// Starts a pyftpdlib server (serving `work/served`, with `options`) and the proxy of
    /// `place`, with a login.
    static func lab(_ place: Place, label: String, options: [String] = [], hosts: [String: String] = [:])
        throws -> Lab
    {
        let work = try makeTemporaryFolder("proxy-\(label)-\(place.kind)")
        try FileManager.default.createDirectory(atPath: work + "/served", withIntermediateDirectories: true)
        let peers = PeerLog(path: work + "/peer.log")
        let server = try FTPServer(
            .pyftpdlib, root: work + "/served", address: place.server, options: peers.options + options)
        peers.clear()
        let proxy =
            place.kind == "http"
            ? try ProxyProcess.tinyproxy(
                address: place.proxy, port: place.port, bind: place.bind, user: proxyUser, password: proxyPassword)
            : try ProxyProcess.microsocks(
                address: place.proxy, port: place.port, bind: place.bind, user: proxyUser, password: proxyPassword,
                hosts: hosts)
        return Lab(work: work, server: server, proxy: proxy, peers: peers)
    }

    /// A config of one device `cam` (no retries) with `extra` lines (indented four spaces) over
    /// `work/mirror`; `host` replaces the server's address.
    static func config(_ server: FTPServer, work: String, extra: [String], host: String? = nil) throws -> String {
        var lines = [
            "local: \(work)/mirror", "devices:", "  - name: cam", "    host: \(host ?? server.address)",
            "    port: \(server.port)", "    user: \(server.user)", "    password: \(server.password)",
            "    retries: 0",
        ]
        lines += extra.map { "    " + $0 }
        let path = work + "/device.yaml"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// Seven files in nested folders, 0 bytes to 300 KB.
    static func tree() -> [SampleFile] {
        let base = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 2 * 86_400
        let sizes = [
            ("readme.txt", 40), ("DCIM/100/a.jpg", 300_000), ("DCIM/100/b.jpg", 70_000),
            ("DCIM/101/c.jpg", 4_096), ("logs/2024/today.log", 1_500), ("logs/empty.bin", 0), ("top.bin", 123_457),
        ]
        return sizes.enumerated().map { index, item in
            SampleFile(
                path: item.0, content: pseudoRandomBytes(item.1, seed: UInt64(100 + index)),
                modified: base - Double(index * 60))
        }
    }

    /// The paths of `files` whose copy under `root` is missing or differs.
    static func differing(_ files: [SampleFile], under root: String) -> [String] {
        files.filter { file in
            FileManager.default.contents(atPath: root + "/" + file.path).map { [UInt8]($0) } != file.content
        }.map(\.path)
    }

    /// Where `secret` shows: the run's output, or a file under `work/mirror` (logs, the state).
    static func leaks(_ secret: String, _ runs: [ProcessResult], work: String) -> [String] {
        var found = runs.enumerated().filter { ($0.element.stdout + $0.element.stderr).contains(secret) }.map {
            "output of run \($0.offset)"
        }
        let root = work + "/mirror"
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: root + "/" + relative),
                data.range(of: Data(secret.utf8)) != nil
            {
                found.append(relative)
            }
        }
        if let log = try? String(contentsOfFile: work + "/run.log", encoding: .utf8), log.contains(secret) {
            found.append("run.log")
        }
        return found
    }

    static func output(_ run: ProcessResult) -> String { (run.stdout + run.stderr).lowercased() }

    static let pulls = [
        Place(kind: "socks5", server: "127.0.65.1", proxy: "127.0.65.2", bind: "127.0.65.3", port: 46_500),
        Place(kind: "http", server: "127.0.65.4", proxy: "127.0.65.5", bind: "127.0.65.6", port: 46_501),
    ]

    /// A pull through the proxy: the tree arrives byte-identical, and every connection the
    /// server took (control and data) came from the proxy's outgoing address.
    @Test(arguments: pulls)
    func pullGoesThroughTheProxy(place: Place) throws {
        let lab = try Self.lab(place, label: "pull")
        defer { lab.stop() }
        let files = Self.tree()
        try writeTree(files, at: lab.work + "/served")
        let config = try Self.config(lab.server, work: lab.work, extra: ["proxy: \(lab.proxy.url())"])
        let pulled = try ftpsync(["pull", config, "--no-progress", "-v", "--log", lab.work + "/run.log"])
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(Self.differing(files, under: lab.work + "/mirror/cam").isEmpty)
        #expect(lab.notThroughProxy() == nil)
        #expect(Self.leaks(Self.proxyPassword, [pulled], work: lab.work).isEmpty)
    }

    static let pushes = [
        Place(kind: "socks5", server: "127.0.65.7", proxy: "127.0.65.8", bind: "127.0.65.9", port: 46_502),
        Place(kind: "http", server: "127.0.65.10", proxy: "127.0.65.11", bind: "127.0.65.12", port: 46_503),
    ]

    /// A push through the proxy: the tree arrives on the server, every connection from the proxy.
    @Test(arguments: pushes)
    func pushGoesThroughTheProxy(place: Place) throws {
        let lab = try Self.lab(place, label: "push")
        defer { lab.stop() }
        let files = Self.tree()
        try writeTree(files, at: lab.work + "/mirror/cam")
        let config = try Self.config(lab.server, work: lab.work, extra: ["proxy: \(lab.proxy.url())"])
        let pushed = try ftpsync(["push", config, "--no-progress", "-v", "--log", lab.work + "/run.log"])
        #expect(pushed.status == 0, "\(pushed.stdout)\(pushed.stderr)")
        #expect(Self.differing(files, under: lab.work + "/served").isEmpty)
        #expect(lab.server.count("STOR") + lab.server.count("APPE") >= files.count)
        #expect(lab.notThroughProxy() == nil)
        #expect(Self.leaks(Self.proxyPassword, [pushed], work: lab.work).isEmpty)
    }

    static let tlsPulls = [
        Place(kind: "socks5", server: "127.0.65.13", proxy: "127.0.65.14", bind: "127.0.65.15", port: 46_504),
        Place(kind: "http", server: "127.0.65.16", proxy: "127.0.65.17", bind: "127.0.65.18", port: 46_505),
    ]

    /// Explicit FTPS through the proxy (TLS from ftpsync to the server, inside the tunnel), the
    /// certificate pinned: the tree arrives, every connection from the proxy.
    @Test(arguments: tlsPulls)
    func ftpsGoesThroughTheProxy(place: Place) throws {
        let lab = try Self.lab(place, label: "ftps", options: ["--tls", "explicit"])
        defer { lab.stop() }
        let files = Self.tree()
        try writeTree(files, at: lab.work + "/served")
        let fingerprint = try #require(lab.server.fingerprint)
        let config = try Self.config(
            lab.server, work: lab.work,
            extra: ["proxy: \(lab.proxy.url())", "tls: explicit", "fingerprint: \"\(fingerprint)\""])
        let pulled = try ftpsync(["pull", config, "--no-progress", "-v"])
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(Self.differing(files, under: lab.work + "/mirror/cam").isEmpty)
        #expect(lab.notThroughProxy() == nil)
        #expect(lab.server.commands().contains { $0.uppercased().hasPrefix("AUTH") }, "TLS was used")
    }

    /// socks5h: the device's host is a name the proxy resolves, `localhost` (the server on
    /// 127.0.0.1).
    @Test func socks5hLetsTheProxyResolveLocalhost() throws {
        let place = Place(kind: "socks5", server: "127.0.0.1", proxy: "127.0.65.19", bind: "127.0.65.20", port: 46_506)
        let lab = try Self.lab(place, label: "socks5h-localhost")
        defer { lab.stop() }
        let files = Self.tree()
        try writeTree(files, at: lab.work + "/served")
        let url = lab.proxy.url(scheme: "socks5h")
        let config = try Self.config(lab.server, work: lab.work, extra: ["proxy: \(url)"], host: "localhost")
        let pulled = try ftpsync(["pull", config, "--no-progress"])
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(Self.differing(files, under: lab.work + "/mirror/cam").isEmpty)
        #expect(lab.notThroughProxy() == nil)
    }

    /// socks5h with a name only the proxy can resolve (its own /etc/hosts, in a mount namespace
    /// of its own): ftpsync must hand the name to the proxy, never look it up itself.
    @Test(.enabled(if: ProxyProcess.canGiveOwnHosts, "needs unshare --mount (root)"))
    func socks5hLetsTheProxyResolveANameOnlyItKnows() throws {
        let place = Place(
            kind: "socks5", server: "127.0.65.21", proxy: "127.0.65.22", bind: "127.0.65.23", port: 46_507)
        let name = "cam.proxy-only.test"
        let lab = try Self.lab(place, label: "socks5h-name", hosts: [name: place.server])
        defer { lab.stop() }
        let files = Self.tree()
        try writeTree(files, at: lab.work + "/served")
        let url = lab.proxy.url(scheme: "socks5h")
        let config = try Self.config(lab.server, work: lab.work, extra: ["proxy: \(url)"], host: name)
        let pulled = try ftpsync(["pull", config, "--no-progress"])
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(Self.differing(files, under: lab.work + "/mirror/cam").isEmpty)
        #expect(lab.notThroughProxy() == nil)
    }

    // MARK: - What goes wrong at a proxy; the password from the environment; check

    /// A password no proxy accepts, distinctive enough to be searched for in every output.
    static let wrongPassword = "Wr0ng-Px-Pw-55821"

    static let wrongLogins = [
        Place(kind: "socks5", server: "127.0.65.24", proxy: "127.0.65.25", bind: "127.0.65.26", port: 46_508),
        Place(kind: "http", server: "127.0.65.27", proxy: "127.0.65.28", bind: "127.0.65.29", port: 46_509),
    ]

    /// A wrong proxy password: exit 1, the message blames the proxy's login, and the wrong
    /// password shows nowhere (output, --log, state); the server saw no connection.
    @Test(arguments: wrongLogins)
    func aWrongProxyPasswordBlamesTheProxy(place: Place) throws {
        let lab = try Self.lab(place, label: "wrong-login")
        defer { lab.stop() }
        try writeFile(lab.work + "/served/a.txt", Array("alpha\n".utf8), modified: 1_700_000_000)
        let url = lab.proxy.url(password: Self.wrongPassword)
        let config = try Self.config(lab.server, work: lab.work, extra: ["proxy: \(url)"])
        let pulled = try ftpsync(["pull", config, "--no-progress", "-v", "--log", lab.work + "/run.log"])
        let checked = try ftpsync(["check", config, "-v"])
        for run in [pulled, checked] {
            let text = Self.output(run)
            #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
            #expect(text.contains("proxy"), "\(text)")
            if place.kind == "http" {
                #expect(text.contains("407") || text.contains("user name and password"), "\(text)")
            } else {
                #expect(text.contains("user name and password"), "\(text)")
            }
        }
        #expect(Self.leaks(Self.wrongPassword, [pulled, checked], work: lab.work).isEmpty)
        #expect(lab.peers.entries.isEmpty, "the proxy let nothing through: \(lab.peers.entries)")
        #expect(!FileManager.default.fileExists(atPath: lab.work + "/mirror/cam/a.txt"))
    }

    /// A proxy (no login) and, at `device`, nothing listening.
    static let closedDevices = [
        (Place(kind: "socks5", server: "", proxy: "127.0.65.30", bind: "127.0.65.31", port: 46_510), "127.0.65.32"),
        (Place(kind: "http", server: "", proxy: "127.0.65.33", bind: "127.0.65.34", port: 46_511), "127.0.65.35"),
    ]

    /// The proxy answers but cannot reach the device (its port is closed): exit 1, the message
    /// says the proxy could not reach the device.
    @Test(arguments: closedDevices)
    func aClosedDevicePortIsTheDevicesFault(place: Place, device: String) throws {
        let work = try makeTemporaryFolder("proxy-closed-\(place.kind)")
        let proxy =
            place.kind == "http"
            ? try ProxyProcess.tinyproxy(address: place.proxy, port: place.port, bind: place.bind)
            : try ProxyProcess.microsocks(address: place.proxy, port: place.port, bind: place.bind)
        defer { proxy.stop() }
        let config = try Self.bareConfig(work: work, host: device, lines: ["proxy: \(proxy.url())"])
        let pulled = try ftpsync(["pull", config, "--no-progress"])
        #expect(pulled.status == 1, "\(pulled.stdout)\(pulled.stderr)")
        #expect(Self.output(pulled).contains("could not reach the device"), "\(pulled.stdout)\(pulled.stderr)")
    }

    /// Nothing listens where the proxy should be: exit 1, "cannot connect to the proxy".
    @Test(arguments: ["socks5://127.0.66.1:46512", "http://127.0.66.2:46513"])
    func aProxyThatIsDownIsTheProxysFault(url: String) throws {
        let work = try makeTemporaryFolder("proxy-down")
        let config = try Self.bareConfig(work: work, host: "127.0.65.36", lines: ["proxy: \(url)"])
        let pulled = try ftpsync(["pull", config, "--no-progress"])
        #expect(pulled.status == 1, "\(pulled.stdout)\(pulled.stderr)")
        #expect(Self.output(pulled).contains("cannot connect to the proxy"), "\(pulled.stdout)\(pulled.stderr)")
    }

    /// Active mode cannot go through a proxy: `passive: false` with `proxy` is a configuration
    /// error (exit 2) at the line of `passive: false`, before any connection.
    @Test func activeModeWithAProxyIsAConfigError() throws {
        let work = try makeTemporaryFolder("proxy-active")
        // lines: 1 local, 2 devices, 3 name, 4 host, 5 port, 6 user, 7 password, 8 passive, 9 proxy
        let config = try Self.bareConfig(
            work: work, host: "127.0.65.36", lines: ["passive: false", "proxy: socks5://127.0.66.3:46514"])
        for command in ["pull", "check"] {
            let run = try ftpsync([command, config])
            #expect(run.status == 2, "\(command): \(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("device.yaml:8:"), "\(command): \(run.stderr)")
        }
    }

    static let environmentPasswords = [
        Place(kind: "socks5", server: "127.0.65.37", proxy: "127.0.65.38", bind: "127.0.65.39", port: 46_515),
        Place(kind: "http", server: "127.0.65.40", proxy: "127.0.65.41", bind: "127.0.65.42", port: 46_516),
    ]

    /// `proxy_password_env`: the proxy's password comes from the environment; the pull works
    /// through the proxy and prints it nowhere. Without the variable set, the device fails.
    @Test(arguments: environmentPasswords)
    func theProxyPasswordMayComeFromTheEnvironment(place: Place) throws {
        let lab = try Self.lab(place, label: "password-env")
        defer { lab.stop() }
        let files = Self.tree()
        try writeTree(files, at: lab.work + "/served")
        let variable = "FTPSYNC_IT_PROXY_PW_\(place.port)"
        let config = try Self.config(
            lab.server, work: lab.work,
            extra: ["proxy: \(lab.proxy.url(withPassword: false))", "proxy_password_env: \(variable)"])
        let pulled = try ftpsync(
            ["pull", config, "--no-progress", "-v", "--log", lab.work + "/run.log"],
            environment: [variable: Self.proxyPassword])
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(Self.differing(files, under: lab.work + "/mirror/cam").isEmpty)
        #expect(lab.notThroughProxy() == nil)
        #expect(Self.leaks(Self.proxyPassword, [pulled], work: lab.work).isEmpty)

        let unset = try ftpsync(["pull", config, "--no-progress"])
        #expect(unset.status != 0, "\(unset.stdout)\(unset.stderr)")
        #expect(unset.stdout.contains(variable) || unset.stderr.contains(variable), "\(unset.stdout)\(unset.stderr)")
    }

    static let checks = [
        Place(kind: "socks5", server: "127.0.65.43", proxy: "127.0.65.44", bind: "127.0.65.45", port: 46_517),
        Place(kind: "http", server: "127.0.65.46", proxy: "127.0.65.47", bind: "127.0.65.48", port: 46_518),
    ]

    /// `check` goes through the proxy and reports it: a `proxy:` line with the password shown
    /// as `****`, a `proxy` object in `--json`; the password itself never.
    @Test(arguments: checks)
    func checkReportsTheProxyHop(place: Place) throws {
        let lab = try Self.lab(place, label: "check")
        defer { lab.stop() }
        let config = try Self.config(lab.server, work: lab.work, extra: ["proxy: \(lab.proxy.url())"])
        let checked = try ftpsync(["check", config])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        let lines = checked.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let line = try #require(lines.first { $0.hasPrefix("proxy:") }, "\(checked.stdout)")
        #expect(line.contains("****") && line.contains("\(place.proxy):\(place.port)"), "\(line)")
        #expect(line.contains(place.kind + "://"), "\(line)")

        let json = try ftpsync(["check", config, "--json"])
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let device = (document?["devices"] as? [[String: Any]])?.first
        #expect(device?["proxy"] is [String: Any], "\(json.stdout)")
        #expect(Self.leaks(Self.proxyPassword, [checked, json], work: lab.work).isEmpty)
        #expect(lab.notThroughProxy(data: false) == nil)
    }

    /// A config of one device `cam` at `host` (port 21, no retries) with `lines` after its
    /// password (the first at line 8).
    static func bareConfig(work: String, host: String, lines: [String]) throws -> String {
        let text =
            [
                "local: \(work)/mirror", "devices:", "  - name: cam", "    host: \(host)", "    port: 21",
                "    user: tester", "    password: t3st-pw",
            ] + lines.map { "    " + $0 } + ["    retries: 0"]
        let path = work + "/device.yaml"
        try (text.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }
}
