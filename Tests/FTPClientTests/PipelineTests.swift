// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPClient

/// Issue 20: pipelined transfers. After a session's first EPSV worked, EPSV and the transfer
/// command go out in one write; a server that loses the pipelined command or does not
/// understand it is found on the first one and gets the commands one at a time from then on.
/// `ScriptedServer`s on 127.0.24.1–9.
@Suite struct PipelineTests {
    static func session(_ server: ScriptedServer, log: OddReplyTests.LogLines) -> FTPSession {
        FTPSession(
            configuration: FTPSessionConfiguration(
                host: server.address, port: server.port, user: "tester", password: "pw", timeout: 2),
            log: { log.add($0) })
    }

    /// A session to `server`, connected, whose pipelined transfer commands were answered (two
    /// downloads of a.txt): its later commands go out pipelined at once.
    static func provenSession(_ server: ScriptedServer, log: OddReplyTests.LogLines) throws -> FTPSession {
        let session = session(server, log: log)
        try session.connect()
        _ = try OddReplyTests.download(session, "a.txt")
        _ = try OddReplyTests.download(session, "a.txt")  // pipelined, answered: proven
        return session
    }

    /// Answers STOR of `name` as a server does: 150, the data read to its end, 226; the bytes
    /// are kept as the file.
    static func receiveUpload(_ peer: ScriptedPeer, _ name: String) {
        let data = peer.acceptData()
        peer.send("150 Ready for the data\r\n")
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = recv(data, &buffer, buffer.count, 0), count > 0 {
            received += buffer[0..<count]
        }
        close(data)
        peer.files[name] = received
        peer.send("226 Stored\r\n")
    }

    /// The commands a session sent, in order, and the replies, as logged ("> X", "< 229 …").
    static func dialogue(_ log: OddReplyTests.LogLines, from: Int) -> [String] {
        Array(log.all.dropFirst(from)).filter { $0.hasPrefix(">") || $0.hasPrefix("<") }
    }

