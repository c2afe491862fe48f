// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import Glibc
import Testing

/// Issue 16: the odd replies real servers send, each from a `ScriptedServer` on 127.0.23.1–19.
/// Where a case already worked before issue 16, its test documents the behaviour (said below).
@Suite struct OddReplyTests {
    static let context = ListingContext(now: Date(timeIntervalSince1970: 1_718_452_800))

    static func session(_ server: ScriptedServer, log: (@Sendable (String) -> Void)? = nil) -> FTPSession {
        FTPSession(
            configuration: FTPSessionConfiguration(
                host: server.address, port: server.port, user: "tester", password: "pw", timeout: 3),
            log: log)
    }

    /// Downloads `path` whole.
    static func download(_ session: FTPSession, _ path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        _ = try session.retrieve(path) { bytes += $0 }
        return bytes
    }

    /// The lines a session logged, shared with its log closure.
    final class LogLines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    /// A 227 whose numbers are out of 0...255 (above, or negative: a server printing signed
    /// bytes) is rejected with an error naming the field and the number; no data connection
    /// is tried. Before: a negative number read as "no host/port numbers".
    @Test(arguments: [
        ("127,0,23,1,-61,80", "port number -61 is not 0...255"),
        ("127,0,23,1,300,80", "port number 300 is not 0...255"),
        ("127,0,-23,1,4,1", "address number -23 is not 0...255"),
        ("127,0,23,256,4,1", "address number 256 is not 0...255"),
    ])
    func a227WithNumbersOutOfRangeIsRejectedClearly(numbers: String, message: String) throws {
        let server = try ScriptedServer(address: "127.0.23.1") { peer, verb, _ in
            switch verb {
            case "EPSV": peer.send("500 EPSV not understood\r\n")
            case "PASV": peer.send("227 Entering Passive Mode (\(numbers))\r\n")
            default: return false
            }
            return true
        }
        let session = Self.session(server)
        try session.connect()
        let error = #expect(throws: FTPError.self) { try session.list("", context: Self.context) }
        #expect(error.map { "\($0)" }?.contains(message) == true, "\(String(describing: error))")
        #expect(error.map { "\($0)" }?.contains("`passive: false`") == true)
    }

    /// A 227 with bad numbers in answer to EPSV makes the session fall back to PASV, whose
    /// good 227 works (this worked before issue 16 too).
    @Test func a227WithBadNumbersToEPSVFallsBackToPASV() throws {
        let server = try ScriptedServer(address: "127.0.23.2") { peer, verb, _ in
            guard verb == "EPSV" else { return false }
            peer.send("227 Entering Passive Mode (127,0,23,2,-4,-1)\r\n")
            return true
        }
        let session = Self.session(server)
        try session.connect()
        let listing = try session.list("", context: Self.context)
        #expect(listing.entries.map(\.name) == ["a.txt"])
        #expect(!session.usesEPSV)
    }

    /// A 229 that fills in the net-prt and net-addr fields RFC 2428 §3 wants empty: the port
    /// is used, the address ignored (the data connection goes to the control peer), EPSV
    /// stays in use. Before: the reply was "malformed" and the session needed PASV (here
    /// refused, so the listing failed).
    @Test(arguments: ["|1|127.0.23.3|", "|1|10.9.8.7|", "|2|::1|", "!1!203.0.113.5!"])
    func a229WithAddressFieldsUsesItsPortOnTheControlPeer(fields: String) throws {
        let server = try ScriptedServer(address: "127.0.23.3") { peer, verb, _ in
            switch verb {
            case "EPSV":
                let delimiter = fields.first ?? "|"
                peer.send("229 Entering Extended Passive Mode (\(fields)\(peer.openPassive())\(delimiter))\r\n")
            case "PASV": peer.send("502 PASV not implemented\r\n")
            default: return false
            }
            return true
        }
        let session = Self.session(server)
        try session.connect()
        let listing = try session.list("", context: Self.context)
        #expect(listing.entries.map(\.name) == ["a.txt"])
        #expect(session.usesEPSV)
        #expect(session.lastPassiveEndpoint.map { $0.dataHost(peer: "127.0.23.3", policy: .server) } == "127.0.23.3")
    }

