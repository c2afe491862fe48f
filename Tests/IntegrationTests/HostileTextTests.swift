// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 13 items 8, 13 and 14 against scripted servers (`scripts/hostile-ftp.py` modes `huge`,
/// `echo-pass`, `escapes`) and pyftpdlib: sizes that add past 2^64 and local times past 2262
/// never crash; a password the server echoes appears in no output, log or state file; escape
/// sequences from the server never reach the terminal or the log raw.
/// Addresses 127.0.5.1–127.0.5.4.
@Suite(.serialized) struct HostileTextTests {
    static let password = "Sup3r-Secret-77"
    static let environment = ["HOSTILE_PASS": password]

    /// Runs ftpsync and returns its exit status and its raw output bytes (not decoded: a
    /// byte the run should never print must not vanish in decoding).
    private func runRaw(_ arguments: [String], environment: [String: String] = environment, timeout: Double = 60)
        throws -> (status: Int32, stdout: [UInt8], stderr: [UInt8])
    {
        let child = try spawn(ftpsyncBinary, arguments, environment: environment, output: true)
        let status = waitForExit(child.pid, timeout: timeout)
        defer {
            unlink(child.stdout)
            unlink(child.stderr)
        }
        let out = FileManager.default.contents(atPath: child.stdout).map { [UInt8]($0) } ?? []
        let err = FileManager.default.contents(atPath: child.stderr).map { [UInt8]($0) } ?? []
        return (status, out, err)
    }

    /// Runs ftpsync on a pseudo-terminal (`script`); returns the status and what the terminal got.
    private func onTerminal(_ arguments: [String]) throws -> (status: Int32, screen: [UInt8]) {
        let typescript = try makeTemporaryFolder("hostile-tty") + "/typescript"
        let command = ([ftpsyncBinary] + arguments).map(shellQuoted).joined(separator: " ")
        let result = try run(
            "/usr/bin/script", ["-qfec", command, typescript],
            environment: Self.environment.merging(["TERM": "xterm"]) { a, _ in a })
        let screen = FileManager.default.contents(atPath: typescript).map { [UInt8]($0) } ?? []
        return (result.status, screen)
    }

