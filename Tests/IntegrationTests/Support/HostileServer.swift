import Foundation

/// `scripts/hostile-ftp.py`: a misbehaving FTP server on loopback (see the script's modes).
final class HostileServer: @unchecked Sendable {
    let mode: String
    let address: String
    let port: Int
    private let child: Spawned
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
        child = try spawn(
            "/usr/bin/python3", [packageRoot + "/scripts/hostile-ftp.py", mode, address], environment: settings,
            output: true)
        var found: Int?
        for _ in 0..<500 {
            let text = (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first, let value = Int(line) {
                found = value
                break
            }
            usleep(20_000)
        }
        guard let found else {
            kill(child.pid, SIGKILL)
            throw FTPServer.ServerError(message: "hostile-ftp.py \(mode) did not start on \(address)")
        }
        port = found
    }

    /// The lines the server printed after its port (e.g. the `tls-*` modes' certificate
    /// fingerprint), waiting up to 10 s for at least `count` of them.
    func printedLines(atLeast count: Int = 1) -> [String] {
        var lines: [String] = []
        for _ in 0..<500 {
            let text = (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").dropFirst().map(String.init)
            if lines.count >= count { break }
            usleep(20_000)
        }
        return lines
    }

    /// Stops the server (idempotent).
    func stop() {
        if stopped { return }
        stopped = true
        kill(child.pid, SIGKILL)
        var status: Int32 = 0
        waitpid(child.pid, &status, 0)
        unlink(child.stdout)
        unlink(child.stderr)
    }

    deinit { stop() }

    /// The commands received so far as "VERB ARG" (the tree modes log them on stderr).
    func commands() -> [String] {
        let text = (try? String(contentsOfFile: child.stderr, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            line.hasPrefix("CMD ") ? String(line.dropFirst(4)) : nil
        }
    }

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
