// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The state and the protocol logic of one `FTPSession`: the control connection, what it
/// learnt (features, EPSV/EPRT/MLSD fallbacks, TLS) and the transfer buffer. Not `Sendable`:
/// it lives inside the session's lock and is reached only through `FTPSession`, one call at a
/// time.
final class FTPSessionCore {
    /// What this session connects to and logs in with.
    let configuration: FTPSessionConfiguration
    /// The features from FEAT after login (empty when FEAT was refused, or did not end).
    var features = FTPFeatures()
    /// What the last `connect()` had to work around, one line each, for the device's report
    /// (a FEAT reply that did not end and was treated as absent).
    var notes: [String] = []
    /// True when FEAT did not end within its bounds and the features are treated as absent.
    var featuresTreatedAsAbsent: Bool { notes.contains(Self.unendingFeatureNote) }
    /// The server's greeting (220 reply, after any 120 delay replies); nil before `connect()`.
    var banner: FTPReply?
    /// Where data connections go (passive mode): the numeric address of the control
    /// connection's peer, or through a proxy the device's address or host name; nil before
    /// `connect()`.
    var peerHost: String?
    /// The proxy step of the control connection (`configuration.proxy`); nil without one.
    var proxyHop: ProxyHop?
    /// The last passive-mode reply's endpoint, as the server named it (for `check`: a 227
    /// address that differs from `peerHost`).
    var lastPassiveEndpoint: PassiveEndpoint?
    /// False once EPSV was refused or unusable: PASV is used for the rest of the session.
    var usesEPSV = true
    /// True once an EPSV of this session (sent on its own) gave a data connection: only then
    /// are transfers pipelined (`startPipelined`), so a server that refuses EPSV, or answers
    /// it with a 227 of its own, never sees a transfer command without a passive address.
    var epsvWorked = false
    /// The numeric local address of the control connection (active mode listens there); nil
    /// before `connect()`.
    var localHost: String?
    /// False once EPRT was refused: PORT is used for the rest of the session (active mode).
    var usesEPRT = true
    /// False when MLSD is not offered or was refused: LIST is used for the rest of the session.
    var usesMLSD = false
    /// Why listings go over the control connection (`STAT`, see `listOverControl`), or nil
    /// while they use data connections.
    var controlListingReason: String?
    /// Why the server is thought to block listing data connections (an earlier run saw it),
    /// until the next listing tells: its data connection is then tried once, not twice.
    var controlListingHint: String?
    /// Why LIST is sent without `-a` (the server did not understand it, see `listBytes`), or
    /// nil while `LIST -a` is sent (when `configuration.listsHidden`).
    var plainListReason: String?
    /// True once a `LIST -a` gave entries: `-a` works here, empty listings are not questioned.
    var hiddenListingConfirmed = false
    /// The file-name codec for command arguments and listing names (UTF-8 until `connect()`
    /// reads the configured encoding).
    var nameCodec: NameCodec

    /// What the TLS handshake of the control connection negotiated; nil without TLS.
    var tlsDetails: TLSDetails?

    let log: (@Sendable (String) -> Void)?
    /// Masks this device's secrets (`configuration.secrets`) in server text: the banner, the
    /// logged replies, and every error a call throws.
    let scrubber: SecretScrubber
    var control: ControlConnection?
    /// The TLS context of this session (CA store, versions), made at the first handshake.
    var tlsContext: TLSContext?
    /// The control connection's TLS layer, whose session data connections resume.
    var controlTLS: TLSTransport?
    /// True after `PROT P`: data connections are TLS too.
    var protectsData = false
    /// Size of the buffer data is read into and written from, in bytes.
    static let dataBufferSize = 256 * 1024
    /// The transfer buffer, allocated at the first transfer.
    var dataBuffer: [UInt8] = []
    /// The final reply of the last transfer that completed (226/250), e.g. Pure-FTPd's
    /// `226 Output truncated to 2000 matches` after a listing it cut short.
    var lastCompletion: FTPReply?
    /// The NOOPs of the transfer under way (`paceData`), nil outside transfers or without keepalive.
    var transferKeepalive: TransferKeepalive?
    /// What the next download is followed by (`FTPSession.announce`), until it starts.
    var announced: TransferFollowUp?
    /// The next download, sent ahead behind the last one (`readFollowUps`), until asked for.
    var prefetch: Prefetch?
    /// The answer to a SIZE sent ahead behind a transfer, until `size` asks for it.
    var sizeAnswer: (path: String, reply: FTPReply)?
    /// The answer to a time set sent ahead behind an upload (the command as shown), until
    /// `setModificationTime` asks for it.
    var timeAnswer: (shown: String, reply: FTPReply)?
    /// Why transfer commands are not pipelined though `configuration.pipelining` asks for it
    /// (the server lost or refused one, see `startPipelined`), nil while they are.
    var pipelineOffReason: String?
    /// True once a pipelined transfer command got its reply in this session: later ones wait
    /// for it as long as any reply (`configuration.timeout`), not only `pipelineProbeSeconds`.
    var pipelineProven = false
    /// Why no NOOPs are sent during transfers though `configuration.keepaliveSeconds` asks for
    /// them (the server misbehaved with them, see `finalReply(after:during:)`), nil while they are.
    var keepaliveOffReason: String?
    /// How this session asks for a file's digest, once decided (`serverHash`); nil before.
    var hashChoice: HashChoice?
    /// The answer to a hash command sent ahead behind a transfer, until `serverHash` asks for it.
    var hashAnswer: (path: String, choice: HashChoice, reply: FTPReply)?
    /// What probing for a hash command found where FEAT named none (`probeHash`), or what an
    /// earlier run found (`rememberHashProbe`); nil until probed.
    var hashProbe: String?
    /// True once the server answered `HASH` after `RANG` with the whole file's digest: ranges
    /// are not asked of it again in this session.
    var rangeHashIgnored = false

