// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// `--bwlimit` and the `bwlimit` key (issue 19): the rate is measured, within ±20 %, against
/// vsftpd and pyftpdlib, for downloads and uploads, and the run's cap is shared by
/// two devices. Addresses 127.0.53.1 to 127.0.53.9.
@Suite(.serialized) struct BandwidthTests {
    /// One MiB per second.
    static let rate = 1024.0 * 1024.0

    /// Bytes moved per second of the run, and the run.
    static func measured(_ arguments: [String], bytes: Int) throws -> (Double, ProcessResult) {
        let started = Date()
        let result = try ftpsync(arguments + ["--no-progress"])
        return (Double(bytes) / Date().timeIntervalSince(started), result)
    }

    static func served(_ folder: String, files: Int, bytes: Int) throws {
        for index in 0..<files {
            let content = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            try writeFile(folder + "/clip\(index).mov", content, modified: 1_700_000_000)
        }
    }

    /// `--bwlimit 1M`: a pull of 4 MiB (two files over the device's two connections) takes
    /// about 4 s from either server.
    @Test(arguments: [("vsftpd", "127.0.53.1"), ("pyftpdlib", "127.0.53.2")])
    func pullMovesAtTheRunsRate(kind: String, address: String) throws {
        let work = try makeTemporaryFolder("bwlimit-pull")
        try Self.served(work + "/served", files: 2, bytes: 2 << 20)
        let server = try FTPServer(FTPServer.Kind(rawValue: kind)!, root: work + "/served", address: address)
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let (rate, pull) = try Self.measured(["pull", config, "--bwlimit", "1M"], bytes: 4 << 20)
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(abs(rate / Self.rate - 1) <= 0.2, "\(kind): \(Int(rate)) bytes/s against 1 MiB/s")
        print("bwlimit pull \(kind): \(Int(rate)) bytes/s (limit \(Int(Self.rate)))")
        #expect(FileManager.default.contents(atPath: work + "/mirror/cam/clip1.mov")?.count == 2 << 20)
    }

    /// The device's `bwlimit: 1M`: a push of 3 MiB takes about 3 s.
    @Test func pushMovesAtTheDevicesRate() throws {
        let work = try makeTemporaryFolder("bwlimit-push")
        try Self.served(work + "/mirror/cam", files: 1, bytes: 3 << 20)
        try FileManager.default.createDirectory(atPath: work + "/served", withIntermediateDirectories: true)
        let server = try FTPServer(.pyftpdlib, root: work + "/served", address: "127.0.53.3")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam", extra: "    bwlimit: 1M\n"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let (rate, push) = try Self.measured(["push", config], bytes: 3 << 20)
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(abs(rate / Self.rate - 1) <= 0.2, "\(Int(rate)) bytes/s against 1 MiB/s")
        print("bwlimit push pyftpdlib: \(Int(rate)) bytes/s (limit \(Int(Self.rate)))")
        #expect(FileManager.default.contents(atPath: work + "/served/clip0.mov")?.count == 3 << 20)
    }