    /// A reply split between two writes inside a multi-byte UTF-8 character decodes right:
    /// lines are decoded whole (this worked before issue 16; the test documents it).
    @Test func aReplySplitInsideAUTF8CharacterDecodesRight() throws {
        let text = Array("257 \"/Fotos/café-ñ-日本\" is the current folder\r\n".utf8)
        // Cut inside "é" (2 bytes) and inside "日" (3 bytes).
        let cuts = [text.firstIndex(of: 0xC3)! + 1, text.firstIndex(of: 0xE6)! + 2]
        let server = try ScriptedServer(address: "127.0.23.4", greeting: "220 Bienvenue \u{E0} bord\r\n") {
            peer, verb, _ in
            guard verb == "PWD" else { return false }
            peer.send(bytes: Array(text[..<cuts[0]]))
            usleep(30_000)
            peer.send(bytes: Array(text[cuts[0]..<cuts[1]]))
            usleep(30_000)
            peer.send(bytes: Array(text[cuts[1]...]))
            return true
        }
        let session = Self.session(server)
        try session.connect()
        #expect(session.banner?.text == "Bienvenue à bord")
        #expect(try session.raw("PWD").text == "\"/Fotos/café-ñ-日本\" is the current folder")
    }

    /// Replies ending in LF alone (no CR), multi-line ones too, work throughout: login, FEAT,
    /// a listing (this worked before issue 16; the test documents it).
    @Test func repliesEndingInLFAloneWork() throws {
        let server = try ScriptedServer(address: "127.0.23.5", greeting: "220-Hello\n220 ready\n") { peer, verb, _ in
            switch verb {
            case "USER": peer.send("331 Password required\n")
            case "PASS": peer.send("230-Welcome\n  two lines\n230 Logged in\n")
            case "FEAT": peer.send("211-Features:\n SIZE\n MDTM\n211 End\n")
            case "TYPE": peer.send("200 OK\n")
            case "EPSV": peer.send("229 Extended Passive Mode (|||\(peer.openPassive())|)\n")
            case "LIST":
                let data = peer.acceptData()
                peer.send("150 Here it comes\n")
                peer.sendData(data, Array("-rw-r--r-- 1 ftp ftp 11 May 01 10:20 a.txt\n".utf8))
                close(data)
                peer.send("226 Done\n")
            case "SIZE": peer.send("213 11\n")
            default: return false
            }
            return true
        }
        let session = Self.session(server)
        try session.connect()
        #expect(session.features.size)
        #expect(try session.list("", context: Self.context).entries.map(\.name) == ["a.txt"])
        #expect(try session.size("a.txt") == 11)
    }