    /// Creates an unconnected session core (see `FTPSession.init`).
    init(configuration: FTPSessionConfiguration, log: (@Sendable (String) -> Void)? = nil) {
        self.configuration = configuration
        self.log = log
        self.scrubber = SecretScrubber(configuration.secrets)
        self.nameCodec = .utf8
    }

    deinit { control?.close() }

    /// True while the control connection is open.
    var isConnected: Bool { control != nil }

    /// Sends SYST (RFC 959 §4.1.3). - Returns: the reply text, e.g. `UNIX Type: L8`.
    /// - Throws: `.reply` unless 215; connection errors.
    func system() throws(FTPError) -> String {
        try guarded { () throws(FTPError) in scrubber.scrub(try expect(exchange("SYST"), "SYST", 215).text) }
    }

    /// Size of a file in bytes, by SIZE (RFC 3659 §4), in TYPE I.
    /// - Throws: `.reply` (550: no such file), `.protocolViolation` when 213 holds no number
    ///   (the connection stays open: the reply itself was whole).
    func size(_ path: String) throws(FTPError) -> UInt64 {
        let text = try guarded { () throws(FTPError) in
            var reply = takeSizeAnswer(for: path)
            if reply == nil { reply = try exchange("SIZE", path) }
            guard let reply else { throw FTPError.connectionClosed }
            return try expect(reply, "SIZE \(path)", 213).text
        }
        guard let value = UInt64(text.trimmingSpaces()) else {
            throw .protocolViolation("SIZE reply without a number: \(text)")
        }
        return value
    }

    /// Modification time of a file, by MDTM (RFC 3659 §3), as an instant (the reply is UTC).
    /// - Throws: `.reply` (550: no such file), `.protocolViolation` when 213 holds no time.
    func modificationTime(_ path: String) throws(FTPError) -> Date {
        try guarded { () throws(FTPError) in
            let reply = try expect(exchange("MDTM", path), "MDTM \(path)", 213)
            guard let date = FTPTime.parse(reply.text) else {
                throw .protocolViolation("MDTM reply without a time: \(reply.text)")
            }
            return date
        }
    }

    /// Sets a file's modification time (UTC, whole seconds): MFMT when FEAT offers it, else
    /// the two-argument `MDTM YYYYMMDDHHMMSS path` some servers accept.
    /// - Throws: `.reply` when the server refuses (then the time cannot be set on it).
    func setModificationTime(_ path: String, _ date: Date) throws(FTPError) {
        let stamp = FTPTime.format(date)
        let verb = features.mfmt ? "MFMT" : "MDTM"
        let shown = "\(verb) \(stamp) \(path)"
        try guarded { () throws(FTPError) in
            var reply = takeTimeAnswer(for: shown)
            if reply == nil {
                let argument = try Array("\(stamp) ".utf8) + nameCodec.encode(path)
                reply = try exchange(verb, encoded: argument, shown: shown)
            }
            guard let reply, reply.isCompletion else {
                throw reply.map { replyError($0, shown) } ?? FTPError.connectionClosed
            }
        }
    }

    /// Deletes a file (DELE, RFC 959 §4.1.3). - Throws: `.reply` (550: missing or no permission).
    func delete(_ path: String) throws(FTPError) {
        try guarded { () throws(FTPError) in try expectCompletion(exchange("DELE", path), "DELE \(path)") }
    }

