// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 6: FTPS against real servers with self-signed certificates. vsftpd explicit
/// (`require_ssl_reuse=YES`, TLS 1.3 allowed), vsftpd implicit, pyftpdlib explicit.
@Suite(.serialized) struct TLSEndToEndTests {
    /// (server kind, `--tls` mode, address, extra server options)
    static let servers: [(FTPServer.Kind, String, String)] = [
        (.vsftpd, "explicit", "127.0.0.51"), (.vsftpd, "implicit", "127.0.0.52"),
        (.pyftpdlib, "explicit", "127.0.0.53"),
    ]

    private func startServer(_ kind: FTPServer.Kind, tls: String, address: String, served: String) throws -> FTPServer {
        var options = ["--tls", tls]
        if kind == .vsftpd { options += ["--ssl-reuse", "yes"] }
        return try FTPServer(kind, root: served, address: address, options: options)
    }

    private func writeConfig(_ server: FTPServer, tls: String, extra: String, local: String, at folder: String) throws
        -> String
    {
        let text = "local: \(local)\ndevices:\n" + server.deviceYAML(name: "cam", extra: "    tls: \(tls)\n" + extra)
        let path = folder + "/device-\(UUID().uuidString.prefix(6)).yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: servers)
    func pinnedPullWorksAndWrongOrMissingPinStopsBeforeUser(kind: FTPServer.Kind, tls: String, address: String)
        throws
    {
        let work = try makeTemporaryFolder("tls-\(kind.rawValue)-\(tls)")
        let served = work + "/served"
        let tree = sampleTree()
        try writeTree(tree.files, emptyFolders: tree.emptyFolders, at: served)
        let server = try startServer(kind, tls: tls, address: address, served: served)
        defer { server.stop() }
        let fingerprint = try #require(server.fingerprint)
        #expect(fingerprint.hasPrefix("sha256:") && fingerprint.count == 7 + 32 * 3 - 1)

        // Unpinned: the self-signed certificate is refused, the message shows its fingerprint.
        let unpinnedMirror = work + "/unpinned"
        let unpinned = try writeConfig(server, tls: tls, extra: "", local: unpinnedMirror, at: work)
        let refused = try ftpsync(["pull", unpinned])
        #expect(refused.status == 1)
        #expect((refused.stdout + refused.stderr).contains(fingerprint), "\(refused.stdout)\(refused.stderr)")
        #expect((refused.stdout + refused.stderr).contains("not trusted"))

        // A wrong pin: stopped before USER, nothing written.
        var wrong = Array(fingerprint)
        wrong[wrong.count - 1] = wrong[wrong.count - 1] == "0" ? "1" : "0"
        let wrongMirror = work + "/wrong"
        let wrongPin = try writeConfig(
            server, tls: tls, extra: "    fingerprint: \"\(String(wrong))\"\n", local: wrongMirror, at: work)
        let stopped = try ftpsync(["pull", wrongPin])
        #expect(stopped.status == 1)
        #expect((stopped.stdout + stopped.stderr).contains("does not match the pinned fingerprint"))
        #expect((stopped.stdout + stopped.stderr).contains(fingerprint))
        #expect(server.count("USER") == 0, "\(server.commands())")
        #expect(server.count("PASS") == 0)
        #expect(treeListing(wrongMirror + "/cam").isEmpty)
        #expect(treeListing(unpinnedMirror + "/cam").isEmpty)

        // The right pin: the pull makes the tree byte-identical over TLS data connections.
        let mirror = work + "/mirror"
        let pinned = try writeConfig(
            server, tls: tls, extra: "    fingerprint: \"\(fingerprint)\"\n", local: mirror, at: work)
        let pulled = try ftpsync(["pull", pinned, "-v"])
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(!pulled.stderr.contains("did not resume"), "\(pulled.stderr)")
        let local = treeListing(mirror + "/cam")
        let remote = treeListing(served)
        #expect(Set(local.keys) == Set(remote.keys))
        for (path, facts) in remote { #expect(local[path]?.content == facts.content, "content of \(path)") }
        #expect(server.count("RETR") == tree.files.count)
        let commands = server.commands().map { $0.uppercased() }
        if tls == "explicit" {
            let auth = commands.firstIndex { $0 == "AUTH TLS" }
            let user = commands.firstIndex { $0.hasPrefix("USER") }
            #expect(auth != nil && user != nil && auth! < user!)
        } else {
            #expect(!commands.contains("AUTH TLS"))
        }
        #expect(commands.contains("PROT P"))

        // push over the same pinned TLS: a changed and a new file go up, byte-identical.
        let newContent = pseudoRandomBytes(300_000, seed: 42)
        try writeFile(mirror + "/cam/uploaded/new.bin", newContent, modified: Date().timeIntervalSince1970 - 120)
        try writeFile(
            mirror + "/cam/readme.txt", Array("changed here\n".utf8), modified: Date().timeIntervalSince1970 - 60)
        let pushed = try ftpsync(["push", pinned])
        #expect(pushed.status == 0, "\(pushed.stdout)\(pushed.stderr)")
        #expect(FileManager.default.contents(atPath: served + "/uploaded/new.bin").map { [UInt8]($0) } == newContent)
        #expect(
            FileManager.default.contents(atPath: served + "/readme.txt").map { [UInt8]($0) }
                == Array("changed here\n".utf8))
        #expect(server.count("STOR") + server.count("APPE") == 2)

        // check: TLS version, cipher, fingerprint; exit 0.
        let checked = try ftpsync(["check", pinned, "--json"])
        #expect(checked.status == 0, "\(checked.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any]
        let device = (document?["devices"] as? [[String: Any]])?.first
        #expect(device?["certificate_fingerprint"] as? String == fingerprint)
        #expect((device?["tls_version"] as? String)?.hasPrefix("TLSv1.") == true)
        #expect((device?["tls_cipher"] as? String)?.isEmpty == false)
        #expect(device?["certificate_verification"] as? String == "pinned fingerprint")
    }

    @Test func insecureWorksButWarnsOnEveryRunAndCheck() throws {
        let work = try makeTemporaryFolder("tls-insecure")
        let served = work + "/served"
        try writeFile(served + "/one.txt", Array("one\n".utf8), modified: 1_700_000_000)
        let server = try startServer(.pyftpdlib, tls: "explicit", address: "127.0.0.54", served: served)
        defer { server.stop() }
        let config = try writeConfig(
            server, tls: "explicit", extra: "    insecure: true\n", local: work + "/mirror", at: work)
        for arguments in [["pull", config], ["pull", config, "-q"], ["check", config]] {
            let result = try ftpsync(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("warning") && result.stderr.contains("insecure: true"), "\(arguments)")
        }
        #expect(treeListing(work + "/mirror/cam")["one.txt"]?.content == Array("one\n".utf8))
    }

    @Test func systemStoreVerifiesTheHostAgainstTheCertificate() throws {
        let work = try makeTemporaryFolder("tls-system")
        let served = work + "/served"
        try writeFile(served + "/one.txt", Array("one\n".utf8), modified: 1_700_000_000)
        let server = try startServer(.vsftpd, tls: "explicit", address: "127.0.0.56", served: served)
        defer { server.stop() }
        let config = try writeConfig(server, tls: "explicit", extra: "", local: work + "/mirror", at: work)
        // The lab certificate as the only trusted CA (OpenSSL reads SSL_CERT_FILE): the
        // certificate names IP 127.0.0.56, so the default check passes.
        let trusted = ["SSL_CERT_FILE": server.runFolder + "/cert.pem"]
        let checked = try ftpsync(["check", config], environment: trusted)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("verified by:   system CA store"), "\(checked.stdout)")
        let pulled = try ftpsync(["pull", config], environment: trusted)
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(treeListing(work + "/mirror/cam")["one.txt"]?.content == Array("one\n".utf8))
    }

    @Test func refusedAuthTLSFailsBeforeUser() throws {
        let work = try makeTemporaryFolder("tls-refused")
        let served = work + "/served"
        try writeFile(served + "/one.txt", Array("one\n".utf8), modified: 1_700_000_000)
        // A plain server: AUTH TLS is not understood.
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.0.55")
        defer { server.stop() }
        let config = try writeConfig(server, tls: "explicit", extra: "", local: work + "/mirror", at: work)
        let result = try ftpsync(["pull", config])
        #expect(result.status == 1)
        #expect((result.stdout + result.stderr).contains("refused AUTH TLS"), "\(result.stdout)\(result.stderr)")
        #expect(server.count("AUTH") == 1)
        #expect(server.count("USER") == 0 && server.count("PASS") == 0)
        let checked = try ftpsync(["check", config])
        #expect(checked.status == 1)
    }
}
