// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Devices that share one pyftpdlib server, each a folder of its own (`remote: /NAME`) holding
/// two small files `f0.bin` and `f1.bin`, and a configuration of them all per local tree
/// (`ROOT.yaml` with `local: WORK/ROOT`): a fleet for the tests of many devices and of shards.
struct OneServerFleet {
    /// The temporary folder holding `served/`, the configurations and the local trees.
    let work: String
    let server: FTPServer
    /// Configuration path per local tree name.
    var configs: [String: String] = [:]

    /// Writes the devices' folders, starts the server on `address` and writes a configuration
    /// per name of `roots`.
    init(_ label: String, names: [String], address: String, roots: [String]) throws {
        work = try makeTemporaryFolder(label)
        var files: [SampleFile] = []
        for (index, name) in names.enumerated() {
            for file in 0..<2 {
                files.append(
                    SampleFile(
                        path: "\(name)/f\(file).bin", content: pseudoRandomBytes(300 + file, seed: UInt64(index)),
                        modified: 1_700_000_000))
            }
        }
        try writeTree(files, at: work + "/served")
        server = try FTPServer(.pyftpdlib, root: work + "/served", address: address)
        var devices = ""
        for name in names {
            devices +=
                "  - {name: \(name), host: \(server.address), port: \(server.port), user: \(server.user),"
                + " password: \(server.password), remote: /\(name)}\n"
        }
        for root in roots {
            let path = work + "/\(root).yaml"
            try "local: \(work)/\(root)\ndevices:\n\(devices)".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
            configs[root] = path
        }
    }

    /// The device folders a local tree holds.
    func pulled(_ root: String) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: work + "/\(root)")) ?? []
        return Set(names.filter { !$0.hasPrefix(".") })
    }
}
