// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing

extension FTPSessionCore {
    /// Largest listing accepted, in bytes; more is a protocol violation.
    static let maximumListingBytes = 256 * 1024 * 1024

    /// Lists a folder and returns the data bytes: MLSD when offered; LIST when MLSD is not
    /// offered or is refused (500/501/502, or 550 saying the command is not understood),
    /// and LIST for the rest of the session after such a refusal. An empty `path` lists the
    /// current folder (the command is sent without an argument).
    ///
    /// When the listing's data connection cannot be used (`dataConnectionFailure`: a firewall
    /// blocking the data port) twice in a row — once only when `controlListingHint` says the
    /// server is thought to block them —, the folder is listed with `STAT` over the control connection
    /// (`statListing`, RFC 959 §4.1.3), and so is every later listing of this session and of
    /// later sessions with the server in this process (`controlListingReason` says why).
    /// - Throws: `.reply` (e.g. 550 no such folder), `.dataConnectionClosed`, `.timedOut`,
    ///   `.connectFailed` (data connection, when STAT gives no listing either),
    ///   `.protocolViolation` (over 256 MiB).
    ///
    /// `reserve` (when given) is told the size of each chunk before it is kept, and may throw
    /// to abandon the listing (a budget shared by several listings; the error becomes
    /// `.protocolViolation`).
    func listRaw(_ path: String, reserve: ((Int) throws -> Void)? = nil) throws(FTPError) -> RawListing {
        try guarded { () throws(FTPError) in
            if controlListingReason == nil {
                controlListingReason = ControlConnectionListings.shared.note(for: featureServerKey)
            }
            if controlListingReason != nil { return try statListing(path, reserve: reserve) }
            let hinted = controlListingHint != nil
            do throws(FTPError) {
                let listing = try dataListing(path, reserve: reserve, triesLeft: hinted ? 0 : 1)
                controlListingHint = nil
                return listing
            } catch {
                guard let failure = Self.dataConnectionFailure(error) else { throw error }
                controlListingHint = nil
                return try listOverControl(path, after: error, because: failure, reserve: reserve)
            }
        }
    }

    /// `listRaw` over a data connection, tried again over a fresh data connection up to
    /// `triesLeft` times when its data connection could not be used (`dataConnectionFailure`:
    /// one refused or dropped connection may be a passing fault, not a firewall).
    private func dataListing(_ path: String, reserve: ((Int) throws -> Void)?, triesLeft: Int) throws(FTPError)
        -> RawListing
    {
        do throws(FTPError) {
            return try dataListing(path, reserve: reserve)
        } catch {
            guard triesLeft > 0, let failure = Self.dataConnectionFailure(error) else { throw error }
            log?("the listing's data connection failed (\(failure)); trying a fresh one")
            return try dataListing(path, reserve: reserve, triesLeft: triesLeft - 1)
        }
    }

    /// `listRaw` over a data connection: MLSD, else LIST.
    private func dataListing(_ path: String, reserve: ((Int) throws -> Void)?) throws(FTPError) -> RawListing {
        if usesMLSD {
            do throws(FTPError) {
                let bytes = try collect("MLSD", path, reserve: reserve)
                return RawListing(format: .mlsd, bytes: bytes, truncation: truncationText())
            } catch .reply(let code, let text, _) where Self.isNotUnderstood(code, text) {
                log?("MLSD refused (\(code)); using LIST for this session")
                usesMLSD = false
            }
        }
        let bytes = try listBytes(path, reserve: reserve)
        return RawListing(format: .list, bytes: bytes, truncation: truncationText())
    }

