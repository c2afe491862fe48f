import Foundation

/// A real FTP server on loopback, started through `scripts/ftp-server.sh` and stopped with it.
final class FTPServer: @unchecked Sendable {
    enum Kind: String {
        case pyftpdlib
        case vsftpd
    }

    let kind: Kind
    let address: String
    let port: Int
    let user: String
    let password: String
    let root: String
    /// The server's log of commands (one `CMD …` per command, PASS masked), when asked for.
    let logPath: String
    private let pid: String

    /// Starts a server serving `root` and waits until it answers.
    init(
        _ kind: Kind, root: String, address: String, user: String = "tester", password: String = "t3st-pw",
        options: [String] = []
    ) throws {
        self.kind = kind
        self.address = address
        self.root = root
        self.user = user
        self.password = password
        logPath = root + ".log"
        var lastError = ""
        for _ in 0..<3 {
            let port = freePort(on: address)
            let result = try run(
                packageRoot + "/scripts/ftp-server.sh",
                ["start", kind.rawValue, root, address, String(port), user, password, "--log", logPath] + options,
                timeout: 300)
            let pid = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if result.status == 0, !pid.isEmpty {
                self.port = port
                self.pid = pid
                return
            }
            lastError = result.stderr
        }
        throw ServerError(message: "could not start \(kind.rawValue) on \(address): \(lastError)")
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

    /// The commands the server received since it started, as logged.
    func commands() -> [String] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "CMD ") else { return nil }
            return String(line[range.upperBound...])
        }
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
