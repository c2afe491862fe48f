// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 15: the library's examples against an explicit-FTPS server (vsftpd, self-signed
/// certificate pinned with `fingerprint:`): `sync-example` pulls through the public runner and
/// `plan-pull-example` lists through the public session mapping; both say AUTH TLS before USER.
@Suite(.serialized) struct RunnerExampleTests {
    /// The pinned device's configuration, the served tree, and the server.
    private func setup(_ label: String, address: String) throws -> (
        config: String, mirror: String, served: String, files: [SampleFile], server: FTPServer
    ) {
        let work = try makeTemporaryFolder("runner-\(label)")
        let served = work + "/served"
        let tree = sampleTree()
        try writeTree(tree.files, emptyFolders: tree.emptyFolders, at: served)
        let server = try FTPServer(
            .vsftpd, root: served, address: address, options: ["--tls", "explicit", "--ssl-reuse", "yes"])
        let fingerprint = try #require(server.fingerprint)
        let mirror = work + "/mirror"
        let extra = "    tls: explicit\n    fingerprint: \"\(fingerprint)\"\n"
        let config = work + "/device.yaml"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam", extra: extra))
            .write(toFile: config, atomically: true, encoding: .utf8)
        return (config, mirror, served, tree.files, server)
    }

    /// The example binary `name`, next to the built `ftpsync`.
    private func example(_ name: String) -> String {
        (ftpsyncBinary as NSString).deletingLastPathComponent + "/" + name
    }

    /// True when the server's log has AUTH TLS, and it comes before the first USER.
    private func authBeforeUser(_ server: FTPServer) -> Bool {
        let commands = server.commands().map { $0.uppercased() }
        guard let auth = commands.firstIndex(of: "AUTH TLS"),
            let user = commands.firstIndex(where: { $0.hasPrefix("USER") })
        else { return false }
        return auth < user
    }

    @Test func syncExamplePullsAPinnedFTPSDeviceThroughTheRunner() throws {
        let lab = try setup("sync", address: "127.0.16.1")
        defer { lab.server.stop() }
        let result = try run(example("sync-example"), [lab.config])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("cam: started"))
        #expect(result.stdout.contains("cam: ok, \(lab.files.count) files"), "\(result.stdout)")
        for file in lab.files { #expect(result.stdout.contains("cam: done download \(file.path)"), "\(file.path)") }
        let local = treeListing(lab.mirror + "/cam")
        for (path, facts) in treeListing(lab.served) { #expect(local[path]?.content == facts.content, "\(path)") }
        #expect(authBeforeUser(lab.server), "\(lab.server.commands())")
        // The runner took the lock and kept the state, as `ftpsync pull` does.
        #expect(FileManager.default.fileExists(atPath: lab.mirror + "/.ftpsync/state.sqlite"))
    }

    @Test func planPullLogsInOverTLSWithThePin() throws {
        let lab = try setup("plan", address: "127.0.16.2")
        defer { lab.server.stop() }
        let result = try run(example("plan-pull-example"), [lab.config, "cam"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\(lab.files.count) downloads"))
        #expect(authBeforeUser(lab.server), "\(lab.server.commands())")
        #expect(lab.server.count("RETR") == 0)
    }
}
