// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 13, "Done when": SIGKILL at random moments, many times, over pull and push of a tree
/// with small and large files while the source side keeps changing (new, changed, renamed and
/// deleted files). After every kill no file under a final name is half written or foreign, and
/// one more uninterrupted run leaves both sides identical with nothing of the user's lost.
///
/// `FTPSYNC_KILL_LOOPS` sets the kills per direction (default 50, so 100 in all); the seed of
/// each run is printed in every failure message, and `FTPSYNC_KILL_SEED` replays one.
/// Addresses 127.0.6.1 (pull) and 127.0.6.2 (push).
@Suite(.serialized) struct KillLoopTests {
    static let kills = Int(ProcessInfo.processInfo.environment["FTPSYNC_KILL_LOOPS"] ?? "") ?? 50

    /// A seeded generator (xorshift), so a failing run can be replayed with its seed.
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed | 1 }
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
    }

    static func seed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["FTPSYNC_KILL_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 1...UInt64(UInt32.max))
    }

    /// The tree the loops start from: 36 small files (0 B to 70 KB) and 4 large ones (2–5 MB)
    /// in 4 folders, dated yesterday a minute apart.
    static func startTree(_ random: inout Random) -> [SampleFile] {
        let base = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 86_400
        return (0..<40).map { index in
            let size =
                index % 10 == 9 ? 2_000_000 + random.below(3_000_000) : [0, 15, 4_000, 70_000][index % 4] + index
            return SampleFile(
                path: "f\(index % 4)/file-\(index).bin", content: pseudoRandomBytes(size, seed: random.next()),
                modified: base - Double(index * 60))
        }
    }

    /// Files (no folders) below `root`, leaving out `.ftpsync`, by relative path.
    static func files(_ root: String) -> [String: FileFacts] {
        treeListing(root).filter { !$0.value.isFolder }
    }

    /// Changes the tree at `root` the way a user or a camera would, between two runs: adds,
    /// rewrites (another size, a later time), renames (time and content kept) and deletes a few
    /// files. `clock` gives each new version a time of its own (whole minutes, in the past).
    static func mutate(_ root: String, _ random: inout Random, clock: inout Double) throws {
        let fm = FileManager.default
        var present = files(root).keys.sorted()
        for _ in 0..<(1 + random.below(3)) {
            clock += 60
            switch random.below(4) {
            case 0:
                let path = "f\(random.below(5))/new-\(random.next() % 100_000).bin"
                let size = random.below(10) == 0 ? 1_500_000 + random.below(1_000_000) : random.below(60_000)
                try writeFile(root + "/" + path, pseudoRandomBytes(size, seed: random.next()), modified: clock)
                present.append(path)
            case 1 where !present.isEmpty:
                let path = present[random.below(present.count)]
                let old = (try? fm.attributesOfItem(atPath: root + "/" + path)[.size] as? Int) ?? 0
                try writeFile(
                    root + "/" + path, pseudoRandomBytes(old + 1 + random.below(5_000), seed: random.next()),
                    modified: clock)
            case 2 where !present.isEmpty:
                let index = random.below(present.count)
                let from = present.remove(at: index)
                let to = "f\(random.below(5))/moved-\(random.next() % 100_000).bin"
                try fm.createDirectory(
                    atPath: (root + "/" + to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                #expect(rename(root + "/" + from, root + "/" + to) == 0)
                present.append(to)
            case 3 where present.count > 10:
                let path = present.remove(at: random.below(present.count))
                try fm.removeItem(atPath: root + "/" + path)
            default:
                break
            }
        }
    }

    /// Starts ftpsync with `arguments` and SIGKILLs it at a random moment of its conversation
    /// with the server: once the server's command log (`log`) shows a random number (1–40) of
    /// further commands, plus a random 0–3 ms (inside a transfer, between a reply and the next
    /// step, in a state update), unless it ends first. Returns the moment, for messages.
    static func runAndKill(_ arguments: [String], _ random: inout Random, log: String) throws -> String {
        let target = 1 + random.below(40)
        let extra = UInt32(random.below(3_000))
        let watcher = FileHandle(forReadingAtPath: log)
        _ = try watcher?.seekToEnd()
        defer { try? watcher?.close() }
        let child = try spawn(ftpsyncBinary, arguments, output: false)
        let deadline = Date().addingTimeInterval(60)
        var seen = 0
        var status: Int32 = 0
        while Date() < deadline, seen < target {
            if waitpid(child.pid, &status, WNOHANG) == child.pid { return "ended before command \(target)" }
            if let data = try watcher?.readToEnd(), !data.isEmpty {
                seen += String(decoding: data, as: UTF8.self).components(separatedBy: " CMD ").count - 1
            } else {
                usleep(300)
            }
        }
        usleep(extra)
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 60)
        return "command \(target) + \(extra) µs"
    }

    /// Names ftpsync must never leave in a user's tree or on the device once a run completed.
    static func strays(_ tree: [String: FileFacts]) -> [String] {
        tree.keys.filter { path in
            let name = (path as NSString).lastPathComponent
            return name.contains(".conflict-") || name.contains(".ftpsync") || name.hasPrefix(".")
        }.sorted()
    }

    @Test func hundredKillsOverPullsOfAChangingDeviceEndIdentical() throws {
        let seed = Self.seed()
        var random = Random(seed: seed)
        let work = try makeTemporaryFolder("kill-loop-pull")
        let served = work + "/served"
        try writeTree(Self.startTree(&random), at: served)
        var clock = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 43_200
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.6.1", options: ["--throttle", "20000000"])
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let pull = ["pull", config, "--delete", "--max-delete", "-1", "--no-progress", "-q"]

        // Every version the device ever held: a file under a final name here must be one of them.
        var versions = Set(Self.files(served).values.compactMap(\.content))
        var moments: [String] = []
        for round in 0..<Self.kills {
            if round % 3 == 0 {
                try Self.mutate(served, &random, clock: &clock)
                versions.formUnion(Self.files(served).values.compactMap(\.content))
            }
            moments.append(try Self.runAndKill(pull, &random, log: server.logPath))
            for (path, facts) in Self.files(mirror + "/cam") {
                #expect(
                    facts.content.map(versions.contains) == true,
                    "seed \(seed), kill \(round): \(path) holds bytes the device never had")
            }
        }
        let final = try ftpsync(pull)
        #expect(final.status == 0, "seed \(seed), kills at \(moments): \(final.stdout)\(final.stderr)")
        let local = Self.files(mirror + "/cam")
        let remote = Self.files(served)
        #expect(local.keys.sorted() == remote.keys.sorted(), "seed \(seed): \(Self.strays(local))")
        for (path, facts) in remote {
            #expect(local[path]?.content == facts.content, "seed \(seed): content of \(path)")
            #expect(local[path]?.modified == facts.modified, "seed \(seed): time of \(path)")
        }
        let again = try ftpsync(pull.filter { $0 != "-q" } + ["--json"])
        #expect(again.status == 0, "seed \(seed): \(again.stdout)")
        #expect(
            again.stdout.contains("\"files_transferred\" : 0") || again.stdout.contains("\"files_transferred\":0"),
            "seed \(seed): a run after the final one moves nothing: \(again.stdout)")
    }

    @Test func hundredKillsOverPushesOfAChangingTreeEndIdenticalAndTouchNothingHere() throws {
        let seed = Self.seed()
        var random = Random(seed: seed)
        let work = try makeTemporaryFolder("kill-loop-push")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let tree = mirror + "/cam"
        try writeTree(Self.startTree(&random), at: tree)
        var clock = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 43_200
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.6.2", options: ["--throttle", "20000000"])
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let push = ["push", config, "--delete", "--max-delete", "-1", "--no-progress", "-q"]

        var versions = Set(Self.files(tree).values.compactMap(\.content))
        var moments: [String] = []
        for round in 0..<Self.kills {
            if round % 3 == 0 {
                try Self.mutate(tree, &random, clock: &clock)
                versions.formUnion(Self.files(tree).values.compactMap(\.content))
            }
            let before = Self.files(tree)
            moments.append(try Self.runAndKill(push, &random, log: server.logPath))
            // A push never changes the user's tree, killed or not.
            #expect(Self.files(tree) == before, "seed \(seed), kill \(round): the local tree changed")
            for (path, facts) in Self.files(served) where !path.hasSuffix(".ftpsync-part") {
                #expect(
                    facts.content.map(versions.contains) == true,
                    "seed \(seed), kill \(round): \(path) on the device holds bytes never sent whole")
            }
        }
        let final = try ftpsync(push)
        #expect(final.status == 0, "seed \(seed), kills at \(moments): \(final.stdout)\(final.stderr)")
        let local = Self.files(tree)
        let remote = Self.files(served)
        #expect(local.keys.sorted() == remote.keys.sorted(), "seed \(seed): strays \(Self.strays(remote))")
        for (path, facts) in local {
            #expect(remote[path]?.content == facts.content, "seed \(seed): content of \(path)")
        }
        let again = try ftpsync(push.filter { $0 != "-q" } + ["--json"])
        #expect(again.status == 0, "seed \(seed): \(again.stdout)")
        #expect(
            again.stdout.contains("\"files_transferred\" : 0") || again.stdout.contains("\"files_transferred\":0"),
            "seed \(seed): a run after the final one moves nothing: \(again.stdout)")
    }

    /// A kill leaves downloaded files under their final names before their records are
    /// committed (small files are recorded in batches); when the device then changes them, the
    /// next run must know them as its own downloads (their partial rows say so) and simply
    /// fetch the new versions: no conflict copy of a file the user never touched.
    @Test func filesPlacedBeforeAKillAndThenChangedOnTheDeviceAreNoConflict() throws {
        let work = try makeTemporaryFolder("kill-then-change")
        let served = work + "/served"
        let base = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 86_400
        let files = smallFileTree(seed: 900)
        try writeTree(files, at: served)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.6.3", options: [])
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)

        let child = try spawn(ftpsyncBinary, ["pull", config, "--parallel", "2"], output: false)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, Self.files(mirror + "/cam").count < 40 { usleep(2_000) }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 60)
        let arrived = Self.files(mirror + "/cam").count
        #expect(arrived >= 40 && arrived < files.count, "\(arrived) files arrived before the kill")

        // The device rewrites every file: another size, a later time.
        for (index, file) in files.enumerated() {
            try writeFile(
                served + "/" + file.path, pseudoRandomBytes(3_000 + index, seed: UInt64(5_000 + index)),
                modified: base + 3_600)
        }
        let next = try ftpsync(["pull", config, "--no-progress"])
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        let local = Self.files(mirror + "/cam")
        #expect(Self.strays(local).isEmpty, "conflict copies of our own downloads: \(Self.strays(local).prefix(5))")
        let remote = Self.files(served)
        #expect(local.keys.sorted() == remote.keys.sorted())
        for (path, facts) in remote { #expect(local[path]?.content == facts.content, "content of \(path)") }
    }

    /// A download killed midway keeps its bytes; the device's file is then replaced by another of
    /// the same size and time (a card formatted and filled again, a camera without a clock). The
    /// next run must not splice the old head onto the new tail: the kept bytes are resumed only
    /// when their last few match the device's.
    @Test func aResumeOntoAnotherFileOfTheSameSizeAndTimeStartsOver() throws {
        let work = try makeTemporaryFolder("resume-other")
        let served = work + "/served"
        let noClock: Double = 946_684_800
        try writeFile(served + "/clip.mp4", pseudoRandomBytes(4_000_000, seed: 81), modified: noClock)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.6.4", options: ["--throttle", "400000"])
        defer { server.stop() }
        let mirror = work + "/mirror"
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)

        let child = try spawn(ftpsyncBinary, ["pull", config, "--no-progress"], output: false)
        let partials = mirror + "/.ftpsync/partial/cam"
        let deadline = Date().addingTimeInterval(30)
        func kept() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
            return names.compactMap { name in
                (try? FileManager.default.attributesOfItem(atPath: partials + "/" + name))?[.size] as? Int
            }.max() ?? 0
        }
        while Date() < deadline, kept() < 500_000 { usleep(10_000) }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 30)
        #expect(kept() >= 500_000, "a partial download was kept")

        let other = pseudoRandomBytes(4_000_000, seed: 82)
        try writeFile(served + "/clip.mp4", other, modified: noClock)
        let next = try ftpsync(["pull", config, "--no-progress"], timeout: 60)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(FileManager.default.contents(atPath: mirror + "/cam/clip.mp4") == Data(other), "no spliced file")
    }
}
