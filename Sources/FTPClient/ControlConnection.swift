// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The control connection (RFC 959 §2.3): command lines out, replies in, each logged.
final class ControlConnection {
    /// Longest reply line accepted, in bytes.
    static let maximumLineLength = 64 * 1024

    let transport: any Transport
    private let log: (@Sendable (String) -> Void)?
    /// Masks the session's secrets in the reply lines it logs.
    private let scrubber: SecretScrubber
    private var buffer: [UInt8] = []
    private var position = 0
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    init(transport: any Transport, log: (@Sendable (String) -> Void)?, scrubber: SecretScrubber) {
        self.transport = transport
        self.log = log
        self.scrubber = scrubber
    }

    /// Sends one command line (without CRLF; the bytes must hold no CR, LF or NUL) and CRLF.
    /// `shown` is the line for the log and errors (password masked).
    func sendLine(_ command: [UInt8], shown: String) throws(FTPError) {
        let line = command + [13, 10]
        log?("> " + shown)
        do {
            try line.withUnsafeBytes { try transport.write($0) }
        } catch let error as TransportError {
            throw Self.map(error, during: shown)
        } catch {
            throw .connectionClosed
        }
    }

    /// Sends several command lines in one write (pipelining: the server reads them one after
    /// the other, as if each had been sent once the reply before it arrived); each is logged
    /// with its `shown` text, as `sendLine` does.
    func sendLines(_ lines: [(command: [UInt8], shown: String)]) throws(FTPError) {
        var bytes: [UInt8] = []
        for line in lines {
            log?("> " + line.shown)
            bytes += line.command + [13, 10]
        }
        let shown = lines.map(\.shown).joined(separator: ", ")
        do {
            try bytes.withUnsafeBytes { try transport.write($0) }
        } catch let error as TransportError {
            throw Self.map(error, during: shown)
        } catch {
            throw .connectionClosed
        }
    }

    /// Reads one complete reply (all lines of a multi-line reply).
    /// - Throws: `.timedOut`, `.connectionClosed` (end of stream, also inside a reply),
    ///   `.protocolViolation` (malformed line, line over 64 KiB, too many lines).
    func readReply(during: String) throws(FTPError) -> FTPReply {
        var parser = ReplyParser()
        while true {
            let line = try readLine(during: during)
            if let log { log("< " + scrubber.scrub(String(decoding: line, as: UTF8.self))) }
            if let reply = try parser.feed(line) { return reply }
        }
    }

    /// Whether reply bytes wait to be read: complete or partial lines already buffered, or —
    /// on a plain socket — bytes the socket holds right now.
    var hasWaitingInput: Bool {
        position < buffer.count || (transport as? SocketTransport)?.hasPendingInput == true
    }

    /// Most replies `unsolicitedReplies(before:)` reads before it gives up on the connection.
    static let maximumUnsolicitedReplies = 8

    /// The replies that arrived before a command was sent: a server answers a command only
    /// after it read it, so these answer earlier commands (a duplicated 226 or 250). Complete
    /// lines already buffered are read, and — on a plain socket — whatever the socket holds
    /// right now (a TLS layer may hold handshake records only, which a read would wait on).
    /// Call it right before sending a command. A 421 (RFC 959 §4.2: the service is closing,
    /// sent to whatever command comes next) ends the reading.
    /// - Returns: the replies, oldest first; empty when nothing was waiting.
    /// - Throws: `.protocolViolation` beyond `maximumUnsolicitedReplies`, and what
    ///   `readReply(during:maximumLines:seconds:)` throws (a peer that hung up: `.connectionClosed`).
    func unsolicitedReplies(before shown: String) throws(FTPError) -> [FTPReply] {
        var replies: [FTPReply] = []
        while replies.last?.code != 421, hasWaitingInput {
            guard replies.count < Self.maximumUnsolicitedReplies else {
                throw .protocolViolation(
                    "more than \(Self.maximumUnsolicitedReplies) unrequested replies before \(shown)")
            }
            let during = "a reply nobody asked for, before \(shown)"
            replies.append(try readReply(during: during, maximumLines: ReplyParser.maximumLines, seconds: 1))
        }
        return replies
    }