    /// Renames `from` to `to` (RNFR 350, then RNTO, RFC 959 §4.1.3).
    /// - Throws: `.reply` when either step is refused.
    func rename(from: String, to: String) throws(FTPError) {
        if pipelines, pipelineProven { return try pipelinedRename(from: from, to: to) }
        try guarded { () throws(FTPError) in
            try expect(exchange("RNFR", from), "RNFR \(from)", 350)
            try expectCompletion(exchange("RNTO", to), "RNTO \(to)")
        }
    }

    /// Creates a folder (MKD, RFC 959 §4.1.3). - Throws: `.reply` (550: exists or no permission).
    func makeDirectory(_ path: String) throws(FTPError) {
        try guarded { () throws(FTPError) in try expectCompletion(exchange("MKD", path), "MKD \(path)") }
    }

    /// Removes an empty folder (RMD, RFC 959 §4.1.3). - Throws: `.reply` when refused.
    func removeDirectory(_ path: String) throws(FTPError) {
        try guarded { () throws(FTPError) in try expectCompletion(exchange("RMD", path), "RMD \(path)") }
    }

    /// Sends one command line as given (encoded with the name codec) and returns its reply
    /// whatever the code: for `check` and diagnostics. Do not start transfers with it. The reply
    /// is as received (a 227 must still parse): pass its text through `scrubber` before showing it.
    /// - Throws: only connection errors (`.timedOut`, `.connectionClosed`, `.protocolViolation`,
    ///   `.invalidName` for CR/LF/NUL).
    func raw(_ command: String) throws(FTPError) -> FTPReply {
        try guarded { () throws(FTPError) in
            let upper = command.uppercased()
            let shown = upper.hasPrefix("PASS ") ? "PASS ****" : command
            guard let control else { throw .connectionClosed }
            if let closing = try dropUnsolicitedReplies(before: shown) { return closing }
            try control.sendLine(nameCodec.encode(command), shown: shown)
            return try control.readReply(during: shown)
        }
    }

    /// Sends QUIT, waits briefly for its reply and closes the control connection. Never
    /// throws; safe to call more than once.
    func quit() {
        settlePrefetch()
        guard let control else { return }
        control.transport.timeout = min(configuration.timeout, 5)
        do {
            try control.sendLine(Array("QUIT".utf8), shown: "QUIT")
            _ = try control.readReply(during: "QUIT")
        } catch {
            // The connection is going away either way.
        }
        control.close()
        self.control = nil
    }

    // MARK: - Internals shared with the data-connection code

    /// Sends `verb` with an optional path argument (encoded) and reads the reply, waiting for
    /// it `seconds` when given (a command the server takes long over, even beyond the
    /// timeout), else the timeout.
    @discardableResult
    func exchange(_ verb: String, _ argument: String? = nil, shown: String? = nil, seconds: Double? = nil)
        throws(FTPError) -> FTPReply
    {
        let encoded = try argument.map { (value) throws(FTPError) in try nameCodec.encode(value) }
        let line = shown ?? (argument.map { "\(verb) \($0)" } ?? verb)
        return try exchange(verb, encoded: encoded, shown: line, seconds: seconds)
    }

    func exchange(_ verb: String, encoded: [UInt8]?, shown: String, seconds: Double? = nil) throws(FTPError)
        -> FTPReply
    {
        guard let control else { throw .connectionClosed }
        var line = Array(verb.utf8)
        if let encoded { line += [UInt8(ascii: " ")] + encoded }
        if let closing = try dropUnsolicitedReplies(before: shown) { return closing }
        try control.sendLine(line, shown: shown)
        var reply: FTPReply
        if let seconds {
            reply = try control.readReply(
                during: shown, maximumLines: ReplyParser.maximumLines, seconds: seconds, patient: true)
        } else {
            reply = try control.readReply(during: shown)
        }
        let verb = verb.prefix { $0 != " " }.uppercased()
        // Only commands that open a data connection get a preliminary reply (RFC 959 §4.2,
        // §5.4): another command that reads one is reading a reply meant for an earlier
        // command (a server that sent one reply too many). That stray reply is skipped: the
        // command's own reply follows it. A second one in a row means the dialogue is lost.
        if Self.isStray(reply, verb) {
            log?("skipping reply \(reply.code): it answers an earlier command, not \(shown)")
            reply = try control.readReply(
                during: shown, maximumLines: ReplyParser.maximumLines, seconds: min(configuration.timeout, 5))
            if Self.isStray(reply, verb) {
                throw .outOfStep("reply \(reply.code) to \(shown) belongs to an earlier command")
            }
        }
        return reply
    }