    /// Two devices (vsftpd and pyftpdlib) pulled at once under `--bwlimit 1M`: 2 MiB each,
    /// together about 4 s; a device's own `bwlimit: 512k` slows it further, both caps apply.
    @Test func theRunsRateIsSharedByTheDevices() throws {
        let work = try makeTemporaryFolder("bwlimit-shared")
        try Self.served(work + "/one", files: 1, bytes: 2 << 20)
        try Self.served(work + "/two", files: 1, bytes: 2 << 20)
        let one = try FTPServer(.vsftpd, root: work + "/one", address: "127.0.53.4")
        defer { one.stop() }
        let two = try FTPServer(.pyftpdlib, root: work + "/two", address: "127.0.53.5")
        defer { two.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + one.deviceYAML(name: "one") + two.deviceYAML(name: "two"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let (rate, pull) = try Self.measured(["pull", config, "--bwlimit", "1M"], bytes: 4 << 20)
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(abs(rate / Self.rate - 1) <= 0.2, "\(Int(rate)) bytes/s for both against 1 MiB/s")
        print("bwlimit shared by two devices: \(Int(rate)) bytes/s (limit \(Int(Self.rate)))")

        // The device's own cap, under the run's: 2 MiB at 512 KiB/s takes about 4 s.
        let slow = work + "/slow.yaml"
        try ("local: \(work)/slow\ndevices:\n" + one.deviceYAML(name: "one", extra: "    bwlimit: 512k\n"))
            .write(toFile: slow, atomically: true, encoding: .utf8)
        let (deviceRate, capped) = try Self.measured(["pull", slow, "--bwlimit", "1M"], bytes: 2 << 20)
        #expect(capped.status == 0, "\(capped.stdout)\(capped.stderr)")
        #expect(abs(deviceRate / (Self.rate / 2) - 1) <= 0.2, "\(Int(deviceRate)) bytes/s against 512 KiB/s")
        print("bwlimit device 512k under run 1M: \(Int(deviceRate)) bytes/s")
    }

    /// A daily schedule (`bwlimit: "HH:MM,1M HH:MM,off"`, in the device's `timezone`): two
    /// hours into its 1M window, a pull of 2 MiB takes about 2 s.
    @Test func aScheduledLimitHoldsInItsWindow() throws {
        let work = try makeTemporaryFolder("bwlimit-schedule")
        try Self.served(work + "/served", files: 1, bytes: 2 << 20)
        let server = try FTPServer(.pyftpdlib, root: work + "/served", address: "127.0.53.6")
        defer { server.stop() }
        let minute = Int(Date().timeIntervalSince1970 / 60) % 1440
        let text = { (minute: Int) in String(format: "%02d:%02d", minute / 60, minute % 60) }
        let schedule = "\(text((minute + 1440 - 120) % 1440)),1M \(text((minute + 120) % 1440)),off"
        let config = work + "/device.yaml"
        try
            ("local: \(work)/mirror\ndevices:\n"
            + server.deviceYAML(name: "cam", extra: "    timezone: UTC\n    bwlimit: \"\(schedule)\"\n"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let (rate, pull) = try Self.measured(["pull", config], bytes: 2 << 20)
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(abs(rate / Self.rate - 1) <= 0.2, "\(schedule): \(Int(rate)) bytes/s against 1 MiB/s")
        print("bwlimit schedule \(schedule): \(Int(rate)) bytes/s")
    }

    /// Found by a breaker: SIGTERM under a tiny `--bwlimit` took several seconds, the transfer
    /// sleeping off its bandwidth debt (4 KiB steps at 1 KiB/s) before it saw the stop. Now it
    /// ends within about a second, with the usual exit code for SIGTERM.
    @Test func aSignalStopsARunWaitingForBandwidth() throws {
        let work = try makeTemporaryFolder("bwlimit-signal")
        try Self.served(work + "/served", files: 1, bytes: 1 << 20)
        let server = try FTPServer(.pyftpdlib, root: work + "/served", address: "127.0.53.7")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(work)/mirror\ndevices:\n" + server.deviceYAML(name: "cam"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let child = try spawn(ftpsyncBinary, ["pull", config, "--no-progress", "--bwlimit", "1k"], output: true)
        let partials = work + "/mirror/.ftpsync/partial/cam"
        let moving = waitUntil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
            return !names.isEmpty
        }
        Thread.sleep(forTimeInterval: 1)  // well inside a 4 KiB step's wait at 1 KiB/s
        let sent = Date()
        kill(child.pid, SIGTERM)
        let status = waitForExit(child.pid, timeout: 60)
        let took = Date().timeIntervalSince(sent)
        unlink(child.stdout)
        unlink(child.stderr)
        #expect(moving)
        #expect(status == 143)
        #expect(took < 2.5, "SIGTERM took \(took) s to stop the run")
        print("SIGTERM under --bwlimit 1k: stopped in \(String(format: "%.2f", took)) s")
    }
}
