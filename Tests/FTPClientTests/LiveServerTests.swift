// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import Glibc
import Testing

/// FTPSession against real pyftpdlib servers on loopback (Support/ftp_server.py).
@Suite struct LiveServerTests {
    @Test func loginFeaturesAndListing() throws {
        let server = try TestServer()
        try server.put("hello.txt", Array("hello\n".utf8))
        try server.put("sub/inner.txt", [1, 2, 3])
        try server.put("name with space;semi.txt", [])
        let log = LogLines()
        let session = FTPSession(configuration: server.configuration(), log: log.sink)
        try session.connect()
        defer { session.quit() }
        #expect(session.banner?.code == 220)
        #expect(session.banner?.text.contains("pyftpdlib test server") == true)
        #expect(session.peerHost == "127.0.0.1")
        let features = session.features
        #expect(features.mlsd && features.epsv && features.mfmt && features.size && features.mdtm)
        #expect(features.restStream && features.utf8)
        #expect(features.mlstFacts.contains("modify"))
        #expect(try session.system().contains("UNIX"))
        let listing = try session.listRaw("/")
        #expect(listing.format == .mlsd)
        let lines = Cases.lines(listing.bytes).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.count == 3)
        #expect(lines.contains { $0.hasSuffix("; hello.txt") && $0.lowercased().contains("size=6;") })
        #expect(lines.contains { $0.hasSuffix("; name with space;semi.txt") })
        #expect(lines.contains { $0.hasSuffix("; sub") && $0.lowercased().contains("type=dir;") })
        // list() hands the same bytes to the FTPListing parser (a stub in this worktree).
        _ = try session.list("/sub", context: ListingContext(now: Date()))
        // The log shows commands and replies, never the password.
        let text = log.lines
        #expect(text.contains("> USER tester"))
        #expect(text.contains("> PASS ****"))
        #expect(!text.joined().contains(TestServer.password))
        #expect(text.contains("> OPTS UTF8 ON"))  // pyftpdlib answers 501: login goes on (EN-04)
        #expect(text.contains("> TYPE I"))
        #expect(text.contains { $0.hasPrefix("< 229 ") })
    }

    @Test func retrieveWholeAndFromOffset() throws {
        let server = try TestServer()
        let data = testBytes(3_000_000)
        try server.put("big.bin", data)
        try server.put("empty.bin", [])
        let log = LogLines()
        let session = FTPSession(configuration: server.configuration(), log: log.sink)
        try session.connect()
        defer { session.quit() }
        #expect(try session.download("big.bin") == data)
        #expect(try session.download("big.bin", from: 1_048_576) == Array(data[1_048_576...]))
        #expect(try session.download("empty.bin") == [])
        // RS-02: REST comes right before RETR, after EPSV.
        let commands = log.lines.filter { $0.hasPrefix("> ") }
        let rest = try #require(commands.firstIndex(of: "> REST 1048576"))
        #expect(commands[rest - 1] == "> EPSV")
        #expect(commands[rest + 1] == "> RETR big.bin")
        #expect(throws: FTPError.self) { try session.download("missing.bin") }
        // A refused command leaves the session usable.
        #expect(try session.size("big.bin") == 3_000_000)
    }

    @Test func storeAppendRestartRenameDeleteFolders() throws {
        let server = try TestServer()
        let session = FTPSession(configuration: server.configuration())
        try session.connect()
        defer { session.quit() }
        let part1 = testBytes(400_000, seed: 1)
        let part2 = testBytes(300_000, seed: 2)
        #expect(try session.upload("up.bin", part1) == 400_000)
        #expect(server.contents("up.bin") == part1)
        #expect(try session.upload("up.bin", part2, append: true) == 300_000)
        #expect(server.contents("up.bin") == part1 + part2)
        // REST + STOR (RS-06): an interrupted upload continues at the server's size.
        let whole = testBytes(500_000, seed: 3)
        try session.upload("resumed.bin", Array(whole.prefix(123_456)))
        let have = try session.size("resumed.bin")
        #expect(have == 123_456)
        #expect(try session.upload("resumed.bin", Array(whole[Int(have)...]), offset: have) == 376_544)
        #expect(server.contents("resumed.bin") == whole)

        try session.makeDirectory("new folder")
        #expect(server.exists("new folder"))
        try session.rename(from: "up.bin", to: "new folder/moved.bin")
        #expect(!server.exists("up.bin") && server.exists("new folder/moved.bin"))
        let stamp = Date(timeIntervalSince1970: 1_700_000_000)
        try session.setModificationTime("new folder/moved.bin", stamp)
        #expect(try session.modificationTime("new folder/moved.bin") == stamp)
        try session.delete("new folder/moved.bin")
        #expect(!server.exists("new folder/moved.bin"))
        try session.removeDirectory("new folder")
        #expect(!server.exists("new folder"))
        #expect(throws: FTPError.self) { try session.delete("new folder/moved.bin") }
        #expect(try session.raw("NOOP").code == 200)
    }

    /// EP-06 and MS-04: an old server without EPSV and MLSD; PASV and LIST are used and
    /// remembered, LIST without a path is sent without a trailing space.
    @Test func oldServerFallsBackToPASVAndLIST() throws {
        let server = try TestServer(options: ["--no-epsv-mlsd"])
        try server.put("a.txt", Array("abc".utf8))
        let log = LogLines()
        let session = FTPSession(configuration: server.configuration(), log: log.sink)
        try session.connect()
        defer { session.quit() }
        #expect(!session.features.mlsd && !session.features.epsv)
        let listing = try session.listRaw("")
        #expect(listing.format == .list)
        #expect(String(decoding: listing.bytes, as: UTF8.self).contains(" a.txt\r\n"))
        #expect(!session.usesEPSV)
        #expect(try session.download("a.txt") == Array("abc".utf8))
        let commands = log.lines.filter { $0.hasPrefix("> ") }
        #expect(commands.filter { $0 == "> EPSV" }.count == 1)
        #expect(commands.filter { $0 == "> PASV" }.count == 2)
        #expect(commands.contains("> LIST"))
        #expect(!commands.contains("> MLSD"))
    }

    /// MLSD offered but refused: LIST is used for the rest of the session.
    @Test func refusedMLSDFallsBackToLIST() throws {
        let server = try TestServer(options: ["--refuse-mlsd"])
        try server.put("a.txt", Array("abc".utf8))
        let session = FTPSession(configuration: server.configuration())
        try session.connect()
        defer { session.quit() }
        #expect(session.usesMLSD)
        #expect(try session.listRaw("/").format == .list)
        #expect(!session.usesMLSD)
        #expect(try session.listRaw("/").format == .list)
    }

    /// PV-02/PV-08: a 227 naming another loopback address where nothing listens is ignored
    /// by default (`.peer`) and fails the data connection with `.server`.
    @Test func masqueradedPASVAddress() throws {
        let server = try TestServer(options: ["--no-epsv-mlsd", "--masquerade", "127.0.0.99"])
        try server.put("a.txt", Array("abc".utf8))
        let peer = FTPSession(configuration: server.configuration(passiveAddress: .peer))
        try peer.connect()
        defer { peer.quit() }
        #expect(try peer.download("a.txt") == Array("abc".utf8))
        guard case .address(let host, _)? = peer.lastPassiveEndpoint else {
            Issue.record("no 227 endpoint recorded")
            return
        }
        #expect(host == "127.0.0.99")

        let trusting = FTPSession(configuration: server.configuration(passiveAddress: .server, timeout: 3))
        try trusting.connect()
        defer { trusting.quit() }
        #expect {
            try trusting.download("a.txt")
        } throws: { error in
            guard case .connectFailed(let host, _, _)? = error as? FTPError else { return false }
            return host == "127.0.0.99"
        }
        // The control connection is still in step after a failed data connection.
        #expect(try trusting.raw("NOOP").code == 200)
    }

    @Test func wrongPasswordIsA530WithMaskedCommand() throws {
        let server = try TestServer()
        let session = FTPSession(configuration: server.configuration(password: "wrong"))
        #expect(throws: FTPError.reply(code: 530, text: "Authentication failed.", command: "PASS ****")) {
            try session.connect()
        }
        #expect(!session.isConnected)
    }

    @Test func closedPortFailsToConnect() throws {
        let port = try unusedPort()
        let session = FTPSession(configuration: FTPSessionConfiguration(host: "127.0.0.1", port: port, timeout: 10))
        #expect {
            try session.connect()
        } throws: { error in
            guard case .connectFailed(_, let failedPort, let reason)? = error as? FTPError else { return false }
            return failedPort == port && reason.lowercased().contains("refused")
        }
    }

    @Test func silentServerTimesOut() throws {
        let server = try TestServer(options: ["--silent"])
        let session = FTPSession(configuration: server.configuration(timeout: 1))
        #expect(throws: FTPError.timedOut(during: "reply to greeting")) { try session.connect() }
        #expect(!session.isConnected)
    }

    /// A data connection cut after N bytes is a typed error with the count; resuming with
    /// REST from the bytes received completes the file.
    @Test func droppedDataConnectionResumes() throws {
        let server = try TestServer(options: ["--drop-after", "200000"])
        let data = testBytes(700_000, seed: 7)
        try server.put("cut.bin", data)
        let session = FTPSession(configuration: server.configuration())
        try session.connect()
        defer { session.quit() }
        var received: [UInt8] = []
        var drops = 0
        while received.count < data.count, drops < 10 {
            do {
                _ = try session.retrieve("cut.bin", from: UInt64(received.count)) { received += $0 }
            } catch FTPError.dataConnectionClosed(let count, _) {
                drops += 1
                #expect(count == 200_000)
            }
        }
        #expect(drops == 3)
        #expect(received == data)
    }

    /// A slow transfer that keeps moving does not hit the no-progress timeout.
    @Test func throttledTransferOutlastsTimeout() throws {
        // pyftpdlib pauses up to 2 s per burst; the whole transfer takes longer than the timeout.
        let server = try TestServer(options: ["--throttle", "100000"])
        let data = testBytes(300_000, seed: 9)
        try server.put("slow.bin", data)
        let session = FTPSession(configuration: server.configuration(timeout: 3))
        try session.connect()
        defer { session.quit() }
        #expect(try session.download("slow.bin") == data)
    }

    @Test func ipv6Loopback() throws {
        let server = try TestServer(host: "::1")
        try server.put("six.txt", Array("v6".utf8))
        let session = FTPSession(configuration: server.configuration())
        try session.connect()
        defer { session.quit() }
        #expect(session.peerHost == "::1")
        #expect(try session.download("six.txt") == Array("v6".utf8))
    }

    @Test func hostNameIsResolved() throws {
        let server = try TestServer()
        var configuration = server.configuration()
        configuration.host = "localhost"
        let session = FTPSession(configuration: configuration)
        try session.connect()
        session.quit()
        #expect(!session.isConnected)
    }

    /// A Latin-1 server: names go out as Latin-1 bytes and listing bytes decode with the codec.
    @Test func latin1FileNames() throws {
        let server = try TestServer()
        let raw: [UInt8] = Array("br".utf8) + [0xF6] + Array("d.txt".utf8)
        try server.put(rawName: raw, Array("bread".utf8))
        let session = FTPSession(configuration: server.configuration(encoding: "latin1"))
        try session.connect()
        defer { session.quit() }
        #expect(try session.download("bröd.txt") == Array("bread".utf8))
        let listing = try session.listRaw("/")
        let line = try #require(Cases.lines(listing.bytes).first)
        let name = Array(line.suffix(raw.count))
        #expect(name == raw)
        #expect(session.nameCodec.decode(name) == "bröd.txt")
    }
}

/// A loopback TCP port nobody listens on (bound, then released).
private func unusedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else { throw TestServer.SetupError(description: "bind failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}
