import FTPClient
import Foundation
import Testing

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
        let session = Self.session(server, log: log)
        try session.connect()
        _ = try OddReplyTests.download(session, "a.txt")
        _ = try OddReplyTests.download(session, "a.txt")  // pipelined, answered: proven
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