    /// A reply sent twice (250 to DELE, 226 after RETR, in one write): the copy arrived before
    /// the next command was sent, so it is dropped, and each later command gets its own reply.
    /// Before: MKD read the stale 250 as its own and "succeeded" although the server refused.
    @Test func aReplyArrivingTwiceDoesNotAnswerTheNextCommand() throws {
        let server = try ScriptedServer(address: "127.0.23.6") { peer, verb, argument in
            switch verb {
            case "DELE": peer.send("250 Deleted\r\n250 Deleted\r\n")
            case "MKD": peer.send("550 \(argument): folder exists\r\n")
            case "RETR":
                let data = peer.acceptData()
                peer.send("150 Opening\r\n")
                peer.sendData(data, Array("first file\n".utf8))
                close(data)
                peer.send("226 Transfer complete\r\n226 Transfer complete\r\n")
            default: return false
            }
            return true
        }
        let lines = LogLines()
        let session = Self.session(server) { lines.add($0) }
        try session.connect()
        try session.delete("old.txt")
        #expect(throws: FTPError.reply(code: 550, text: "new: folder exists", command: "MKD new")) {
            try session.makeDirectory("new")
        }
        #expect(try Self.download(session, "a.txt") == Array("first file\n".utf8))
        #expect(try session.size("a.txt") == 11)
        #expect(try session.raw("NOOP").code == 200)
        #expect(session.isConnected)
        #expect(
            lines.all.contains {
                $0.hasPrefix("skipping reply 250: it answers an earlier command (it came before MKD new was sent)")
            }, "\(lines.all)")
    }

    /// A 421 that arrived before a command (the server closing an idle connection) is that
    /// command's answer: a transient error, not a success (this worked before issue 16, when
    /// the 421 was read as the reply to the command sent after it; the test documents it).
    @Test func a421BeforeACommandIsItsAnswer() throws {
        let server = try ScriptedServer(address: "127.0.23.7") { peer, verb, _ in
            guard verb == "DELE" else { return false }
            peer.send("250 Deleted\r\n421 Idle timeout, closing control connection\r\n")
            return true
        }
        let session = Self.session(server)
        try session.connect()
        try session.delete("old.txt")
        let error = #expect(throws: FTPError.self) { try session.makeDirectory("new") }
        #expect(error?.isTransient == true)
        #expect(error.map { "\($0)" }?.hasPrefix("421 Idle timeout") == true, "\(String(describing: error))")
    }

    /// 226 on the control connection while the data connection is still delivering: the
    /// data is read to its end first, the download and the listing are complete (this
    /// worked before issue 16; the test documents it).
    @Test func a226BeforeTheDataEndsStillGetsAllTheData() throws {
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let rows = (0..<2000).map { "-rw-r--r-- 1 ftp ftp \($0) May 01 10:20 f\($0).txt\r\n" }.joined()
        let server = try ScriptedServer(address: "127.0.23.8") { peer, verb, _ in
            guard verb == "RETR" || verb == "LIST" else { return false }
            let payload = verb == "RETR" ? big : Array(rows.utf8)
            let data = peer.acceptData()
            peer.send("150 Opening\r\n")
            peer.sendData(data, Array(payload[..<1000]))
            peer.send("226 Transfer complete\r\n")
            usleep(200_000)
            peer.sendData(data, Array(payload[1000...]))
            close(data)
            return true
        }
        let session = Self.session(server)
        try session.connect()
        #expect(try Self.download(session, "big.bin") == big)
        #expect(try session.list("", context: Self.context).entries.count == 2000)
    }

    /// A server that sends 150 only once the data connection is accepted (and waits for it):
    /// passive connections are made before the command, so nothing waits on the other (this
    /// worked before issue 16; the test documents it).
    @Test func a150SentOnlyAfterTheDataConnectionIsAccepted() throws {
        let server = try ScriptedServer(address: "127.0.23.9") { peer, verb, _ in
            guard verb == "RETR" else { return false }
            let data = peer.acceptData()
            guard data >= 0 else { return false }
            usleep(100_000)
            peer.send("150 Opening now that you are here\r\n")
            peer.sendData(data, Array("first file\n".utf8))
            close(data)
            peer.send("226 Transfer complete\r\n")
            return true
        }
        let session = Self.session(server)
        try session.connect()
        #expect(try Self.download(session, "a.txt") == Array("first file\n".utf8))
    }

    /// "Too many connections" before login (a 421 greeting) and at login (530 to USER or PASS):
    /// one line saying it is the server's connection limit and to lower `connections`; a
    /// transient error, not a wrong password. Before: the 421 said "retry later" only.
    @Test(arguments: [
        ("421 Too many connections (4) from this IP\r\n", "", "(after connect)"),
        ("220 ready\r\n", "USER", "(after USER tester)"),
        ("220 ready\r\n", "PASS", "(after PASS ****)"),
    ])
    func tooManyConnectionsSaysItIsTheConnectionLimit(greeting: String, refused: String, after: String) throws {
        let server = try ScriptedServer(address: "127.0.23.10", greeting: greeting) { peer, verb, _ in
            guard verb == refused else { return false }
            peer.send("530 Sorry, too many users are connected, try again later\r\n")
            return true
        }
        let session = Self.session(server)
        let error = #expect(throws: FTPError.self) { try session.connect() }
        let line = error.map { "\($0)" } ?? ""
        #expect(error?.isConnectionLimit == true, "\(line)")
        #expect(line.contains(after), "\(line)")
        #expect(line.contains("connection limit is reached; lower `connections` for this device"), "\(line)")
        #expect(!line.contains("check user and password"), "\(line)")
        #expect(!line.contains("\n"))
    }
}
