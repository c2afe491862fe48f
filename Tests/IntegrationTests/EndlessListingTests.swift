// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 13 item 11: listings that never end, on several folders at once, are capped per
/// device and per run (not only per listing), so the memory of listings stays bounded
/// whatever a device sends, and the error names the real cause.
///
/// The caps are lowered for the test with `FTPSYNC_LISTING_LIMITS` (device bytes at once,
/// device entries, run bytes at once, run entries; see `ListingBudget`). Addresses:
/// 127.0.2.33–34.
@Suite(.serialized) struct EndlessListingTests {
    /// Runs ftpsync to its end and returns its exit status and output with its peak resident
    /// memory in KiB: the highest `VmHWM` of `/proc/PID/status` read while it runs (every 20 ms;
    /// a high-water mark, so only the last moments before exit can be missed). Not `wait4`'s
    /// `ru_maxrss`: a child made by `posix_spawn` (a `CLONE_VM` vfork) starts on the test
    /// process's memory, and Linux folds that memory's high-water mark into the child's at
    /// `exec`, so `ru_maxrss` is at least the test process's own peak (670 MiB once, after the
    /// unit tests of the same process had run).
    private func measured(_ arguments: [String], environment: [String: String], timeout: Double) throws -> (
        result: ProcessResult, peakKiB: Int
    ) {
        let child = try spawn(ftpsyncBinary, arguments, environment: environment, output: true)
        defer {
            unlink(child.stdout)
            unlink(child.stderr)
        }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var usage = rusage()
        var peakKiB = 0
        while wait4(child.pid, &status, WNOHANG, &usage) == 0 {
            peakKiB = max(peakKiB, Self.highWaterKiB(child.pid) ?? 0)
            if Date() > deadline { kill(child.pid, SIGKILL) }
            usleep(20_000)
        }
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let result = ProcessResult(
            status: code, stdout: (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: child.stderr, encoding: .utf8)) ?? "")
        return (result, peakKiB)
    }

    /// The `VmHWM` line of `/proc/PID/status` (peak resident memory of the process, KiB).
    private static func highWaterKiB(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).split(separator: " ").first ?? "")
        }
        return nil
    }

    @Test func endlessListingsOnSeveralFoldersEndWithTheBudgetsError() throws {
        let work = try makeTemporaryFolder("endless-listings")
        let server = try HostileServer("endless", address: "127.0.2.33")
        defer { server.stop() }
        let configPath = try server.config(local: work + "/mirror", at: work, timeout: 5, retries: 1)
        // 8 MiB of listings at once per device, 16 MiB per run.
        let environment = ["HOSTILE_PASS": "x", "FTPSYNC_LISTING_LIMITS": "8388608:1000000:16777216:2000000"]

        let (result, peakKiB) = try measured(
            ["pull", configPath, "--parallel", "4", "--json"], environment: environment, timeout: 120)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let document = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let device = (document?["devices"] as? [[String: Any]])?.first
        #expect(device?["status"] as? String == "failed")
        let error = device?["error"] as? String ?? ""
        #expect(error.contains("exceeded 8388608 bytes of listings at once in total for device cam"), "\(error)")
        #expect(error.contains("listing of '/e"), "\(error)")
        // Four listings of up to 256 MiB each took a gigabyte before; now the 8 MiB budget
        // (the buffer may double while growing), the entries parsed so far and the program
        // itself: about 40 MiB on a quiet machine, 151 MiB seen on a loaded one.
        #expect(peakKiB < 200 * 1024, "peak resident memory \(peakKiB) KiB")
    }

    /// Two devices, each within its own cap (64 MiB at once), together over the run's (8 MiB):
    /// the run's budget stops them, the error says so, and memory stays bounded.
    @Test func endlessListingsOfTwoDevicesMeetTheRunsCap() throws {
        let work = try makeTemporaryFolder("endless-run")
        let server = try HostileServer("endless", address: "127.0.2.34")
        defer { server.stop() }
        var text = "local: \(work)/mirror\ndevices:\n"
        for name in ["cam", "cam2"] {
            text += """
                  - name: \(name)
                    host: \(server.address)
                    port: \(server.port)
                    user: tester
                    password_env: HOSTILE_PASS
                    timeout: 5
                    retries: 1

                """
        }
        let configPath = work + "/devices.yaml"
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
        let environment = ["HOSTILE_PASS": "x", "FTPSYNC_LISTING_LIMITS": "67108864:1000000:8388608:2000000"]

        let (result, peakKiB) = try measured(
            ["pull", configPath, "--parallel", "3", "--json"], environment: environment, timeout: 120)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let document = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let errors = ((document?["devices"] as? [[String: Any]]) ?? []).map { $0["error"] as? String ?? "" }
        #expect(errors.contains { $0.contains("exceeded 8388608 bytes of listings at once in total for the run") })
        // Two devices' entries (up to the run's 2,000,000, about 110 bytes each in a debug build)
        // on top of the listings: about 40 MiB on a quiet machine, where the bytes cap stops the
        // run at once, 224 MiB seen on a loaded one, where entries pile up towards their cap
        // first; an unbounded run took over 1 GiB.
        #expect(peakKiB < 320 * 1024, "peak resident memory \(peakKiB) KiB")
    }
}
