// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

extension ProxyTests {
    /// An HTTP proxy whose rules allow CONNECT to the FTP port only (tinyproxy `ConnectPort`, as
    /// squid's `SSL_ports` does for 443): listings still work, over the control connection
    /// (`STAT`), `check` fails the device, and a download's failure blames the proxy's rules and
    /// says what they must allow.
    @Test func aProxyThatAllowsOnlyTheControlPortIsBlamedForTheDataConnections() throws {
        let work = try makeTemporaryFolder("proxy-rules")
        try FileManager.default.createDirectory(atPath: work + "/served/DCIM", withIntermediateDirectories: true)
        try Data("frame".utf8).write(to: URL(fileURLWithPath: work + "/served/DCIM/a.jpg"))
        let server = try FTPServer(.pyftpdlib, root: work + "/served", address: "127.0.65.50")
        defer { server.stop() }
        let proxy = try ProxyProcess.tinyproxy(
            address: "127.0.65.51", port: 46_550, bind: "127.0.65.52", user: Self.proxyUser,
            password: Self.proxyPassword, connectPorts: [server.port])
        defer { proxy.stop() }
        let config = try Self.config(server, work: work, extra: ["proxy: \(proxy.url())"])

        let listed = try ftpsync(["ls", config, "cam:DCIM"])
        #expect(listed.status == 0, "\(listed.stdout)\(listed.stderr)")
        #expect(listed.stdout.contains("a.jpg"))
        #expect(Self.output(listed).contains("stat"), "the note says the listing came over the control connection")

        // `check` tries a data connection through the proxy: a device whose transfers would all
        // fail is not ok (the fresh user's find: it said ok).
        let checked = try ftpsync(["check", config])
        #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
        #expect(Self.output(checked).contains("every transfer would fail"), "\(checked.stdout)")

        let pulled = try ftpsync(["pull", config, "--no-progress"])
        #expect(pulled.status == 1, "\(pulled.stdout)\(pulled.stderr)")
        let said = Self.output(pulled)
        #expect(said.contains("does not allow a connection") && said.contains("every passive data port"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: work + "/mirror/cam/DCIM/a.jpg"))
        #expect(Self.leaks(Self.proxyPassword, [listed, pulled], work: work).isEmpty)
    }
}

extension ProxyTests {
    /// FTPS uploads to vsftpd (`require_ssl_reuse=YES`) through microsocks: a proxy closes both
    /// directions at a half-close, so the server's close_notify met a closed connection, OpenSSL
    /// dropped the session, and every later data connection got `522 ... session reuse
    /// required` (the fresh user's find; this test failed before). The upload's data connection
    /// now stays open until the server closed it: every data connection resumes the session.
    @Test func ftpsUploadsThroughAProxyKeepTheTLSSessionResumable() throws {
        let work = try makeTemporaryFolder("proxy-ftps-push")
        let server = try FTPServer(
            .vsftpd, root: work + "/served", address: "127.0.65.53",
            options: ["--tls", "explicit", "--ssl-reuse", "yes"])
        defer { server.stop() }
        let proxy = try ProxyProcess.microsocks(address: "127.0.65.54", port: 46_554, bind: "127.0.65.55")
        defer { proxy.stop() }
        let files = Self.tree()
        try writeTree(files, at: work + "/mirror/cam")
        let fingerprint = try #require(server.fingerprint)
        let config = try Self.config(
            server, work: work, extra: ["proxy: \(proxy.url())", "tls: explicit", "fingerprint: \"\(fingerprint)\""])
        let pushed = try ftpsync(["push", config, "--no-progress", "-v"])
        #expect(pushed.status == 0, "\(pushed.stdout)\(pushed.stderr)")
        let said = Self.output(pushed)
        #expect(!said.contains("did not resume") && !said.contains("522"), "\(said)")
        #expect(Self.differing(files, under: work + "/served").isEmpty)
        // A second run finds everything recorded: nothing to send.
        let again = try ftpsync(["push", config, "--no-progress"])
        #expect(again.status == 0 && !again.stdout.contains("upload"), "\(again.stdout)")
    }
}
