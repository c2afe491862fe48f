// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPTestSupport
import Foundation
import SyncConfig
import SyncEngine
import Testing

@testable import SyncRunner

/// Issue 24: a run of many devices gives back every file descriptor it opens — sockets, files,
/// the state database, spool files — whether a device succeeds or fails, and ends every thread
/// it starts. Addresses 127.0.76.1–3 belong to this suite.
///
/// A count of `/proc/self/fd` means something only in a process where nothing else opens or
/// closes descriptors meanwhile, and the tests of this target run in parallel in one process.
/// So the runs happen in an exit test (`#expect(processExitsWith:)`): Swift Testing starts the
/// test binary again as a child that runs this closure and nothing else, and the child counts
/// its own descriptors. A first, smaller run comes before the first count, so what a process
/// opens once and keeps (libdispatch's epoll and event descriptors) is not taken for a leak;
/// then a first pull of every device and a no-op pull must each end with exactly the
/// descriptors of that count, at once when `run()` returns.
@Suite(.serialized) struct DescriptorLeakTests {
    static let devices = 120
    static let filesPerDevice = 3

    @Test func aRunOfManyDevicesClosesEveryDescriptorItOpens() async throws {
        let work = NSTemporaryDirectory() + "fd-leak-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: work) }
        // Two servers, each serving the folders of half the devices (`remote: /dN`).
        for index in 0..<Self.devices {
            let folder = "\(work)/served/s\(index % 2)/d\(index)/DCIM"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for file in 0..<Self.filesPerDevice {
                try Data(repeating: UInt8(truncatingIfNeeded: index &+ file), count: 2048)
                    .write(to: URL(fileURLWithPath: "\(folder)/f\(file).jpg"))
            }
        }
        let first = try PythonFTPServer(host: "127.0.76.1", root: work + "/served/s0", user: "fd", password: "fd-pw")
        let second = try PythonFTPServer(host: "127.0.76.2", root: work + "/served/s1", user: "fd", password: "fd-pw")
        let ports = [first.port, second.port]
        let count = Self.devices

        await #expect(processExitsWith: .success) {
            [work = work as String, ports = ports as [Int], count = count as Int] in
            let failed = DescriptorLeakTests.checkInChild(work: work, ports: ports, count: count)
            exit(failed ? 1 : 0)
        }
        withExtendedLifetime((first, second)) {}  // the servers run until the child is done
        // The child's account of its runs (its standard output is not the test's).
        let account = (try? String(contentsOfFile: work + "/account.txt", encoding: .utf8)) ?? "(none)"
        #expect(account.contains("no-op pull: 123 devices, 120 ok"), "\(account)")
        print(account)
    }

    /// The child's side: three runs, their account written to WORK/account.txt; true when a run
    /// ended with other descriptors open than after the first run, or threads still running.
    static func checkInChild(work: String, ports: [Int], count: Int) -> Bool {
        let local = work + "/mirror"
        func device(_ index: Int) -> DeviceConfig {
            DeviceConfig(
                name: "d\(index)", host: "127.0.76.\(index % 2 + 1)", localPath: local + "/d\(index)",
                port: ports[index % 2], user: "fd", password: "fd-pw", remote: "/d\(index)", timeout: 10, retries: 0)
        }
        // Devices that fail in different places: nothing listens, a wrong password, a missing folder.
        let failing = [
            DeviceConfig(
                name: "refused", host: "127.0.76.3", localPath: local + "/refused", port: ports[0], user: "fd",
                password: "fd-pw", timeout: 5, retries: 0),
            DeviceConfig(
                name: "wrong-password", host: "127.0.76.1", localPath: local + "/wrong-password", port: ports[0],
                user: "fd", password: "nope", timeout: 5, retries: 0),
            DeviceConfig(
                name: "no-folder", host: "127.0.76.2", localPath: local + "/no-folder", port: ports[1], user: "fd",
                password: "fd-pw", remote: "/missing", timeout: 5, retries: 0),
        ]
        let configuration = Configuration(
            localRoot: local, devices: (0..<count).map(device) + failing, configPath: work + "/device.yaml")
        var lines: [String] = []
        var failed = false
        func pull(_ names: [String]) -> [DeviceReport] {
            do {
                let options = RunOptions(direction: .pull, devices: names, jobs: 8)
                return try SyncRunner(configuration: configuration, options: options).run().reports
            } catch {
                lines.append("the run stopped: \(error)")
                failed = true
                return []
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
        } catch {
            lines.append("no local folder: \(error)")
            failed = true
        }
        // The first run: a few devices and every failing one, before anything is counted.
        _ = pull(["d0", "d1", "d2", "d3"] + failing.map(\.name))
        let threads = settledThreads(atMost: 1)
        let baseline = openDescriptors()
        for run in ["first pull", "no-op pull"] {
            let started = Date()
            let reports = pull([])
            let after = openDescriptors()  // at once: run() has closed what it opened
            let seconds = Date().timeIntervalSince(started)
            let threadsAfter = settledThreads(atMost: threads)
            let ok = reports.filter { $0.status == .ok }.count
            lines.append(
                "\(run): \(reports.count) devices, \(ok) ok, \(String(format: "%.1f", seconds)) s, "
                    + "descriptors: \(baseline.count) before, \(after.count) after; "
                    + "threads: \(threads) before, \(threadsAfter) after")
            // Every good device synced and the three bad ones failed: both paths were taken.
            if ok != count || reports.count != count + failing.count || threadsAfter > threads { failed = true }
            if after != baseline {
                failed = true
                for (fd, target) in after.sorted(by: { $0.key < $1.key }) where baseline[fd] != target {
                    lines.append("  open after the run: \(fd) -> \(target)")
                }
                for (fd, target) in baseline.sorted(by: { $0.key < $1.key }) where after[fd] != target {
                    lines.append("  not open after the run: \(fd) -> \(target)")
                }
            }
        }
        let mirrored =
            FileManager.default.enumerator(atPath: local)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".jpg") && !$0.contains(".ftpsync") }.count ?? 0
        lines.append("files mirrored: \(mirrored) of \(count * filesPerDevice)")
        if mirrored != count * filesPerDevice { failed = true }
        try? (lines.joined(separator: "\n") + "\n").write(
            toFile: work + "/account.txt", atomically: true, encoding: .utf8)
        return failed
    }

    /// This process's open descriptors and what each points at (`readlink` of /proc/self/fd/N),
    /// without the one the listing itself opens.
    static func openDescriptors() -> [Int32: String] {
        guard let directory = opendir("/proc/self/fd") else { return [:] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var result: [Int32: String] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name), fd != own else { continue }
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/fd/\(name)", &buffer, buffer.count - 1)
            result[fd] =
                length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        }
        return result
    }

    /// This process's threads (/proc/self/task), once at most `limit` of them or after 2 s:
    /// the device threads of a run end just after `run()` returns.
    static func settledThreads(atMost limit: Int) -> Int {
        let deadline = Date().addingTimeInterval(2)
        while true {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
            if threads <= limit || Date() > deadline { return threads }
            usleep(10_000)
        }
    }
}
