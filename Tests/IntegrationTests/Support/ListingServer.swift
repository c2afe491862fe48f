import Foundation

/// `scripts/listing-ftp.py`: a scripted LIST-only server serving the folders and files of a
/// spec (see the script), on loopback.
final class ListingServer: @unchecked Sendable {
    let address: String
    let port: Int
    private let child: Spawned
    private let specPath: String
    private var stopped = false

    /// Writes `spec` (the script's JSON spec) to a temporary file and starts the server on
    /// `address` (a free port), waiting until it listens.
    init(_ spec: [String: Any], address: String) throws {
        self.address = address
        specPath = NSTemporaryDirectory() + "listing-spec-\(UUID().uuidString.prefix(8)).json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        child = try spawn(
            "/usr/bin/python3", [packageRoot + "/scripts/listing-ftp.py", specPath, address], output: true)
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
            throw FTPServer.ServerError(message: "listing-ftp.py did not start on \(address)")
        }
        port = found
    }

    /// Stops the server (idempotent).
    func stop() {
        if stopped { return }
        stopped = true
        kill(child.pid, SIGKILL)
        var status: Int32 = 0
        waitpid(child.pid, &status, 0)
        for path in [child.stdout, child.stderr, specPath] { unlink(path) }
    }

    deinit { stop() }

    /// The commands received so far, "VERB ARG".
    func commands() -> [String] {
        let text = (try? String(contentsOfFile: child.stderr, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            line.hasPrefix("CMD ") ? String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces) : nil
        }
    }

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
