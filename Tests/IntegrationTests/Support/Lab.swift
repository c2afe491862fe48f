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
@discardableResult
func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 120
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outData = ReadAll(out.fileHandleForReading)
    let errData = ReadAll(err.fileHandleForReading)
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData.wait(), as: UTF8.self),
        stderr: String(decoding: errData.wait(), as: UTF8.self))
}

/// Reads a pipe to its end on a thread of its own, so a chatty child never blocks.
final class ReadAll: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        done.signal()
        return data
    }
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
