// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh temporary folder for one test, removed on deinit.
final class TempTree {
    let path: String

    init() throws {
        var template = Array("/tmp/localtree-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func url(_ relative: String) -> String { path + "/" + relative }

    /// Writes `bytes` to `relative`, making parent folders.
    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let full = url(relative)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
    }

    func write(_ relative: String, _ text: String) throws {
        try write(relative, Array(text.utf8))
    }

    func folder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: url(relative), withIntermediateDirectories: true)
    }

    func read(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: url(relative))))
    }
}

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed | 1
    var bytes = [UInt8](repeating: 0, count: count)
    for i in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes[i] = UInt8(truncatingIfNeeded: state)
    }
    return bytes
}

/// Runs a program and returns its standard output.
func run(_ program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
