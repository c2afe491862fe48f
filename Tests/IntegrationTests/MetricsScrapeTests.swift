// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 18: the metrics file of a pull, read by a real `prometheus-node-exporter` (textfile
/// collector) and `promtool`: every device of the configuration is in it, those not in the run
/// from the state; a locked-out and an interrupted run write it too. Addresses 127.0.43.1
/// (node_exporter, port 9100) and 127.0.43.10–13 belong to this suite.
@Suite(.serialized) struct MetricsScrapeTests {
    static let nodeExporter = "/usr/bin/prometheus-node-exporter"
    static let promtool = "/usr/bin/promtool"
    static let listen = "127.0.43.1:9100"

    /// The samples of a Prometheus text (`name{labels}` to value), comments left out.
    static func samples(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            result[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return result
    }

    static func file(_ path: String) -> [String: String] {
        samples((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }

    /// Starts node_exporter with only its textfile collector on `folder`, waits until it
    /// answers, and returns its pid.
    static func startNodeExporter(textfiles folder: String) throws -> pid_t {
        let child = try spawn(
            nodeExporter,
            [
                "--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory", folder,
                "--web.listen-address", listen,
            ], output: false)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try run("/usr/bin/curl", ["-sf", "--max-time", "2", "http://\(listen)/metrics"], timeout: 10).status == 0
            {
                return child.pid
            }
            usleep(100_000)
        }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 10)
        throw FTPServer.ServerError(message: "node_exporter did not answer on \(listen)")
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: nodeExporter)
                && FileManager.default.isExecutableFile(atPath: promtool)))
    func nodeExporterServesEveryDeviceAfterAPullOfOne() throws {
        let work = try makeTemporaryFolder("metrics")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try writeFile(work + "/served/one/a.jpg", pseudoRandomBytes(1000, seed: 1), modified: 1_700_000_000)
        try writeFile(work + "/served/two/DCIM/c.jpg", pseudoRandomBytes(3000, seed: 2), modified: 1_700_000_000)
        let one = try FTPServer(.pyftpdlib, root: work + "/served/one", address: "127.0.43.10")
        defer { one.stop() }
        let two = try FTPServer(.vsftpd, root: work + "/served/two", address: "127.0.43.11")
        defer { two.stop() }
        let config = work + "/device.yaml"
        try """
        local: \(work)/mirror
        metrics_file: key.prom
        devices:
        \(one.deviceYAML(name: "one"))
        \(two.deviceYAML(name: "two"))
          - {name: spare, host: 127.0.43.12, port: 1, timeout: 5}

        """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)

        // Both servers' devices; `metrics_file` (relative to the configuration's folder).
        let first = try ftpsync(["pull", config, "--device", "one", "--device", "two", "-q"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let byKey = Self.file(work + "/key.prom")
        #expect(byKey[#"ftpsync_device_files_transferred{device="two"}"#] == "1", "\(byKey)")
        #expect(byKey["ftpsync_run_exit_code"] == "0")

        // Only `one` now, its server with a new file; `two`'s server is gone (not contacted).
        try writeFile(work + "/served/one/b.jpg", pseudoRandomBytes(500, seed: 3), modified: 1_700_000_100)
        two.stop()
        let textfiles = work + "/textfiles"
        try FileManager.default.createDirectory(atPath: textfiles, withIntermediateDirectories: true)
        let metricsFile = textfiles + "/ftpsync.prom"
        // Under `umask 077` the file is still 0644: node_exporter runs as another user.
        let second = try run(
            "/bin/sh",
            [
                "-c", #"umask 077; exec "$0" "$@""#, ftpsyncBinary, "pull", config, "--device", "one", "--metrics-file",
                metricsFile, "-q",
            ])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: metricsFile)[.posixPermissions] as? Int
        #expect(mode == 0o644)
        let lint = try run("/bin/sh", ["-c", "\(Self.promtool) check metrics < '\(metricsFile)'"])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: textfiles) == ["ftpsync.prom"])

        let exporter = try Self.startNodeExporter(textfiles: textfiles)
        defer {
            kill(exporter, SIGTERM)
            _ = waitForExit(exporter, timeout: 10)
        }
        let scrape = try run("/usr/bin/curl", ["-sf", "--max-time", "5", "http://\(Self.listen)/metrics"])
        #expect(scrape.status == 0, "\(scrape.stderr)")
        let scraped = Self.samples(scrape.stdout)
        #expect(scraped["node_textfile_scrape_error"] == "0", "\(scrape.stdout)")
        #expect(scraped[#"ftpsync_device_up{device="one"}"#] == "1", "\(scrape.stdout)")
        #expect(scraped[#"ftpsync_device_files_transferred{device="one"}"#] == "1")
        #expect(scraped[#"ftpsync_device_bytes_transferred{device="one"}"#] == "500")
        #expect(scraped[#"ftpsync_device_failures{device="one"}"#] == "0")
        // `two` from the state: its run of before.
        #expect(scraped[#"ftpsync_device_up{device="two"}"#] == "1")
        #expect(scraped[#"ftpsync_device_files_transferred{device="two"}"#] == "1")
        #expect(scraped[#"ftpsync_device_bytes_transferred{device="two"}"#] == "3000")
        #expect(scraped[#"ftpsync_device_consecutive_failures{device="two"}"#] == "0")
        let twoRun = Double(scraped[#"ftpsync_device_last_run_timestamp_seconds{device="two"}"#] ?? "")
        let oneRun = Double(scraped[#"ftpsync_device_last_run_timestamp_seconds{device="one"}"#] ?? "")
        let twoSuccess = Double(scraped[#"ftpsync_device_last_success_timestamp_seconds{device="two"}"#] ?? "")
        #expect(twoRun != nil && twoSuccess != nil && oneRun != nil)
        if let twoRun, let oneRun, let twoSuccess {
            #expect(twoRun < oneRun && abs(twoSuccess - twoRun) < 2 && abs(oneRun - Date().timeIntervalSince1970) < 120)
        }
        // `spare` never ran: down, no times, no counts.
        #expect(scraped[#"ftpsync_device_up{device="spare"}"#] == "0")
        #expect(scraped[#"ftpsync_device_last_run_timestamp_seconds{device="spare"}"#] == nil)
        #expect(scraped[#"ftpsync_device_last_success_timestamp_seconds{device="spare"}"#] == nil)
        #expect(scraped["ftpsync_run_exit_code"] == "0")
        #expect(scraped[#"node_textfile_mtime_seconds{file="\#(metricsFile)"}"#] != nil, "\(scrape.stdout)")

        // A file that cannot be written: one line, the exit code unchanged. A dry run writes none.
        let unwritable = work + "/missing/ftpsync.prom"
        let failed = try ftpsync(["pull", config, "--device", "one", "--metrics-file", unwritable, "-q"])
        #expect(failed.status == 0, "\(failed.stdout)\(failed.stderr)")
        #expect(
            failed.stderr == "ftpsync: cannot write the metrics file \(unwritable): open \(work)/missing: No such file"
                + " or directory; create the folder \(work)/missing (the run's exit code is unchanged)\n")
        let dry = try ftpsync(["pull", config, "--device", "one", "--metrics-file", textfiles + "/dry.prom", "-n"])
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: textfiles + "/dry.prom"))

        // A run locked out (exit 3) writes the file too, every device from the state.
        let lockFile = work + "/mirror/.ftpsync/lock"
        let lock = open(lockFile, O_RDWR | O_CLOEXEC)
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        let locked = try ftpsync(["pull", config, "--device", "one", "--metrics-file", metricsFile, "-q"])
        close(lock)
        #expect(locked.status == 3, "\(locked.stdout)\(locked.stderr)")
        let afterLock = Self.file(metricsFile)
        #expect(afterLock["ftpsync_run_exit_code"] == "3", "\(afterLock)")
        // `one`'s last run is the one without a file (nothing new to get).
        #expect(afterLock[#"ftpsync_device_files_transferred{device="one"}"#] == "0")
        #expect(afterLock[#"ftpsync_device_up{device="one"}"#] == "1")
        #expect(afterLock[#"ftpsync_device_up{device="two"}"#] == "1")

        // A push writes it as a pull does.
        let push = try ftpsync(["push", config, "--device", "one", "--metrics-file", metricsFile, "-q"])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let afterPush = Self.file(metricsFile)
        #expect(afterPush["ftpsync_run_exit_code"] == "0", "\(afterPush)")
        #expect(afterPush[#"ftpsync_device_up{device="one"}"#] == "1")
        #expect(afterPush[#"ftpsync_device_bytes_transferred{device="two"}"#] == "3000")
    }

    /// A configuration that cannot be loaded (exit 2) writes no file: there are no devices to tell of.
    @Test func aConfigurationErrorWritesNoFile() throws {
        let work = try makeTemporaryFolder("metrics-bad")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try "local: \(work)/mirror\ndevices: []\n".write(
            toFile: work + "/device.yaml", atomically: true, encoding: .utf8)
        let result = try ftpsync(["pull", work + "/device.yaml", "--metrics-file", work + "/ftpsync.prom"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/ftpsync.prom"))
    }

    /// Examples/prometheus: the alert rules load, and their unit tests (down for 1 h, no success
    /// for 24 h, refused, a stale file) pass.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: promtool)))
    func theExampleAlertRulesCheckAndPassTheirTests() throws {
        let folder = packageRoot + "/Examples/prometheus"
        let check = try run(Self.promtool, ["check", "rules", folder + "/ftpsync-alerts.yml"])
        #expect(check.status == 0 && check.stdout.contains("4 rules found"), "\(check.stdout)\(check.stderr)")
        let test = try run(Self.promtool, ["test", "rules", folder + "/ftpsync-alerts.test.yml"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    }

    /// SIGINT during a transfer: the run exits 130 and its file says so, with the interrupted
    /// download waiting as a partial and the device not up.
    @Test func anInterruptedPullWritesItsExitCodeAndThePartial() throws {
        let work = try makeTemporaryFolder("metrics-int")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try writeFile(work + "/served/big.mp4", pseudoRandomBytes(2_000_000, seed: 4), modified: 1_700_000_000)
        let server = try FTPServer(
            .pyftpdlib, root: work + "/served", address: "127.0.43.13", options: ["--throttle", "200000"])
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let metricsFile = work + "/ftpsync.prom"
        let child = try spawn(ftpsyncBinary, ["pull", config, "--metrics-file", metricsFile, "-q"], output: true)
        let partials = work + "/mirror/.ftpsync/partial/cam"
        let deadline = Date().addingTimeInterval(30)
        var started = false
        while !started, Date() < deadline {
            usleep(50_000)
            started = !((try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []).isEmpty
        }
        kill(child.pid, SIGINT)
        let status = waitForExit(child.pid, timeout: 60)
        #expect(started)
        #expect(status == 130, "\((try? String(contentsOfFile: child.stderr, encoding: .utf8)) ?? "")")
        let written = Self.file(metricsFile)
        #expect(written["ftpsync_run_exit_code"] == "130", "\(written)")
        #expect(written[#"ftpsync_device_up{device="cam"}"#] == "0")
        #expect(written[#"ftpsync_device_partials{device="cam"}"#] == "1")
        #expect(written[#"ftpsync_device_consecutive_failures{device="cam"}"#] == "1")
    }
}
