// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// What the run-cap suites (`RunCapTests`, `RunCapConnectionTests`, `RunCapPushTests`) share:
/// the sample files, the configuration, and reading the JSON report, `status` and the
/// server's log.
protocol RunCapLab {}

extension RunCapLab {
    /// Five files of 100,000 bytes, `a.bin` to `e.bin`, an hour old.
    static var names: [String] { ["a.bin", "b.bin", "c.bin", "d.bin", "e.bin"] }
    static var size: Int { 100_000 }

    static func content(_ name: String) -> [UInt8] {
        pseudoRandomBytes(size, seed: UInt64(name.unicodeScalars.first?.value ?? 0))
    }

    /// Writes a configuration of `devices` (YAML entries) over `mirror`, readable by its owner only.
    func config(_ devices: [String], mirror: String, at folder: String, top: String = "") throws -> String {
        let path = folder + "/device.yaml"
        try ("local: \(mirror)\n" + top + "devices:\n" + devices.joined()).write(
            toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// The document of a `--json` run.
    func document(_ run: ProcessResult) throws -> [String: Any] {
        try #require(
            JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
    }

    func devices(_ document: [String: Any]) -> [[String: Any]] {
        document["devices"] as? [[String: Any]] ?? []
    }

    /// The `partials` that `ftpsync status --json` shows for the first device of `config`.
    func partialsInStatus(_ config: String) throws -> Int? {
        let status = try ftpsync(["status", config, "--json"])
        return devices(try document(status)).first?["partials"] as? Int
    }

    /// The files RETR asked for, by name, in order.
    func retrieved(_ server: FTPServer) -> [String] {
        server.commands().filter { $0.uppercased().hasPrefix("RETR ") }.map {
            $0.split(separator: "/").last.map(String.init) ?? ""
        }
    }
}
