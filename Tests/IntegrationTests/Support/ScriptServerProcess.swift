// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A Python FTP server of `scripts/` (hostile-ftp.py, listing-ftp.py) running on loopback: the
/// script prints its port as its first line and logs each command it receives as `CMD VERB ARG`
/// on stderr.
struct ScriptServerProcess: Sendable {
    let child: Spawned
    /// The port the script listens on.
    let port: Int

    /// Starts `scripts/<script>` with `arguments` and waits up to 10 s for its port.
    /// - Throws: `FTPServer.ServerError` naming `what` when no port was printed in time.
    init(script: String, _ arguments: [String], environment: [String: String] = [:], what: String) throws {
        child = try spawn(
            "/usr/bin/python3", [packageRoot + "/scripts/" + script] + arguments, environment: environment,
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
            throw FTPServer.ServerError(message: "\(what) did not start")
        }
        port = found
    }

    /// The lines the script printed after its port, waiting up to 10 s for at least `count`.
    func printedLines(atLeast count: Int) -> [String] {
        var lines: [String] = []
        for _ in 0..<500 {
            let text = (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").dropFirst().map(String.init)
            if lines.count >= count { break }
            usleep(20_000)
        }
        return lines
    }

    /// The commands received so far, "VERB ARG".
    func commands() -> [String] {
        let text = (try? String(contentsOfFile: child.stderr, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            line.hasPrefix("CMD ") ? String(line.dropFirst(4)) : nil
        }
    }

    /// Kills the script, reaps it and removes its output files.
    func stop() {
        kill(child.pid, SIGKILL)
        var status: Int32 = 0
        waitpid(child.pid, &status, 0)
        unlink(child.stdout)
        unlink(child.stderr)
    }
}
