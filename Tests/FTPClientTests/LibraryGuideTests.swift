// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import Testing

/// The code of docs/library.md ("Using the library"), compiled and run against real servers
/// on 127.0.18.x; `everyCodeBlockOfTheGuideIsHere` keeps the page and this file the same.
@Suite(.serialized) struct LibraryGuideTests {
    @Test func theClientGuideRunsAgainstAServer() throws {
        let server = try TestServer(host: "127.0.18.1")
        let host = server.host
        let port = server.port
        let user = TestServer.user
        let password = TestServer.password

        let configuration = FTPSessionConfiguration(
            host: host, port: port, user: user, password: password, timeout: 20)
        let session = FTPSession(configuration: configuration)
        try session.connect()
        defer { session.quit() }

        let bytes = Array("hello, camera\n".utf8)
        var sent = 0
        try session.store("notes.txt") { buffer in
            let count = min(buffer.count, bytes.count - sent)
            buffer.copyBytes(from: bytes[sent..<sent + count])
            sent += count
            return count
        }
        #expect(server.contents("notes.txt") == bytes)

        try session.makeDirectory("archive")
        try session.rename(from: "notes.txt", to: "archive/notes.txt")
        #expect(server.contents("archive/notes.txt") == bytes)

        let context = ListingContext(now: Date(), timeZone: TimeZone(identifier: "UTC")!)
        let listing = try session.list("archive", context: context)
        for entry in listing.entries where entry.type == .file {
            print(entry.name, entry.size ?? 0, entry.modified?.date ?? Date.distantPast)
        }
        #expect(listing.entries.filter { $0.type == .file }.map(\.name) == ["notes.txt"])

        let raw = try session.listRaw("archive")
        let parsed = ListingParser.parse(raw.bytes, format: raw.format, context: context)
        print(parsed.entries.count, "entries,", parsed.warnings.count, "unreadable lines")
        #expect(parsed.entries.map(\.name) == listing.entries.map(\.name))

        #expect(try Self.downloadAsTheGuideSays(session) == bytes)

        let reply = try session.raw("NOOP")
        print(reply.code, session.scrubber.scrub(reply.text))
        try session.delete("archive/notes.txt")
        try session.removeDirectory("archive")
        #expect(reply.code == 200)
        #expect(server.contents("archive/notes.txt") == nil)

        do {
            try session.delete("no-such-file")
        } catch {
            guard case .reply(let code, let text, let command) = error else { throw error }
            print("\(command): \(code) \(text)")
        }
        // Any other error than a refusal was thrown on; after a refusal the session stays usable.
        #expect(session.isConnected)
    }

    /// The guide's download loop resumes: a server that cuts every data connection after 5
    /// bytes still delivers the 14-byte file whole, from the byte each attempt reached.
    @Test func theGuidesDownloadResumesAfterCuts() throws {
        let server = try TestServer(host: "127.0.18.2", options: ["--drop-after", "5"])
        let bytes = Array("hello, camera\n".utf8)
        try server.put("archive/notes.txt", bytes)
        let session = FTPSession(configuration: server.configuration(timeout: 20))
        try session.connect()
        defer { session.quit() }
        #expect(try Self.downloadAsTheGuideSays(session) == bytes)
    }

    /// The guide's "Download with progress and resume" block.
    private static func downloadAsTheGuideSays(_ session: FTPSession) throws -> [UInt8] {
        let total = try session.size("archive/notes.txt")
        var received: [UInt8] = []
        for _ in 1...3 {
            do {
                _ = try session.retrieve("archive/notes.txt", from: UInt64(received.count)) { chunk in
                    received += chunk
                    print("\(received.count) of \(total) bytes")
                }
                break
            } catch FTPError.dataConnectionClosed(let bytesTransferred, let reason) {
                print("cut after \(bytesTransferred) more bytes (\(reason)): resuming")
            }
        }
        return received
    }

    /// The FTPS block: AUTH TLS before USER, the pinned certificate accepted.
    @Test func theFTPSGuideLogsInOverTLSWithAPinnedCertificate() throws {
        let server = try LabServer(kind: "pyftpdlib", address: "127.0.18.3", options: ["--tls", "explicit"])
        let host = server.address
        let port = server.port
        let user = server.user
        let password = server.password
        let fingerprint = server.fingerprint

        let secure = FTPSessionConfiguration(
            host: host, port: port, user: user, password: password, timeout: 20,
            tls: .explicit, certificateCheck: .pinned(sha256: fingerprint))
        let secureSession = FTPSession(configuration: secure)
        try secureSession.connect()
        defer { secureSession.quit() }
        print(secureSession.tlsDetails?.version ?? "", secureSession.tlsDetails?.fingerprint ?? "")

        #expect(secureSession.tlsDetails?.fingerprint == fingerprint)
        let commands = server.commands().map { $0.uppercased() }
        let auth = try #require(commands.firstIndex { $0.hasPrefix("AUTH TLS") })
        let login = try #require(commands.firstIndex { $0.hasPrefix("USER") })
        #expect(auth < login)
    }