    /// The bytes of a LIST of `path`: `LIST -a` (dot files too) when `listsHidden`, until the
    /// server shows it does not understand `-a` (`HiddenListing`): plain `LIST` then, for the
    /// rest of the session and of later sessions with the server (`plainListReason` says why).
    private func listBytes(_ path: String, reserve: ((Int) throws -> Void)?) throws(FTPError) -> [UInt8] {
        guard configuration.listsHidden else { return try collect("LIST", path, reserve: reserve) }
        if plainListReason == nil { plainListReason = PlainListServers.shared.note(for: featureServerKey) }
        guard plainListReason == nil else { return try collect("LIST", path, reserve: reserve) }
        let optionReply: Int?
        let replyText: String
        do throws(FTPError) {
            let bytes = try collect("LIST", HiddenListing.argument(for: path), reserve: reserve)
            if hiddenListingConfirmed || !HiddenListing.isEmpty(bytes) {
                hiddenListingConfirmed = true
                return bytes
            }
            (optionReply, replyText) = (nil, "an empty listing")
        } catch .reply(let code, let text, _) where HiddenListing.retriesPlain(afterReply: code) {
            (optionReply, replyText) = (code, "\(code) \(text)")
        }
        // A failure of plain LIST (a missing folder) is the listing's error; nothing is learnt.
        let plain = try collect("LIST", path, reserve: reserve)
        if HiddenListing.settlesPlain(optionReply: optionReply, plainIsEmpty: HiddenListing.isEmpty(plain)) {
            let reason = "the server does not understand LIST -a (it answered \(replyText))"
            log?("\(reason); using LIST")
            plainListReason = reason
            PlainListServers.shared.insert(featureServerKey, note: reason)
        }
        return plain
    }

    /// `the server answered '…'` with the last completion reply when it says the output is
    /// incomplete: truncated (Pure-FTPd `-L`), or "Transfer done (but failed to open
    /// directory)" (vsftpd).
    private func truncationText() -> String? {
        guard let reply = lastCompletion else { return nil }
        let text = reply.textLines.joined(separator: " ")
        let lower = text.lowercased()
        return lower.contains("truncated") || lower.contains("failed")
            ? "the server answered '\(reply.code) \(text)'" : nil
    }

    private static func isNotUnderstood(_ code: Int, _ text: String) -> Bool {
        if [500, 501, 502].contains(code) { return true }
        guard code == 550 else { return false }
        let lower = text.lowercased()
        return ["not understood", "not implemented", "unknown command", "not supported"].contains {
            lower.contains($0)
        }
    }

