// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// A push killed while uploading into a folder leaves the upload's temporary there; the
/// folder then removed here, the next `push --delete` removes it on the device in that run:
/// the abandoned temporary goes before the folder's RMD, not after the plan (the RMD failed,
/// "directory not empty", and the run ended partial). pyftpdlib; address 127.0.41.11.
@Suite(.serialized) struct AbandonedUploadFolderTests {
    @Test func aFolderHoldingAnAbandonedUploadIsDeletedInOneRun() throws {
        let work = try makeTemporaryFolder("abandoned-folder")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let cam = mirror + "/cam"
        try writeFile(cam + "/D/big.bin", pseudoRandomBytes(400_000, seed: 7), modified: 1_700_000_000)
        try writeFile(cam + "/keep/k", Array("k\n".utf8), modified: 1_700_000_000)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.41.11", options: ["--throttle", "50000"])
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)

        let child = try spawn(ftpsyncBinary, ["push", config, "--no-progress", "--parallel", "1"], output: false)
        let temporary = served + "/D/.big.bin.ftpsync-part"
        var started = false
        for _ in 0..<600 where !started {
            usleep(50_000)
            started = ((try? FileManager.default.attributesOfItem(atPath: temporary))?[.size] as? Int ?? 0) > 20_000
        }
        kill(child.pid, SIGKILL)
        _ = waitForExit(child.pid, timeout: 30)
        #expect(started)

        try FileManager.default.removeItem(atPath: cam + "/D")
        let push = try ftpsync(["push", config, "--delete"])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(!FileManager.default.fileExists(atPath: served + "/D"), "\(push.stdout)")
        #expect(FileManager.default.fileExists(atPath: served + "/keep/k"))
    }
}
