// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

struct RunLockTests {
    /// Starts `flock LOCKFILE cat` (util-linux): it holds the lock until its stdin closes.
    /// Returns once the child has the lock (it prints a line as soon as it holds it).
    static func childHolding(_ lockFile: String) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = [lockFile, "sh", "-c", "echo locked; cat >/dev/null"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Blocks until the child prints, i.e. until it holds the lock.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        #expect(String(decoding: line, as: UTF8.self) == "locked\n")
        return (process, input)
    }

    @Test func anotherProcessHoldingTheLockGivesHeld() throws {
        let folder = try TempFolder()
        let lockFile = folder.path + "/.ftpsync/lock"
        do {
            let first = try RunLock.acquire(localRoot: folder.path)
            first.release()
        }
        let (child, input) = try Self.childHolding(lockFile)
        do {
            _ = try RunLock.acquire(localRoot: folder.path)
            Issue.record("expected .held")
        } catch {
            guard case .held(let path, _) = error else {
                Issue.record("expected .held, got \(error)")
                return
            }
            #expect(path == lockFile)
            #expect(error.description.hasPrefix("another ftpsync run holds the lock \(lockFile)"))
        }
        try input.fileHandleForWriting.close()
        child.waitUntilExit()
        let lock = try RunLock.acquire(localRoot: folder.path)
        #expect(lock.isHeld)
    }

    @Test func heldLockKeepsOthersOutUntilReleased() throws {
        let folder = try TempFolder()
        let lock = try RunLock.acquire(localRoot: folder.path + "/fresh")
        #expect(lock.path == folder.path + "/fresh/.ftpsync/lock")
        // Another process cannot take it...
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        probe.arguments = ["-n", lock.path, "true"]
        try probe.run()
        probe.waitUntilExit()
        #expect(probe.terminationStatus == 1)
        // ...nor another RunLock of this process, which reads our pid from the file.
        #expect(throws: RunLockError.held(path: lock.path, pid: getpid())) {
            try RunLock.acquire(localRoot: folder.path + "/fresh")
        }
        lock.release()
        lock.release()
        #expect(!lock.isHeld)
        let again = try RunLock.acquire(localRoot: folder.path + "/fresh")
        #expect(again.isHeld)
    }

    @Test func deinitReleases() throws {
        let folder = try TempFolder()
        do {
            let lock = try RunLock.acquire(localRoot: folder.path)
            #expect(lock.isHeld)
        }
        let next = try RunLock.acquire(localRoot: folder.path)
        #expect(next.isHeld)
    }
}