    /// Reads and drops the replies that arrived before `shown` was sent (they answer earlier
    /// commands: a server that sent a 226 or 250 twice), logging each.
    /// - Returns: a 421 among them (the server is closing the connection): the answer to
    ///   `shown`, which is then not sent; nil otherwise.
    /// - Throws: what `ControlConnection.unsolicitedReplies(before:)` throws.
    func dropUnsolicitedReplies(before shown: String) throws(FTPError) -> FTPReply? {
        settlePrefetch()
        guard let control else { throw .connectionClosed }
        for reply in try control.unsolicitedReplies(before: shown) {
            if reply.code == 421 { return reply }
            log?("skipping reply \(reply.code): it answers an earlier command (it came before \(shown) was sent)")
        }
        return nil
    }

    /// Whether `reply` cannot be the reply to `verb` and answers an earlier command.
    static func isStray(_ reply: FTPReply, _ verb: String) -> Bool {
        reply.isPreliminary && !transferVerbs.contains(verb) || answersAnotherCommand(reply, verb)
    }

    /// Whether a positive reply's code cannot answer `verb` (RFC 959 §5.4, RFC 3659): SIZE
    /// is answered by 213, REST and RNFR by 350 (a 2xx there is a final reply meant for an
    /// earlier command), EPSV and PASV by 229 or 227 (RFC 2428), and DELE, RMD, MKD, RNTO,
    /// TYPE and NOOP by a 2xx (a 3xx there is one meant for REST or RNFR). 4xx and 5xx replies always belong to the command.
    static func answersAnotherCommand(_ reply: FTPReply, _ verb: String) -> Bool {
        guard (200..<400).contains(reply.code) else { return false }
        switch verb {
        case "SIZE": return reply.code != 213
        case "REST", "RNFR": return reply.code / 100 != 3
        case "DELE", "RMD", "MKD", "RNTO", "TYPE", "NOOP": return reply.code / 100 != 2
        case "EPSV", "PASV": return reply.code != 229 && reply.code != 227
        default: return false
        }
    }

    /// Commands answered by a preliminary reply, then a final one (RFC 959 §5.4, RFC 3659 §7).
    private static let transferVerbs: Set<String> = ["RETR", "STOR", "STOU", "APPE", "LIST", "NLST", "MLSD", "REIN"]

    func readReply(during: String) throws(FTPError) -> FTPReply {
        guard let control else { throw .connectionClosed }
        return try control.readReply(during: during)
    }

    @discardableResult
    func expect(_ reply: FTPReply, _ shown: String, _ codes: Int...) throws(FTPError) -> FTPReply {
        guard codes.contains(reply.code) else { throw replyError(reply, shown) }
        return reply
    }

    func expectCompletion(_ reply: FTPReply, _ shown: String) throws(FTPError) {
        guard reply.isCompletion else { throw replyError(reply, shown) }
    }

    func replyError(_ reply: FTPReply, _ shown: String) -> FTPError {
        // A transfer refused for want of session reuse after the TLS 1.3 tickets ran out: the
        // session is closed, the next attempt connects again with TLS 1.2 (FTPSession+TLS).
        if reply.code == 522, protectsData, fallsBackToTLS12(after: reply) {
            control?.close()
            control = nil
            // Transient: worth another attempt, over the new connection.
            return .tlsFailed(
                "\(reply.code) \(reply.text) (after \(shown)): TLS 1.3 session tickets ran out; "
                    + "TLS 1.2 session resumption for this device for the rest of the run")
        }
        return .reply(code: reply.code, text: reply.text, command: shown)
    }

    /// Runs `body`; on an error that leaves the control connection in an unknown state
    /// (timeout, lost connection, protocol violation) closes it before rethrowing.
    func guarded<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        do {
            return try body()
        } catch {
            switch error as? FTPError {
            case nil: break
            case .timedOut?, .connectionClosed?, .protocolViolation?, .outOfStep?, .tlsRefused?, .certificateUntrusted?,
                .fingerprintMismatch?:
                control?.close()
                control = nil
            case .reply?, .dataConnectionClosed?, .invalidName?, .connectFailed?, .tlsFailed?, .proxyFailed?:
                break  // still in step (connectFailed, tlsFailed, proxyFailed: a data connection)
            }
            if let failure = error as? FTPError, let scrubbed = failure.scrubbed(by: scrubber) as? E { throw scrubbed }
            throw error
        }
    }
}
