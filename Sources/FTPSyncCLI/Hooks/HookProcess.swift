// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One hook's command, run as `/bin/sh -c COMMAND` with `posix_spawn`, in a process group of
/// its own (`POSIX_SPAWN_SETPGROUP`), bounded in time.
///
/// Its standard input is a pipe the caller's text is written into (non-blocking, so a hook
/// that does not read cannot hold us past the bound; one that exits early only ends the
/// writing: EPIPE, with SIGPIPE ignored as `FTPSyncCLI.main` does); its standard output and
/// standard error are our standard error, so nothing it prints reaches our standard output
/// (`--json`). SIGPIPE, SIGINT and SIGTERM, which ftpsync ignores, are reset to their default
/// actions in the hook and its signal mask is emptied: Foundation's `Process` also starts a
/// process group of its own on Linux, but passes those ignored signals on, so a hook could not
/// be stopped with SIGTERM.
///
/// When the hook has not exited by the bound, its whole group gets SIGTERM, and SIGKILL after a
/// grace (the group's leader is reaped only then, so the group's number cannot be reused in
/// between). Processes a hook leaves running in the background after it exited are its own
/// business: neither waited for nor stopped.
enum HookProcess {
    /// How long a hook may run.
    struct Limits: Equatable {
        /// Seconds from the start until the group gets SIGTERM.
        var seconds: Double = 60
        /// Seconds from SIGTERM until SIGKILL.
        var grace: Double = 5

        /// The limits of `FTPSYNC_HOOK_LIMITS=SECONDS:GRACE` in `environment` (tests only: a
        /// bound a test can wait for; decimals, each above 0), else the defaults.
        static func fromEnvironment(_ environment: [String: String]) -> Limits {
            let parts = (environment["FTPSYNC_HOOK_LIMITS"] ?? "").split(separator: ":").compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0 <= 3_600 }) else { return Limits() }
            return Limits(seconds: parts[0], grace: parts[1])
        }
    }

    /// How a hook ended.
    enum Outcome: Equatable {
        /// It exited with this code.
        case exited(Int32)
        /// A signal it did not catch ended it (not ours).
        case signalled(Int32)
        /// It ran past `Limits.seconds` and was stopped.
        case timedOut
        /// It could not be started: the reason.
        case notStarted(String)
    }

    /// Runs `command` and returns how it ended; blocks until then (at most about
    /// `limits.seconds + limits.grace`).
    /// - Parameters:
    ///   - environment: the hook's whole environment.
    ///   - input: writes the hook's standard input through the writer it is given, in pieces.
    static func run(
        _ command: String, environment: [String: String], limits: Limits, input: ((String) -> Void) -> Void
    ) -> Outcome {
        let start = monotonicSeconds()
        let deadline = start + limits.seconds
        var ends: [Int32] = [-1, -1]
        let pid: pid_t
        // Both ends close on exec; under the lock, so no hook started meanwhile by another
        // thread gets our write end (and keeps this hook's input from ending).
        spawning.lock()
        guard pipe(&ends) == 0 else {
            spawning.unlock()
            return .notStarted("pipe: " + String(cString: strerror(errno)))
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let started = spawn(command, environment: environment, stdin: ends[0])
        spawning.unlock()
        close(ends[0])
        switch started {
        case .success(let spawned):
            pid = spawned
            running.withLock { $0 = spawned }
        case .failure(let failure):
            close(ends[1])
            return .notStarted(failure.reason)
        }
        defer { running.withLock { $0 = nil } }
        let writer = PipeWriter(descriptor: ends[1], deadline: deadline) { hasExited(pid) }
        writeInChunks(to: { writer.write($0) }, input)
        close(ends[1])
        if let status = waitForExit(pid, until: deadline) { return outcome(of: status) }
        killpg(pid, SIGTERM)
        _ = waitForExit(pid, until: monotonicSeconds() + limits.grace, reap: false)
        killpg(pid, SIGKILL)
        _ = reap(pid)
        return .timedOut
    }

    /// Starts `/bin/sh -c command` in a new process group with `stdin` as its standard input
    /// and our standard error as its standard output and error.
    private static func spawn(_ command: String, environment: [String: String], stdin: Int32) -> Result<
        pid_t, SpawnFailure
    > {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP] { sigaddset(&defaults, number) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        let variables: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map {
            strdup($0.key + "=" + $0.value)
        }
        defer {
            for pointer in arguments + variables { free(pointer) }
        }
        var pid = pid_t()
        let code = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments + [nil], variables + [nil])
        guard code == 0 else { return .failure(SpawnFailure("/bin/sh: " + String(cString: strerror(code)))) }
        return .success(pid)
    }

    /// Held from making a hook's pipe until it is started.
    private static let spawning = NSLock()
    private static let running = Mutex<pid_t?>(nil)

    /// The process group of the hook running now (its shell's pid), nil when none runs: what a
    /// signal after the run's report stops.
    static var runningGroup: pid_t? { running.withLock { $0 } }

    /// Why a hook did not start.
    private struct SpawnFailure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Waits until `pid` exits or `deadline` (monotonic seconds) passes; returns its wait
    /// status (reaped), or nil at the deadline. With `reap` false the exit is only observed
    /// (`WNOWAIT`): the process stays a zombie, its process group's number reserved.
    private static func waitForExit(_ pid: pid_t, until deadline: Double, reap: Bool = true) -> Int32? {
        while true {
            var info = siginfo_t()
            let found = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if found == 0, info.si_signo == SIGCHLD { return reap ? self.reap(pid) : 0 }
            if found != 0, errno != EINTR { return reap ? self.reap(pid) : 0 }
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return nil }
            var pause = timespec(tv_sec: 0, tv_nsec: Int(min(left, 0.02) * 1e9))
            nanosleep(&pause, nil)
        }
    }

    /// True once `pid` has exited (observed only: it stays to be reaped).
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD
    }

    /// Reaps `pid` (blocking) and returns its wait status.
    private static func reap(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status
    }

    /// The outcome a wait status tells.
    private static func outcome(of status: Int32) -> Outcome {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// Seconds of the monotonic clock.
    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Writes to the hook's standard input without blocking past the deadline; the first
    /// failure (the hook gone: EPIPE, or its shell exited while a process it left holds the
    /// pipe unread; the deadline passed) ends the writing for good.
    private final class PipeWriter {
        private let descriptor: Int32
        private let deadline: Double
        private let hookExited: () -> Bool
        private var open = true

        init(descriptor: Int32, deadline: Double, hookExited: @escaping () -> Bool) {
            self.descriptor = descriptor
            self.deadline = deadline
            self.hookExited = hookExited
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }

        func write(_ text: String) {
            guard open else { return }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    bytes = bytes.dropFirst(count)
                    continue
                }
                if count < 0, errno == EINTR { continue }
                guard count < 0, errno == EAGAIN, waitUntilWritable() else {
                    open = false
                    return
                }
            }
        }

        /// Waits until the pipe takes bytes again; false when the deadline passed first or the
        /// hook's shell exited meanwhile.
        private func waitUntilWritable() -> Bool {
            while true {
                let left = deadline - HookProcess.monotonicSeconds()
                guard left > 0, !hookExited() else { return false }
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&entry, 1, Int32(min(left * 1000, 100).rounded(.up)))
                if ready > 0 { return true }
                if ready < 0, errno != EINTR { return false }
            }
        }
    }
}