    /// How the error of a reply over `readReply(during:maximumLines:seconds:)`'s line bound begins.
    static let tooManyLines = "a reply of more than"

    /// Reads one complete reply of at most `maximumLines` lines that ends within `seconds`;
    /// each line comes within the timeout, unless `patient`: then within `seconds` too (a
    /// command the server is known to take long over, such as hashing a large file).
    /// - Throws: `.timedOut` when the reply did not end in time, `.protocolViolation` (starting
    ///   with `tooManyLines`) beyond `maximumLines`, and what `readReply(during:)` throws.
    func readReply(during: String, maximumLines: Int, seconds: Double, patient: Bool = false) throws(FTPError)
        -> FTPReply
    {
        let saved = transport.timeout
        defer { transport.timeout = saved }
        let deadline = Date().addingTimeInterval(seconds)
        var parser = ReplyParser()
        var count = 0
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw .timedOut(during: during) }
            transport.timeout = patient ? left : min(saved, left)
            let line = try readLine(during: during)
            if let log { log("< " + scrubber.scrub(String(decoding: line, as: UTF8.self))) }
            if let reply = try parser.feed(line) { return reply }
            count += 1
            if count >= maximumLines { throw .protocolViolation("\(Self.tooManyLines) \(maximumLines) lines") }
        }
    }

    /// Reads reply lines (bytes without CR LF) and hands each to `consume` until it returns
    /// true, all within `seconds`: for a reply read as it arrives (`STAT` listings). Only the
    /// first and the last line are logged.
    /// - Throws: what `consume` throws, `.timedOut` (a line did not come within the timeout,
    ///   or the reply did not end within `seconds`), `.connectionClosed`, `.protocolViolation`
    ///   (a line over 64 KiB).
    func readLines(during: String, seconds: Double, _ consume: ([UInt8]) throws(FTPError) -> Bool) throws(FTPError) {
        let saved = transport.timeout
        defer { transport.timeout = saved }
        let deadline = Date().addingTimeInterval(seconds)
        let late = FTPError.timedOut(during: "\(during) (the reply did not end within \(Int(seconds)) s)")
        var first = true
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw late }
            transport.timeout = min(saved, left)
            let line: [UInt8]
            do {
                line = try readLine(during: during)
            } catch {
                // A line cut short by the deadline, not by the timeout of a line.
                if case .timedOut = error, deadline.timeIntervalSinceNow <= 0 { throw late }
                throw error
            }
            let done = try consume(line)
            if let log, first || done { log("< " + scrubber.scrub(String(decoding: line, as: UTF8.self))) }
            first = false
            if done { return }
        }
    }

    private func readLine(during: String) throws(FTPError) -> [UInt8] {
        var searchFrom = position
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: 10) {
                var end = newline
                if end > position, buffer[end - 1] == 13 { end -= 1 }
                let line = Array(buffer[position..<end])
                position = newline + 1
                if position == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    position = 0
                }
                return line
            }
            if buffer.count - position > Self.maximumLineLength {
                throw .protocolViolation("a reply line longer than \(Self.maximumLineLength) bytes")
            }
            if position > 0 {
                buffer.removeFirst(position)
                position = 0
            }
            searchFrom = buffer.count
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try transport.read(into: $0) }
            } catch let error as TransportError {
                throw Self.map(error, during: "reply to \(during)")
            } catch {
                throw .connectionClosed
            }
            if count == 0 { throw .connectionClosed }
            buffer += chunk[0..<count]
        }
    }

    static func map(_ error: TransportError, during: String) -> FTPError {
        switch error {
        case .timedOut: return .timedOut(during: during)
        case .closedByPeer, .failed: return .connectionClosed
        }
    }

    func close() { transport.close() }
}
