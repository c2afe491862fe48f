// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The package's root folder, found from this file's place in Tests/IntegrationTests/Support.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}()

/// The built `ftpsync` binary: `$FTPSYNC_BIN`, else next to the running test bundle.
let ftpsyncBinary: String = {
    if let path = ProcessInfo.processInfo.environment["FTPSYNC_BIN"] { return path }
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundle, bundle.deletingLastPathComponent()] {
        let path = candidate.appendingPathComponent("ftpsync").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return packageRoot + "/.build/debug/ftpsync"
}()

/// What a finished process printed and how it ended.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `executable` with `arguments`, waiting at most `timeout` seconds (then SIGKILL).
///
/// Uses posix_spawn and waitpid directly: output goes to temporary files, so a grandchild that
/// keeps a descriptor open can never block the test, and no run loop is needed to reap.
@discardableResult
func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 120
) throws -> ProcessResult {
    let child = try spawn(executable, arguments, environment: environment, output: true)
    let status = waitForExit(child.pid, timeout: timeout)
    defer {
        unlink(child.stdout)
        unlink(child.stderr)
    }
    return ProcessResult(
        status: status, stdout: (try? String(contentsOfFile: child.stdout, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: child.stderr, encoding: .utf8)) ?? "")
}

/// A started child process and where its output goes.
struct Spawned {
    var pid: pid_t
    var stdout: String
    var stderr: String
}

/// Starts `executable` without waiting; stdin is /dev/null, output goes to temporary files (or
/// /dev/null when `output` is false).
func spawn(_ executable: String, _ arguments: [String], environment: [String: String] = [:], output: Bool)
    throws -> Spawned
{
    let token = UUID().uuidString.prefix(8)
    let outPath = output ? NSTemporaryDirectory() + "ftpsync-it-out-\(token)" : "/dev/null"
    let errPath = output ? NSTemporaryDirectory() + "ftpsync-it-err-\(token)" : "/dev/null"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard rc == 0 else { throw SpawnError(executable: executable, code: rc) }
    return Spawned(pid: pid, stdout: outPath, stderr: errPath)
}

/// A child that could not be started.
struct SpawnError: Error, CustomStringConvertible {
    var executable: String
    var code: Int32
    var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
}

/// Polls `condition` every 20 ms for up to `limit` seconds; false when it never held.
func waitUntil(_ limit: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return false
}

/// Waits for `pid` to exit, killing it after `timeout` seconds. Returns the exit status, or
/// 128 + the signal for a child ended by a signal.
func waitForExit(_ pid: pid_t, timeout: Double) -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
        let done = waitpid(pid, &status, WNOHANG)
        if done == pid { break }
        if done < 0 { return -1 }
        if Date() > deadline {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            break
        }
        usleep(10_000)
    }
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// Runs the built ftpsync binary.
@discardableResult
func ftpsync(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 120) throws
    -> ProcessResult
{
    try run(ftpsyncBinary, arguments, environment: environment, timeout: timeout)
}

/// A fresh empty folder under the system's temporary folder.
func makeTemporaryFolder(_ label: String) throws -> String {
    let path = NSTemporaryDirectory() + "ftpsync-it-\(label)-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Starts `python3 -c script path` (a device still writing `path`, say) and returns the running
/// process, for the caller to wait for.
func startPython(_ script: String, on path: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, path]
    try process.run()
    return process
}