    @Test func theSecondTransferSendsEPSVAndRETRTogether() throws {
        let server = try ScriptedServer(address: "127.0.24.1")
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        #expect(try OddReplyTests.download(session, "a.txt") == Array("first file\n".utf8))
        let mark = log.all.count
        #expect(try OddReplyTests.download(session, "a.txt") == Array("first file\n".utf8))
        let lines = Self.dialogue(log, from: mark)
        // Both commands were sent before the 229 was read.
        #expect(
            lines.count >= 3 && lines[0] == "> EPSV" && lines[1] == "> RETR a.txt" && lines[2].hasPrefix("< 229"),
            "\(lines)")
        #expect(session.pipelineOffReason == nil)
    }

    /// A server that reads one command per packet loses the RETR sent behind EPSV: no reply
    /// comes. The probe gives up, the session is closed and pipelining is off for the server;
    /// the next session gets the file with the commands one at a time.
    @Test func aServerThatLosesThePipelinedCommandIsFoundAndAvoided() throws {
        let transfers = Counter()
        let server = try ScriptedServer(address: "127.0.24.2") { peer, verb, _ in
            guard verb == "EPSV" else { return false }
            peer.answer(verb, "")
            if transfers.next() > 1 { peer.dropPendingInput() }
            return true
        }
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        _ = try OddReplyTests.download(session, "a.txt")
        let error = #expect(throws: FTPError.self) { try OddReplyTests.download(session, "a.txt") }
        #expect("\(error.map { "\($0)" } ?? "")".contains("no reply to RETR a.txt sent right after EPSV"))
        #expect(!session.isConnected)
        #expect(session.pipelineOffReason?.contains("no reply to RETR a.txt") == true)
        // A fresh session with the server (the retry of a device run) sends them one at a time.
        let again = Self.session(server, log: log)
        try again.connect()
        #expect(try OddReplyTests.download(again, "a.txt") == Array("first file\n".utf8))
        #expect(try OddReplyTests.download(again, "a.txt") == Array("first file\n".utf8))
        #expect(again.pipelineOffReason != nil, "remembered for the server")
    }

    /// A server that takes EPSV and RETR pipelined but loses the commands sent ahead behind a
    /// download (SIZE answered, the EPSV and RETR behind it lost): the download itself stands,
    /// the session is closed and pipelining is off.
    @Test func aServerThatLosesFollowUpsIsFoundAndTheDownloadStands() throws {
        let server = try ScriptedServer(address: "127.0.24.8") { peer, verb, _ in
            guard verb == "SIZE" else { return false }
            peer.send("213 11\r\n")
            peer.dropPendingInput()
            return true
        }
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        _ = try OddReplyTests.download(session, "a.txt")
        session.announce(TransferFollowUp(sizeAfter: true, next: "a.txt", expectedBytes: 11))
        #expect(try OddReplyTests.download(session, "a.txt") == Array("first file\n".utf8))
        #expect(!session.isConnected)
        #expect(session.pipelineOffReason?.contains("sent ahead") == true, "\(log.all)")
    }

    /// A pipelined RETR that arrives garbled ("500 unknown command") is sent again on its own,
    /// in the same call, and pipelining is off from then on.
    @Test func aPipelinedCommandNotUnderstoodIsSentAgainOnItsOwn() throws {
        let retrs = Counter()
        let server = try ScriptedServer(address: "127.0.24.3") { peer, verb, argument in
            guard verb == "RETR", retrs.next() == 2 else { return false }
            peer.send("500 Unknown command\r\n")
            return true
        }
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        _ = try OddReplyTests.download(session, "a.txt")
        #expect(try OddReplyTests.download(session, "a.txt") == Array("first file\n".utf8))
        #expect(session.pipelineOffReason?.contains("was not understood") == true)
        #expect(session.isConnected)
    }

    /// The follow-ups of a download go out as soon as its data ended, before its 226 is read:
    /// SIZE of the same file (answered without a round trip later) and the next download's EPSV
    /// and RETR, whose data connection is then taken by the next `retrieve`.
    @Test func aDownloadsFollowUpsGoOutBeforeItsFinalReply() throws {
        let server = try ScriptedServer(address: "127.0.24.5") { peer, verb, _ in
            peer.files["b.txt"] = Array("second\n".utf8)
            return false
        }
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        _ = try OddReplyTests.download(session, "a.txt")  // EPSV seen to work
        let mark = log.all.count
        session.announce(TransferFollowUp(sizeAfter: true, next: "b.txt", expectedBytes: 11))
        #expect(try OddReplyTests.download(session, "a.txt") == Array("first file\n".utf8))
        #expect(try session.size("a.txt") == 11)
        #expect(try OddReplyTests.download(session, "b.txt") == Array("second\n".utf8))
        let lines = Self.dialogue(log, from: mark)
        let sent = lines.filter { $0.hasPrefix(">") }
        #expect(sent == ["> EPSV", "> RETR a.txt", "> SIZE a.txt", "> EPSV", "> RETR b.txt"], "\(lines)")
        // SIZE and the next RETR went out before the first download's 226 was read.
        let firstFinal = try #require(lines.firstIndex { $0.hasPrefix("< 226") })
        #expect(try #require(lines.firstIndex(of: "> RETR b.txt")) < firstFinal, "\(lines)")
        #expect(session.pipelineOffReason == nil)
    }

    /// A download sent ahead that is not asked for is ended before the next command: its data
    /// connection closed, its replies read; the dialogue stays in step.
    @Test func aDownloadSentAheadButNotAskedForIsEnded() throws {
        let server = try ScriptedServer(address: "127.0.24.6") { peer, verb, _ in
            peer.files["b.txt"] = Array("second\n".utf8)
            return false
        }
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        _ = try OddReplyTests.download(session, "a.txt")
        session.announce(TransferFollowUp(next: "b.txt"))
        _ = try OddReplyTests.download(session, "a.txt")
        #expect(try session.size("a.txt") == 11, "asked on its own: the one sent ahead is ended first")
        #expect(try OddReplyTests.download(session, "a.txt") == Array("first file\n".utf8))
        #expect(session.isConnected && session.pipelineOffReason == nil)
    }

    /// A short download (the server cut it) sends nothing ahead: it is resumed first.
    @Test func aShortDownloadSendsNothingAhead() throws {
        let server = try ScriptedServer(address: "127.0.24.7")
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        _ = try OddReplyTests.download(session, "a.txt")
        let mark = log.all.count
        session.announce(TransferFollowUp(next: "b.txt", expectedBytes: 500))
        _ = try OddReplyTests.download(session, "a.txt")
        #expect(!Self.dialogue(log, from: mark).contains("> RETR b.txt"))
    }

    /// Once pipelined commands were answered, RNFR and RNTO go out together, and SIZE of
    /// several files too; a refused RNFR is the error thrown (the RNTO after it refused too).
    @Test func renamesAndQuestionsArePipelinedOncePipeliningWorks() throws {
        let server = try ScriptedServer(address: "127.0.24.9") { peer, verb, argument in
            switch verb {
            case "RNFR": peer.send(argument == "missing" ? "550 No such file\r\n" : "350 Ready for RNTO\r\n")
            case "RNTO": peer.send("250 Renamed\r\n")
            default: return false
            }
            return true
        }
        let log = OddReplyTests.LogLines()
        let session = try Self.provenSession(server, log: log)
        var mark = log.all.count
        try session.rename(from: "a.txt", to: "b.txt")
        var lines = Self.dialogue(log, from: mark)
        #expect(lines.prefix(2) == ["> RNFR a.txt", "> RNTO b.txt"], "\(lines)")
        let refused = #expect(throws: FTPError.self) { try session.rename(from: "missing", to: "b.txt") }
        #expect("\(refused.map { "\($0)" } ?? "")".contains("RNFR missing"))
        mark = log.all.count
        let sizes = try session.sizes(["a.txt", "nothing.txt"])
        lines = Self.dialogue(log, from: mark)
        #expect(lines.prefix(2) == ["> SIZE a.txt", "> SIZE nothing.txt"], "\(lines)")
        #expect((try? sizes[0].get()) == 11)
        #expect((try? sizes[1].get()) == nil)
        #expect(session.isConnected)
    }

    /// An upload's follow-ups go out once the server read the upload, before its 226 is read:
    /// SIZE of the file and its time set (MDTM with two arguments here), both answered then;
    /// `size` and `setModificationTime` for the same file and time cost no round trip more.
    @Test func anUploadsSizeAndTimeGoOutBeforeItsFinalReply() throws {
        let server = try ScriptedServer(address: "127.0.24.8") { peer, verb, argument in
            switch verb {
            case "STOR": Self.receiveUpload(peer, argument)
            case "MDTM" where argument.hasPrefix("20231114221320 "): peer.send("213 Modify=20231114221320\r\n")
            default: return false
            }
            return true
        }
        let log = OddReplyTests.LogLines()
        let session = try Self.provenSession(server, log: log)
        let mark = log.all.count
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        session.announce(TransferFollowUp(sizeAfter: true, setTime: time, expectedBytes: 5))
        var bytes = Array("hello".utf8)
        let sent = try session.store("up.txt") { buffer in
            let count = min(buffer.count, bytes.count)
            buffer.copyBytes(from: bytes.prefix(count))
            bytes.removeFirst(count)
            return count
        }
        #expect(sent == 5)
        #expect(try session.size("up.txt") == 5)
        try session.setModificationTime("up.txt", time)
        let lines = Self.dialogue(log, from: mark)
        let commands = lines.filter { $0.hasPrefix(">") }
        #expect(commands == ["> EPSV", "> STOR up.txt", "> SIZE up.txt", "> MDTM 20231114221320 up.txt"], "\(lines)")
        let final = try #require(lines.firstIndex { $0.hasPrefix("< 226") })
        #expect(try #require(lines.firstIndex(of: "> MDTM 20231114221320 up.txt")) < final, "\(lines)")
        #expect(session.isConnected && session.pipelineOffReason == nil)
    }

    /// A time set sent ahead is not taken for another: asked for another time, the session
    /// sends the command.
    @Test func aTimeSentAheadAnswersOnlyTheSameQuestion() throws {
        let server = try ScriptedServer(address: "127.0.24.10") { peer, verb, argument in
            switch verb {
            case "STOR": Self.receiveUpload(peer, argument)
            case "MDTM": peer.send("213 Done\r\n")
            default: return false
            }
            return true
        }
        let log = OddReplyTests.LogLines()
        let session = try Self.provenSession(server, log: log)
        session.announce(TransferFollowUp(setTime: Date(timeIntervalSince1970: 1_700_000_000), expectedBytes: 1))
        var left = 1
        _ = try session.store("up.txt") { buffer in
            defer { left = 0 }
            guard left > 0 else { return 0 }
            buffer[0] = 65
            return 1
        }
        let mark = log.all.count
        try session.setModificationTime("up.txt", Date(timeIntervalSince1970: 1_600_000_000))
        #expect(Self.dialogue(log, from: mark).first == "> MDTM 20200913122640 up.txt")
        #expect(session.isConnected)
    }

    /// A server whose control connection keeps Nagle's algorithm on (the scripted one does:
    /// each reply its own write) holds its second reply to a pipelined batch until the first
    /// is acknowledged; without an ACK at once the batch waited out the delayed-ACK timer,
    /// about 40 ms each time (10 batches: 0.44 s measured). The session acknowledges what it
    /// reads at once (`TCP_QUICKACK`).
    @Test func pipelinedRepliesDoNotWaitForADelayedAcknowledgement() throws {
        let server = try ScriptedServer(address: "127.0.24.11")
        let log = OddReplyTests.LogLines()
        let session = try Self.provenSession(server, log: log)
        let started = Date()
        for _ in 0..<10 {
            let sizes = try session.sizes(["a.txt", "a.txt", "a.txt"])
            #expect(sizes.count == 3 && sizes.allSatisfy { (try? $0.get()) == 11 })
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < 0.3, "10 pipelined batches took \(seconds) s")
    }

    /// A later session of a server this process saw answer pipelined commands sends TYPE I
    /// behind FEAT in one write (a round trip less per added connection or segment); the
    /// first session sends them one at a time.
    @Test func laterSessionsOfAProvenServerSendFeatAndTypeTogether() throws {
        let server = try ScriptedServer(address: "127.0.24.12")
        let log = OddReplyTests.LogLines()
        let first = Self.session(server, log: log)
        try first.connect()
        var lines = Self.dialogue(log, from: 0)
        let featReply = try #require(lines.firstIndex { $0.hasPrefix("< 211") })
        #expect(try #require(lines.firstIndex(of: "> TYPE I")) > featReply, "\(lines)")
        _ = try OddReplyTests.download(first, "a.txt")
        _ = try OddReplyTests.download(first, "a.txt")  // pipelined, answered: proven
        first.quit()
        let mark = log.all.count
        let later = Self.session(server, log: log)
        try later.connect()
        lines = Self.dialogue(log, from: mark)
        let sent = try #require(lines.firstIndex(of: "> FEAT"))
        #expect(lines.count > sent + 1 && lines[sent + 1] == "> TYPE I", "\(lines)")
        #expect(try OddReplyTests.download(later, "a.txt") == Array("first file\n".utf8))
        #expect(later.isConnected && later.pipelineOffReason == nil)
    }

    /// Whether TYPE I goes behind FEAT is decided once per login: a server another session
    /// proves while this one waits for its FEAT reply gets TYPE I on its own, not a wait for
    /// a reply to a TYPE I never sent (a login hung until the timeout, and the session was
    /// dropped without QUIT, when the two were decided apart).
    @Test func aServerProvenDuringALoginDoesNotLoseItsTypeCommand() throws {
        let key = ServerKey()
        let server = try ScriptedServer(address: "127.0.24.13") { peer, verb, _ in
            guard verb == "FEAT" else { return false }
            // Another session proves the server now, between this login's FEAT and its reply.
            PipelineProvenServers.shared.insert(key.value)
            peer.send("211-Features:\r\n MDTM\r\n SIZE\r\n211 End\r\n")
            return true
        }
        key.value = "\(server.address):\(server.port)"
        let log = OddReplyTests.LogLines()
        let session = Self.session(server, log: log)
        try session.connect()
        #expect(Self.dialogue(log, from: 0).filter { $0.hasPrefix(">") }.suffix(2) == ["> FEAT", "> TYPE I"])
        #expect(try OddReplyTests.download(session, "a.txt") == Array("first file\n".utf8))
    }

    /// With `pipelining` off the commands go one at a time.
    @Test func pipeliningCanBeTurnedOff() throws {
        let server = try ScriptedServer(address: "127.0.24.4")
        let log = OddReplyTests.LogLines()
        var configuration = FTPSessionConfiguration(
            host: server.address, port: server.port, user: "tester", password: "pw", timeout: 2)
        configuration.pipelining = false
        let session = FTPSession(configuration: configuration, log: { log.add($0) })
        try session.connect()
        _ = try OddReplyTests.download(session, "a.txt")
        let mark = log.all.count
        _ = try OddReplyTests.download(session, "a.txt")
        let lines = Self.dialogue(log, from: mark)
        #expect(lines.count >= 2 && lines[0] == "> EPSV" && lines[1].hasPrefix("< 229"), "\(lines)")
    }
}

/// A thread-safe count, for a script that acts on the n-th command.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The count after adding one (1 the first time).
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

/// A server's key (`host:port`) set once it is known, read by its script.
final class ServerKey: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = ""

    /// The key.
    var value: String {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