    /// The proxy block: a session through a real SOCKS5 proxy (microsocks, its outgoing side on
    /// 127.0.18.7): the server sees every connection, control and data, come from the proxy.
    @Test func theProxyGuideGoesThroughASOCKS5Proxy() throws {
        let peerLog = NSTemporaryDirectory() + "ftpsync-guide-peers-\(getpid()).log"
        defer { try? FileManager.default.removeItem(atPath: peerLog) }
        let server = try LabServer(kind: "pyftpdlib", address: "127.0.18.5", options: ["--peer-log", peerLog])
        try Data().write(to: URL(fileURLWithPath: peerLog))  // drop the start-up probe's line
        let microsocks = Process()
        microsocks.executableURL = URL(fileURLWithPath: "/usr/bin/microsocks")
        microsocks.arguments = ["-i", "127.0.18.6", "-p", "46981", "-b", "127.0.18.7"]
        try microsocks.run()
        defer {
            // SIGKILL: the test runner may start children with SIGTERM blocked.
            kill(microsocks.processIdentifier, SIGKILL)
            microsocks.waitUntilExit()
        }
        try Self.waitUntilListening("127.0.18.6", 46981)
        let host = server.address
        let port = server.port
        let user = server.user
        let password = server.password
        let proxyHost = "127.0.18.6"
        let proxyPort = 46981
        let context = ListingContext(now: Date(), timeZone: TimeZone(identifier: "UTC")!)

        var viaProxy = FTPSessionConfiguration(host: host, port: port, user: user, password: password, timeout: 20)
        viaProxy.proxy = FTPProxy(kind: .socks5h, host: proxyHost, port: proxyPort)
        let proxied = FTPSession(configuration: viaProxy)
        try proxied.connect()
        defer { proxied.quit() }
        let names = try proxied.list("/", context: context).entries.map(\.name)
        print(names, proxied.proxyHop?.throughSeconds ?? 0)

        #expect(proxied.proxyHop != nil)
        let peers = try String(contentsOfFile: peerLog, encoding: .utf8).split(separator: "\n")
        #expect(peers.contains("control 127.0.18.7") && peers.contains("data 127.0.18.7"), "\(peers)")
        #expect(peers.allSatisfy { $0.hasSuffix(" 127.0.18.7") }, "\(peers)")
    }

    /// Waits (at most 10 s) until `host`:`port` takes a connection.
    static func waitUntilListening(_ host: String, _ port: Int) throws {
        for _ in 0..<200 {
            if let probe = try? SocketTransport.connect(host: host, port: port, timeout: 1) {
                probe.close()
                return
            }
            usleep(50_000)
        }
        throw FTPError.connectFailed(host: host, port: port, reason: "the proxy did not start")
    }

    /// Every ```swift block of docs/library.md appears in this file or in the runner's guide test
    /// (SyncRunnerTests/RunnerGuideTests.swift), line for line (leading spaces aside), so the page shows only code that is compiled and run.
    @Test func everyCodeBlockOfTheGuideIsHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let guide = here.deletingLastPathComponent().appendingPathComponent("../../docs/library.md")
        let blocks = Self.swiftBlocks(try String(contentsOf: guide, encoding: .utf8))
        #expect(blocks.count >= 8)
        // The runner's part of the page runs in SyncRunnerTests (it needs the runner).
        let runner = here.deletingLastPathComponent().appendingPathComponent(
            "../SyncRunnerTests/RunnerGuideTests.swift")
        let source = Self.trimmedLines(
            try String(contentsOf: here, encoding: .utf8) + "\n" + String(contentsOf: runner, encoding: .utf8))
        for block in blocks {
            let lines = Self.trimmedLines(block)
            let found = (0...max(0, source.count - lines.count)).contains { start in
                Array(source[start..<min(source.count, start + lines.count)]) == lines
            }
            #expect(found, "docs/library.md has a block no guide test runs:\n\(block)")
        }
    }

    /// A planted block that is not in this file is caught (the check above can fail).
    @Test func aBlockThatIsNotHereIsCaught() {
        let page = "text\n```swift\ntry session.delete(\"elsewhere\")\n```\n"
        let blocks = Self.swiftBlocks(page)
        #expect(blocks == ["try session.delete(\"elsewhere\")"])
        let source = Self.trimmedLines("let a = 1\ntry session.delete(\"here\")\n")
        #expect(!source.contains(Self.trimmedLines(blocks[0])[0]))
    }

    /// The bodies of the ```swift blocks of a Markdown text.
    static func swiftBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if let body = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(body.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current?.append(String(line))
            }
        }
        return blocks
    }

    /// The non-empty lines of `text` without leading or trailing spaces.
    static func trimmedLines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
