// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// A file whose name is near the 255-byte limit is pushed: its upload's temporary
/// (`.NAME.ftpsync-part`) was longer than a name may be, the server refused it ("553 Could not
/// create file.", "550 File name too long.") and the device never synced. vsftpd and
/// pyftpdlib; addresses 127.0.40.30–31.
@Suite(.serialized) struct LongNamePushTests {
    @Test(arguments: [(FTPServer.Kind.vsftpd, "127.0.40.30"), (.pyftpdlib, "127.0.40.31")])
    func aNameOf244BytesIsPushedAndPulledBack(kind: FTPServer.Kind, address: String) throws {
        let work = try makeTemporaryFolder("long-name-push")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        let name = "docs \u{e9}/" + String(repeating: "y", count: 240) + ".txt"
        try writeFile(mirror + "/cam/" + name, Array("long\n".utf8), modified: 1_700_000_000)
        let server = try FTPServer(kind, root: served, address: address)
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam")).write(
            toFile: config, atomically: true, encoding: .utf8)

        let push = try ftpsync(["push", config, "--no-progress"])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(FileManager.default.contents(atPath: served + "/" + name) == Data("long\n".utf8))
        let again = try ftpsync(["push", config, "--no-progress"])
        #expect(again.status == 0 && again.stdout.contains("nothing to do"), "\(again.stdout)\(again.stderr)")
    }
}
