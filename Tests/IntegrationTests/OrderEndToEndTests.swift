// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// `--order` / `order` against pyftpdlib (issue 19): over one connection the downloads start
/// in the order asked for, across folders, as the server's command log shows the RETRs.
/// A push starts its uploads (STOR) in the order too. Addresses 127.0.50.1 to 127.0.50.4.
@Suite(.serialized) struct OrderEndToEndTests {
    /// (file, days ago, bytes) on the device, in two folders and the root.
    static let files: [(String, Double, Int)] = [
        ("a/old.jpg", 10, 300), ("a/mid.jpg", 5, 100), ("b/new.jpg", 1, 500), ("b/oldest.jpg", 20, 200),
        ("top.jpg", 3, 400),
    ]

    /// (address, options, device key, file names in the RETR order).
    static let rows: [(String, [String], String, [String])] = [
        ("127.0.50.1", ["--order", "newest-first"], "", ["new.jpg", "top.jpg", "mid.jpg", "old.jpg", "oldest.jpg"]),
        // The device's key, and the option winning over it.
        ("127.0.50.2", [], "order: smallest-first", ["mid.jpg", "oldest.jpg", "old.jpg", "top.jpg", "new.jpg"]),
        (
            "127.0.50.3", ["--order", "oldest-first"], "order: largest-first",
            ["oldest.jpg", "old.jpg", "mid.jpg", "top.jpg", "new.jpg"]
        ),
    ]

    @Test(arguments: rows)
    func downloadsStartInTheOrder(address: String, options: [String], key: String, expected: [String]) throws {
        let work = try makeTemporaryFolder("order")
        let served = work + "/served"
        let mirror = work + "/mirror"
        for (path, daysAgo, size) in Self.files {
            try writeFile(
                served + "/" + path, Array(repeating: 0x61, count: size), modified: Push.minute(daysAgo: daysAgo))
        }
        let server = try FTPServer(.pyftpdlib, root: served, address: address)
        defer { server.stop() }
        let config = work + "/device.yaml"
        let text =
            "local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam", extra: key.isEmpty ? "" : "    \(key)\n")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ftpsync(["pull", config, "--parallel", "1", "--no-progress"] + options)
        #expect(run.status == 0, "\(run.stderr)")
        let retrieved = server.commands().filter { $0.uppercased().hasPrefix("RETR ") }
        let names = retrieved.map { $0.dropFirst(5).split(separator: "/").last.map(String.init) ?? "" }
        #expect(names == expected, "\(retrieved)")
        for (path, _, size) in Self.files {
            #expect(Push.bytes(mirror + "/cam/" + path)?.count == size)
        }
    }

    /// `push --order largest-first`: the STORs (under a temporary name or not) in size order.
    @Test func uploadsStartInTheOrder() throws {
        let work = try makeTemporaryFolder("order-push")
        let served = work + "/served"
        let mirror = work + "/mirror"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        for (path, daysAgo, size) in Self.files {
            try writeFile(
                mirror + "/cam/" + path, Array(repeating: 0x62, count: size), modified: Push.minute(daysAgo: daysAgo))
        }
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.50.4")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let run = try ftpsync(["push", config, "--parallel", "1", "--no-progress", "--order", "largest-first"])
        #expect(run.status == 0, "\(run.stderr)")
        let stored = server.commands().filter { $0.uppercased().hasPrefix("STOR ") }
        let names = ["new.jpg", "top.jpg", "old.jpg", "oldest.jpg", "mid.jpg"]
        #expect(stored.compactMap { line in names.first { line.contains($0) } } == names, "\(stored)")
        for (path, _, size) in Self.files {
            #expect(Push.bytes(served + "/" + path)?.count == size)
        }
    }
}