    /// Every file's bytes below `folder`, concatenated (the state database, its WAL, the log).
    private func allBytes(under folder: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let walker = FileManager.default.enumerator(atPath: folder)
        while let relative = walker?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: folder + "/" + relative) { bytes += data }
        }
        return bytes
    }

    private func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, haystack.count >= pattern.count else { return false }
        for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
            if Array(haystack[start..<(start + pattern.count)]) == pattern { return true }
        }
        return false
    }

    /// Control characters that reached `bytes` raw: C0 but LF (and CR, and the display's own
    /// `ESC [ J` / `ESC [ n A` when `terminal`), DEL, C1, the undecodable-byte code points
    /// (but in JSON, which keeps them so that a name round-trips), and invalid UTF-8.
    /// Empty when clean.
    private func rawControls(_ bytes: [UInt8], terminal: Bool = false, json: Bool = false) -> [String] {
        var text = bytes
        if terminal {
            // The live area's own redraw codes (Console.erase), nothing else.
            var cleaned: [UInt8] = []
            var k = 0
            while k < text.count {
                if text[k] == 0x1B, k + 1 < text.count, text[k + 1] == 0x5B {
                    var end = k + 2
                    while end < text.count, (0x30...0x39).contains(text[end]) { end += 1 }
                    if end < text.count, text[end] == 0x4A || text[end] == 0x41 {
                        k = end + 1
                        continue
                    }
                }
                cleaned.append(text[k])
                k += 1
            }
            text = cleaned
        }
        guard let decoded = String(validating: text, as: UTF8.self) else { return ["invalid UTF-8"] }
        var found: [String] = []
        for scalar in decoded.unicodeScalars {
            let v = scalar.value
            let allowed = v == 0x0A || (terminal && v == 0x0D)
            if (v < 0x20 && !allowed) || (0x7F...0x9F).contains(v) || (!json && (0xF780...0xF7FF).contains(v)) {
                found.append(String(v, radix: 16))
            }
        }
        return found
    }

    // MARK: - Item 8: sizes past 2^64, times past 2262

    @Test func sizesThatAddPast2To64NeverCrashAnyOutput() throws {
        let work = try makeTemporaryFolder("hostile-huge")
        let server = try HostileServer("huge", address: "127.0.5.1")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work, timeout: 3, retries: 1)
        let runs: [[String]] = [
            ["pull", config, "--dry-run"], ["pull", config, "--dry-run", "--json"],
            ["pull", config, "--dry-run", "--progress"], ["pull", config, "--json"],
            ["pull", config, "--progress"], ["pull", config],
        ]
        for arguments in runs {
            let result = try runRaw(arguments)
            let stderr = String(decoding: result.stderr, as: UTF8.self)
            #expect(result.status == 0 || result.status == 1, "\(arguments): \(result.status) \(stderr)")
            #expect(!stderr.contains("Fatal error"), "\(arguments): \(stderr)")
            if arguments.contains("--json") {
                let document = try? JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
                #expect(document?["devices"] != nil, "\(arguments): \(String(decoding: result.stdout, as: UTF8.self))")
            }
        }
        // The live display (on a terminal) sums the same sizes.
        let terminal = try onTerminal(["pull", config, "--dry-run", "--progress"])
        #expect(terminal.status == 0, "\(String(decoding: terminal.screen, as: UTF8.self))")
        let live = try onTerminal(["pull", config, "--progress"])
        #expect(live.status == 0 || live.status == 1, "\(String(decoding: live.screen, as: UTF8.self))")
        let crashed = contains(live.screen, "Fatal error")
        #expect(!crashed)
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/small.txt") == Data("small\n".utf8))
    }

    @Test func aLocalFileDatedAfter2262IsPushedWithoutACrash() throws {
        let work = try makeTemporaryFolder("hostile-future")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.5.2")
        defer { server.stop() }
        let mirror = work + "/mirror"
        try writeFile(mirror + "/cam/future.txt", Array("from the future\n".utf8), modified: 1_700_000_000)
        let touched = try run("/usr/bin/touch", ["-d", "2300-01-01", mirror + "/cam/future.txt"])
        #expect(touched.status == 0)
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        for arguments in [["push", config, "--dry-run", "--json"], ["push", config, "--json"], ["push", config]] {
            let result = try ftpsync(arguments)
            #expect(result.status == 0, "\(arguments): \(result.status) \(result.stdout) \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
        }
        #expect(FileManager.default.contents(atPath: served + "/future.txt") == Data("from the future\n".utf8))
    }

    // MARK: - Item 13: an echoed password

    @Test func aPasswordTheServerEchoesAppearsInNoOutputLogOrState() throws {
        let work = try makeTemporaryFolder("hostile-echo")
        let server = try HostileServer("echo-pass", address: "127.0.5.3")
        defer { server.stop() }
        let mirror = work + "/mirror"
        func config(user: String, name: String) throws -> String {
            let text = """
                local: \(mirror)
                devices:
                  - name: cam
                    host: \(server.address)
                    port: \(server.port)
                    user: \(user)
                    password_env: HOSTILE_PASS
                    timeout: 3
                    retries: 1

                """
            let path = work + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let refused = try config(user: "refused", name: "refused.yaml")
        let accepted = try config(user: "tester", name: "accepted.yaml")
        let log = work + "/run.log"
        let jsonLog = work + "/run.jsonl"
        var outputs: [(String, [UInt8])] = []
        let runs: [[String]] = [
            ["pull", refused, "-v", "--log", log], ["pull", refused, "--json"], ["pull", refused, "-q"],
            ["check", refused], ["check", refused, "--json", "-v"],
            ["pull", accepted, "-v", "--log", log, "--progress"], ["pull", accepted, "--json", "--log", log],
            ["push", accepted, "-v", "--log", log], ["check", accepted, "-v"], ["check", accepted, "--json"],
            ["status", accepted], ["status", accepted, "--json"], ["ls", accepted, "cam", "-v"],
            ["pull", refused, "--log", jsonLog, "--log-format", "json"],
            ["pull", accepted, "--log", jsonLog, "--log-format", "json"],
        ]
        for arguments in runs {
            let result = try runRaw(arguments)
            outputs.append(("\(arguments) stdout", result.stdout))
            outputs.append(("\(arguments) stderr", result.stderr))
        }
        // The runs did meet the password: login refused with it, good.txt pulled, gone.txt refused.
        let first = String(decoding: outputs[1].1, as: UTF8.self)
        #expect(first.contains("530"), "\(first)")
        #expect(FileManager.default.contents(atPath: mirror + "/cam/good.txt") == Data("good content\n".utf8))
        #expect(server.port > 0)
        outputs.append(("JSON log file", FileManager.default.contents(atPath: jsonLog).map { [UInt8]($0) } ?? []))
        outputs.append(("log file", FileManager.default.contents(atPath: log).map { [UInt8]($0) } ?? []))
        outputs.append(("state files", allBytes(under: mirror + "/.ftpsync")))
        #expect(outputs.last?.1.isEmpty == false)
        for (label, bytes) in outputs {
            let leaked = contains(bytes, Self.password)
            #expect(!leaked, "\(label): \(String(decoding: bytes, as: UTF8.self))")
        }
        let logText = String(decoding: outputs[outputs.count - 2].1, as: UTF8.self)
        #expect(logText.contains("PASS ****"), "\(logText)")

        // A password too short to mask in all output (it would hit names) is still masked in
        // what the server replied.
        let short = try runRaw(["pull", refused, "--json"], environment: ["HOSTILE_PASS": "x9"])
        let document = String(decoding: short.stdout, as: UTF8.self)
        #expect(document.contains("530 'PASS ****' refused"), "\(document)")
    }

    // MARK: - Item 14: escape sequences

    @Test func escapeSequencesFromTheServerNeverReachAnyOutputRaw() throws {
        let work = try makeTemporaryFolder("hostile-escapes")
        let server = try HostileServer("escapes", address: "127.0.5.4")
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = try server.config(local: mirror, at: work, timeout: 3, retries: 1)
        let log = work + "/run.log"
        var outputs: [(String, [UInt8])] = []
        let runs: [[String]] = [
            ["pull", config, "-v", "--log", log, "--progress", "--dry-run"],
            ["pull", config, "-v", "--log", log, "--progress"], ["pull", config, "--json", "--log", log],
            ["pull", config, "-q"], ["check", config, "-v"], ["check", config, "--json"], ["ls", config, "cam"],
            ["ls", config, "cam", "--json"], ["status", config], ["push", config, "-v", "--log", log],
        ]
        for arguments in runs {
            let result = try runRaw(arguments)
            #expect(result.status <= 1, "\(arguments): \(String(decoding: result.stderr, as: UTF8.self))")
            outputs.append(("\(arguments) stdout", result.stdout))
            outputs.append(("\(arguments) stderr", result.stderr))
        }
        outputs.append(("log file", FileManager.default.contents(atPath: log).map { [UInt8]($0) } ?? []))
        for (label, bytes) in outputs {
            let found = rawControls(bytes, json: label.contains("\"--json\"") && label.hasSuffix("stdout"))
            #expect(found.isEmpty, "\(label): \(found) in \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        let pulled = String(decoding: outputs[2].1 + outputs[3].1, as: UTF8.self)
        #expect(pulled.contains("\\x1b[31mred.txt"), "\(pulled)")
        #expect(pulled.contains("bad\\xffbyte.txt"), "\(pulled)")
        let checked = String(decoding: outputs[8].1, as: UTF8.self)
        #expect(checked.contains("\\x1b]0;owned\\x07"), "\(checked)")
        // The JSON still parses, and the live display on a terminal holds nothing raw either.
        for index in [4, 10, 14] {
            let document = try? JSONSerialization.jsonObject(with: Data(outputs[index].1))
            #expect(document != nil, "\(outputs[index].0): \(String(decoding: outputs[index].1, as: UTF8.self))")
        }
        try? FileManager.default.removeItem(atPath: mirror)
        let terminal = try onTerminal(["pull", config, "-v", "--progress"])
        #expect(terminal.status == 0 || terminal.status == 1)
        let found = rawControls(terminal.screen, terminal: true)
        #expect(
            found.isEmpty, "terminal: \(found) in \(String(decoding: terminal.screen, as: UTF8.self).debugDescription)")
        // The files themselves arrive under their real names.
        #expect(FileManager.default.contents(atPath: mirror + "/cam/esc\u{1B}[31mred.txt") == Data("red\n".utf8))

        // The JSON log (issue 18): nothing raw either, every line an object, the names exact but
        // for the undecodable byte, written as the text log writes it.
        try? FileManager.default.removeItem(atPath: mirror)
        let jsonLog = work + "/run.jsonl"
        let json = try runRaw(["pull", config, "--log", jsonLog, "--log-format", "json"])
        #expect(json.status <= 1)
        let logged = FileManager.default.contents(atPath: jsonLog).map { [UInt8]($0) } ?? []
        #expect(rawControls(logged).isEmpty, "\(String(decoding: logged, as: UTF8.self).debugDescription)")
        let objects = String(decoding: logged, as: UTF8.self).split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(objects.count > 2 && objects.allSatisfy { $0 != nil })
        let paths = Set(objects.compactMap { $0?["path"] as? String })
        #expect(paths.contains("esc\u{1B}[31mred.txt") && paths.contains("bad\\xffbyte.txt"), "\(paths)")
    }
}
