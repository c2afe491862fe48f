// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// A fresh folder under the system's temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "syncconfig-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

@Test func loadReadsTheFileAndResolvesAgainstItsFolder() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = folder.path + "/device.yaml"
    try "local: ./mirror\ndevices:\n  - name: cam\n    host: 127.0.0.1\n    password_env: CAM_PW\n"
        .write(toFile: file, atomically: true, encoding: .utf8)
    let config = try ConfigLoader.load(path: file, environment: ["CAM_PW": "s3cret"])
    #expect(config.configPath == absolutePath(file, relativeTo: "/"))
    #expect(config.localRoot == absolutePath(folder.path + "/mirror", relativeTo: "/"))
    #expect(config.devices.first?.password == "s3cret")
}

@Test func loadReportsErrorsWithThePathAsGiven() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let file = folder.path + "/bad.yaml"
    try "local: /m\ndevices:\n  - name: a\n    hots: h\n".write(toFile: file, atomically: true, encoding: .utf8)
    do {
        _ = try ConfigLoader.load(path: file, environment: [:])
        Issue.record("bad file accepted")
    } catch {
        #expect(error.description == "\(file):4:5: unknown key 'hots'; did you mean 'host'?")
    }
}

@Test func unreadableFilesGiveTheSystemReason() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let cases = [
        (folder.path + "/missing.yaml", "No such file or directory"),
        (folder.path, "Is a directory"),
    ]
    for (path, reason) in cases {
        do {
            _ = try ConfigLoader.load(path: path, environment: [:])
            Issue.record("\(path) was read")
        } catch {
            #expect(error.line == nil)
            #expect(error.column == nil)
            #expect(error.description == "\(path): cannot read: \(reason)")
        }
    }
}