    private func collect(_ verb: String, _ path: String, reserve: ((Int) throws -> Void)?) throws(FTPError)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        do {
            _ = try receive(verb, path.isEmpty ? nil : path, offset: 0) { chunk in
                if bytes.count + chunk.count > Self.maximumListingBytes {
                    throw FTPError.protocolViolation("listing larger than \(Self.maximumListingBytes) bytes")
                }
                try reserve?(chunk.count)
                bytes += chunk
            }
        } catch let error as FTPError {
            throw error
        } catch {
            throw .protocolViolation("listing: \(error)")
        }
        return bytes
    }

    /// Downloads a file: `REST offset` (RFC 3659 §5) when `offset` > 0, then RETR; the data
    /// arrives in `sink` in chunks of up to 256 KiB, in order.
    /// - Returns: the number of bytes received (the file's size minus `offset` when complete).
    /// - Throws: `FTPError.reply` (550 no such file; a refused REST, e.g. 502, means the server
    ///   cannot resume: download from 0), `FTPError.dataConnectionClosed(bytesTransferred:reason:)`
    ///   when the data connection ended early or the final reply was 4xx (426, 451): resume from
    ///   `offset + bytesTransferred`; `.timedOut`; `.connectFailed`; or what `sink` throws (the
    ///   transfer is then abandoned and the session stays usable).
    func retrieve(
        _ path: String, from offset: UInt64 = 0, to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> UInt64 {
        try guarded { try receive("RETR", path, offset: offset, consume: sink) }
    }

    /// Opens a data connection, sends REST (when `offset` > 0) and `verb`, passes the data to
    /// `consume` and reads the final reply.
    func receive(
        _ verb: String, _ path: String?, offset: UInt64, consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> UInt64 {
        try transfer(verb, path, offset: offset, uploading: false) { data, received in
            if dataBuffer.isEmpty { dataBuffer = [UInt8](repeating: 0, count: Self.dataBufferSize) }
            while true {
                let step = configuration.bandwidthLimits.step(dataBuffer.count)
                let count = try dataBuffer.withUnsafeMutableBytes {
                    try data.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<step]))
                }
                if count == 0 { break }
                try dataBuffer.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                received += UInt64(count)
                try paceData(count)
            }
        }
    }

    /// Uploads a file: STOR (or APPE when `append`, RFC 959 §4.1.3), preceded by
    /// `REST offset` when `offset` > 0 (RFC 3659 §5: the server writes from that byte).
    /// `source` fills the buffer it gets and returns the number of bytes it wrote there;
    /// 0 means end of file.
    /// - Returns: the number of bytes sent.
    /// - Throws: `FTPError.reply` (553 not allowed, 502 APPE/REST not implemented, 552 no room),
    ///   `.dataConnectionClosed(bytesTransferred:reason:)` when the data connection broke or the
    ///   final reply was 4xx, `.timedOut`, `.connectFailed`, or what `source` throws.
    @discardableResult
    func store(
        _ path: String, from source: (UnsafeMutableRawBufferPointer) throws -> Int, append: Bool = false,
        offset: UInt64 = 0
    ) throws -> UInt64 {
        try guarded { try send(append ? "APPE" : "STOR", path, offset: offset, source: source) }
    }

    private func send(
        _ verb: String, _ path: String, offset: UInt64, source: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws -> UInt64 {
        try transfer(verb, path, offset: offset, uploading: true) { data, sent in
            if dataBuffer.isEmpty { dataBuffer = [UInt8](repeating: 0, count: Self.dataBufferSize) }
            while true {
                let step = configuration.bandwidthLimits.step(dataBuffer.count)
                let count = try dataBuffer.withUnsafeMutableBytes { whole in
                    let buffer = UnsafeMutableRawBufferPointer(rebasing: whole[0..<step])
                    let count = try source(buffer)
                    guard (0...buffer.count).contains(count) else {
                        throw FTPError.invalidName(name: path, reason: "the upload source returned \(count) bytes")
                    }
                    return count
                }
                if count == 0 { break }
                try dataBuffer.withUnsafeBytes { try data.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                sent += UInt64(count)
                try paceData(count)
            }
        }
    }

    /// Opens a data connection, sends REST (when `offset` > 0) and `verb`, lets `pump` move the
    /// data (counting the bytes in its second argument), ends the data connection (after a
    /// half-close when `uploading`, and once the peer acknowledged every byte: that wait is
    /// bounded by progress, not by one timeout) and reads the final reply. When `pump` throws
    /// something other than a transport error (the caller gave up), the final reply is still
    /// read, so the control connection stays in step. An upload whose device stopped taking
    /// bytes resets its data connection, so no queued byte reaches the server after it.
    /// - Returns: the bytes moved.
    /// - Throws: `.timedOut`, `.dataConnectionClosed` (the data connection broke, or a 4xx final
    ///   reply), `.reply` for another refusal, or what `pump` throws.
    func transfer(
        _ verb: String, _ path: String?, offset: UInt64, uploading: Bool,
        pump: (any Transport, inout UInt64) throws -> Void
    ) throws -> UInt64 {
        let shown = path.map { "\(verb) \($0)" } ?? verb
        // The follow-ups announced for this file's transfer (`FTPSession.announce`), consumed by it.
        let followUp = path != nil && ["RETR", "STOR", "APPE"].contains(verb) ? announced : nil
        if followUp != nil { announced = nil }
        hashAnswer = nil
        let (data, first) = try startTransfer(verb, path, offset: offset)
        defer { data.close() }
        if first.isPreliminary { transferKeepalive = startKeepalive() }
        defer { transferKeepalive = nil }
        var moved: UInt64 = 0
        var failure: String?
        let started = SocketTransport.monotonicSeconds()
        do {
            try pump(data, &moved)
        } catch let error as TransportError {
            // A device that stopped taking bytes may go on later: it must not get the queued rest.
            if uploading, error == .timedOut { Self.reset(data) }
            switch error {
            case .timedOut: throw FTPError.timedOut(during: "\(shown) (data connection, after \(moved) bytes)")
            case .closedByPeer:
                failure = uploading ? "the server closed the data connection" : "the server reset the data connection"
            case .failed(let reason): failure = reason
            }
        } catch {
            // Abandoned by the caller (its sink or progress threw: a cancelled run). The server's
            // answer to the cut is awaited briefly: a slow device may take its time to notice,
            // and the caller stops now — without it the session is closed, its own error kept.
            data.close()
            if first.isPreliminary { abandonReply(during: shown) }
            if transferKeepalive?.outstanding ?? 0 > 0 {
                control?.close()  // NOOP replies not read: out of step
                control = nil
            }
            throw error
        }
        // Whether the server is seen done with the data: then what follows goes out now, answered
        // after the final reply (a download's data ended; an upload's end was read by the server).
        var serverDone = !uploading
        if uploading, failure == nil {
            data.finishWriting()
            try awaitDelivery(data, during: shown, moved: moved)
            readWaitingNoopReplies()
            if transferKeepalive?.final == nil {
                serverDone = awaitServerEnd(data, patience: SocketTransport.monotonicSeconds() - started)
            }
        }
        var ahead = followUp
        // Only a download is followed by the next one, only an upload by its time set.
        if uploading { ahead?.next = nil } else { ahead?.setTime = nil }
        let sent =
            failure == nil && serverDone ? path.flatMap { sendFollowUps(ahead, after: $0, moved: moved) } : nil
        data.close()
        let final = try finalReply(after: first, during: shown)
        if let sent { readFollowUps(sent) }
        if final.isCompletion, failure == nil {
            lastCompletion = final
            return moved
        }
        if final.isCompletion || (400..<500).contains(final.code) || final.isPreliminary {
            let reason = failure ?? "\(final.code) \(final.text)"
            throw FTPError.dataConnectionClosed(bytesTransferred: moved, reason: reason)
        }
        throw replyError(final, shown)
    }
}

extension FTPSessionCore {
    /// The plain socket under a data connection (itself, or the one under its TLS layer).
    static func socket(of data: any Transport) -> SocketTransport? {
        (data as? SocketTransport) ?? (data as? TLSTransport)?.plainSocket
    }

    /// Closes a data connection with a reset (see `SocketTransport.reset()`).
    static func reset(_ data: any Transport) {
        if let socket = socket(of: data) { socket.reset() } else { data.close() }
    }

    /// Waits until the server has read an upload to its end (its side of the data connection
    /// closes) or a reply arrives, at most `patience` seconds plus the timeout. Acknowledged
    /// bytes may still wait in the server's receive buffer, which a slow device empties at its
    /// own rate: the wait is bounded by the time the transfer took so far, so the final reply
    /// is not given up on while the device is still taking the bytes.
    /// - Returns: true when the server was seen done (its end, or a reply), false otherwise.
    @discardableResult
    func awaitServerEnd(_ data: any Transport, patience: Double) -> Bool {
        guard let socket = Self.socket(of: data), let control, let controlSocket = Self.socket(of: control.transport)
        else { return false }
        return socket.waitForEnd(orReadable: controlSocket, seconds: max(patience, 0) + socket.timeout)
    }

    /// Waits until the server acknowledged every byte of an upload, at most the timeout
    /// without progress; a device that stopped taking bytes gets a reset data connection.
    /// - Throws: `.timedOut`.
    func awaitDelivery(_ data: any Transport, during shown: String, moved: UInt64) throws(FTPError) {
        guard let socket = Self.socket(of: data) else { return }
        do {
            try socket.waitUntilDelivered()
        } catch {
            let left = socket.queuedBytes ?? 0
            Self.reset(data)
            throw .timedOut(during: "\(shown) (the device stopped taking the last \(left) of \(moved) bytes)")
        }
    }
}

extension FTPSessionCore {
    /// Seconds an abandoned transfer waits for the server's final reply (at most the timeout).
    static let abandonPatience = 2.0

    /// Reads the final reply of a transfer the caller abandoned, for at most `abandonPatience`
    /// seconds; when none ends in time (or the connection broke) the control connection is
    /// closed: the session is no longer connected, the next command fails at once.
    func abandonReply(during shown: String) {
        guard let control else { return }
        do {
            _ = try control.readReply(
                during: shown, maximumLines: 1000, seconds: min(configuration.timeout, Self.abandonPatience))
        } catch {
            control.close()
            self.control = nil
        }
    }
}
