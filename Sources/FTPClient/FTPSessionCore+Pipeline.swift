// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Servers that lost or refused a pipelined transfer command: later sessions send their
/// commands one at a time.
enum PipelineRefusingServers {
    static let shared = ServerQuirkMemory()
}

/// Servers that answered a pipelined transfer command (EPSV seen to work, the pipeline proven):
/// later sessions of the process pipeline from their first transfer (a device's sibling
/// connections, the ranges of a download fetched in segments), unless the server was seen to
/// lose one since.
enum PipelineProvenServers {
    static let shared = ServerQuirkMemory()
}

/// Pipelined passive transfers (issue 20): EPSV (RFC 2428 §3), REST (RFC 3659 §5) and the
/// transfer command go out in one write, and their replies are read in order. The server
/// handles them as if each had been sent after the reply before it: EPSV opens its listening
/// socket before it reads the transfer command, which then waits for the data connection made
/// as soon as 229 arrives. One round trip less per transfer.
extension FTPSessionCore {
    /// Seconds a session's first pipelined transfer command waits for its reply: a server that
    /// dropped the command (some read one command per packet) never answers it.
    static let pipelineProbeSeconds = 5.0

    /// True when the next passive transfer is pipelined: asked for, EPSV in use and seen to
    /// work in this session (its first transfer sends EPSV on its own), and the server
    /// did not lose or refuse a pipelined command (in this session or an earlier one of this
    /// process, or of an earlier run: `expectNoPipelining`).
    var pipelines: Bool {
        guard configuration.pipelining, configuration.passive, usesEPSV, epsvWorked else { return false }
        if pipelineOffReason == nil { pipelineOffReason = PipelineRefusingServers.shared.note(for: featureServerKey) }
        return pipelineOffReason == nil
    }

    /// Notes that a pipelined transfer command was answered: this session and the later ones of
    /// the process with the server pipeline at once.
    func notePipelineProven() {
        guard !pipelineProven else { return }
        pipelineProven = true
        PipelineProvenServers.shared.insert(featureServerKey)
    }

    /// After login: a server this process already saw answer pipelined commands (and never lose
    /// one) gets them from this session's first transfer.
    func takeProvenPipeline() {
        guard provenForPipelining else { return }
        epsvWorked = true
        pipelineProven = true
    }

    /// True when pipelining is asked for and this process saw the server answer pipelined
    /// commands (and never lose one).
    var provenForPipelining: Bool {
        configuration.pipelining && configuration.passive && PipelineProvenServers.shared.contains(featureServerKey)
            && !PipelineRefusingServers.shared.contains(featureServerKey)
    }

    /// Stops pipelining for this server, for the rest of the process, saying why.
    func turnPipeliningOff(_ reason: String) {
        log?("\(reason); commands go one at a time to this server from now on")
        pipelineOffReason = reason
        PipelineRefusingServers.shared.insert(featureServerKey, note: reason)
    }

    /// `startTransfer` pipelined: sends EPSV, REST (when `offset` > 0) and `verb` at once,
    /// connects the data connection as soon as 229 arrives, then reads the other replies.
    /// - Returns: the data connection and the first reply to `verb` (1xx or 2xx); nil when the
    ///   server refused EPSV or did not understand the pipelined command (the dialogue is in
    ///   step: the caller goes on one command at a time, with PASV after a refused EPSV).
    /// - Throws: `.outOfStep` when the dialogue cannot be trusted any more (the command got no
    ///   reply within the probe, or a data connection the server waits for could not be made):
    ///   the control connection is closed and pipelining is off for this server; `.reply` for a
    ///   refused REST or transfer command; what reading a reply throws.
    func startPipelined(_ verb: String, _ path: String?, offset: UInt64) throws(FTPError) -> (
        any Transport, FTPReply
    )? {
        guard let control else { throw .connectionClosed }
        let shown = path.map { "\(verb) \($0)" } ?? verb
        if let closing = try dropUnsolicitedReplies(before: "EPSV") { throw replyError(closing, "EPSV") }
        var command = Array(verb.utf8)
        if let path { command += [UInt8(ascii: " ")] + (try nameCodec.encode(path)) }
        var lines: [(command: [UInt8], shown: String)] = [(Array("EPSV".utf8), "EPSV")]
        if offset > 0 { lines.append((Array("REST \(offset)".utf8), "REST \(offset)")) }
        lines.append((command, shown))
        try control.sendLines(lines)

        let epsv = try ownReply(to: "EPSV", shown: "EPSV")
        var data: SocketTransport?
        var unusable: String?
        if epsv.code == 229 || epsv.code == 227 {
            do {
                data = try connectData(to: PassiveEndpoint.parse(epsv))
            } catch {
                unusable = "\(error)"
            }
        }
        var restRefusal: FTPError?
        if offset > 0 {
            let rest = try ownReply(to: "REST", shown: "REST \(offset)")
            if rest.code != 350 { restRefusal = replyError(rest, "REST \(offset)") }
        }
        if let unusable {
            let refused = try refusal(of: verb, shown: shown, unusable: unusable)
            throw restRefusal ?? replyError(refused, shown)
        }
        let reply: FTPReply
        do {
            reply = try ownReply(
                to: verb, shown: shown,
                seconds: pipelineProven ? nil : min(configuration.timeout, Self.pipelineProbeSeconds))
        } catch .timedOut {
            data?.close()
            return try outOfStep(
                "no reply to \(shown) sent right after EPSV within \(Int(Self.pipelineProbeSeconds)) s")
        }
        guard let data else {
            // EPSV refused (or answered otherwise): the transfer command was refused for want of
            // a passive address, or started something we cannot follow.
            guard !reply.isPreliminary else { return try outOfStep("\(shown) started without a data connection") }
            if [500, 501, 502, 504].contains(epsv.code) { disableEPSV("EPSV refused (\(epsv.code))") }
            return nil
        }
        if reply.isPreliminary { notePipelineProven() }
        if !pipelineProven, [500, 501, 502].contains(reply.code) {
            // Not understood: the pipelined line may have reached the server garbled.
            data.close()
            turnPipeliningOff("\(shown) sent right after EPSV was not understood (\(reply.code) \(reply.text))")
            return nil
        }
        do throws(FTPError) {
            if let restRefusal {
                // A server that refused REST and started from byte 0 anyway: that transfer is cut.
                if reply.isPreliminary {
                    data.close()
                    abandonReply(during: shown)
                }
                throw restRefusal
            }
            return (try started(data, reply, shown), reply)
        } catch {
            data.close()
            throw error
        }
    }

    /// The data connection of a transfer whose command got `reply`: as it is, or — after a 1xx
    /// on a session with `PROT P` — wrapped in TLS (RFC 4217 §7: the handshake follows the 1xx).
    /// - Throws: `replyError` for a reply that neither starts nor completes the transfer, and
    ///   what the TLS handshake throws.
    func started(_ data: SocketTransport, _ reply: FTPReply, _ shown: String) throws(FTPError) -> any Transport {
        guard reply.isPreliminary || reply.isCompletion else { throw replyError(reply, shown) }
        return protectsData && reply.isPreliminary ? try protectData(data, for: shown) : data
    }

    /// The reply of a pipelined transfer command whose data connection could not be made
    /// (`unusable` says why): a server that refused the command at once closed its listener, and
    /// its refusal (4xx, 5xx) keeps the dialogue in step. Any other reply, or none within
    /// `abandonPatience` (the server waits for the data connection), is `outOfStep`.
    /// - Returns: the refusal.
    /// - Throws: `.outOfStep` (the control connection is then closed, pipelining off).
    func refusal(of verb: String, shown: String, unusable: String) throws(FTPError) -> FTPReply {
        let why = "the data connection of a pipelined \(verb) could not be made (\(unusable))"
        guard
            let reply = try? ownReply(
                to: verb, shown: shown, seconds: min(configuration.timeout, Self.abandonPatience)),
            reply.code >= 400
        else {
            _ = try outOfStep(why)
            throw .outOfStep(why)
        }
        return reply
    }

    /// Closes the control connection after a pipelined transfer whose replies cannot be
    /// followed, turns pipelining off for the server, and throws `.outOfStep` saying why (a
    /// fresh connection sends the commands one at a time).
    private func outOfStep(_ reason: String) throws(FTPError) -> (any Transport, FTPReply)? {
        turnPipeliningOff(reason)
        control?.close()
        control = nil
        throw .outOfStep(reason)
    }

    /// The reply to `verb`, skipping one stray reply that answers an earlier command (as
    /// `exchange` does), within `seconds` when given (`patient`: even beyond the timeout).
    func ownReply(to verb: String, shown: String, seconds: Double? = nil, patient: Bool = false) throws(FTPError)
        -> FTPReply
    {
        guard let control else { throw .connectionClosed }
        let bound = seconds ?? configuration.timeout
        var reply = try control.readReply(
            during: shown, maximumLines: ReplyParser.maximumLines, seconds: bound, patient: patient)
        if Self.isStray(reply, verb) {
            log?("skipping reply \(reply.code): it answers an earlier command, not \(shown)")
            reply = try control.readReply(
                during: shown, maximumLines: ReplyParser.maximumLines, seconds: min(bound, 5))
            if Self.isStray(reply, verb) {
                throw .outOfStep("reply \(reply.code) to \(shown) belongs to an earlier command")
            }
        }
        return reply
    }

    /// Most commands one pipelined batch of questions (`ask`) sends at once.
    static let questionBatch = 16

    /// The modification times of `paths` (MDTM, RFC 3659 §3), each a time or the error of that
    /// file (`ask`).
    /// - Throws: connection errors (the control connection is then closed).
    func modificationTimes(_ paths: [String]) throws(FTPError) -> [Result<Date, FTPError>] {
        try ask("MDTM", paths, one: oneModificationTime) { reply, path in Self.modificationTime(from: reply, path: path)
        }
    }

    /// The sizes of `paths` (SIZE, RFC 3659 §4), each a size or the error of that file (`ask`).
    /// - Throws: connection errors (the control connection is then closed).
    func sizes(_ paths: [String]) throws(FTPError) -> [Result<UInt64, FTPError>] {
        try ask("SIZE", paths, one: oneSize) { reply, path in Self.size(from: reply, path: path) }
    }

    /// `verb PATH` for each of `paths`, answered in order: pipelined in batches of
    /// `questionBatch` once this session saw pipelined commands answered, else one at a time
    /// with `one`. Each answer is read with `read`.
    /// - Throws: connection errors (the control connection is then closed).
    private func ask<Value>(
        _ verb: String, _ paths: [String], one: (String) throws(FTPError) -> Result<Value, FTPError>,
        read: (FTPReply, String) -> Result<Value, FTPError>
    ) throws(FTPError) -> [Result<Value, FTPError>] {
        guard pipelines, pipelineProven, paths.count > 1 else {
            return try paths.map { (path) throws(FTPError) in try one(path) }
        }
        return try guarded { () throws(FTPError) in
            var results: [Result<Value, FTPError>] = []
            var start = 0
            while start < paths.count {
                let batch = paths[start..<min(paths.count, start + Self.questionBatch)]
                start += batch.count
                guard let control else { throw .connectionClosed }
                _ = try dropUnsolicitedReplies(before: verb)
                // Each path's place: its result, or nil while its reply is awaited.
                var slots: [Result<Value, FTPError>?] = []
                var lines: [(command: [UInt8], shown: String)] = []
                for path in batch {
                    do throws(FTPError) {
                        lines.append((Array("\(verb) ".utf8) + (try nameCodec.encode(path)), "\(verb) \(path)"))
                        slots.append(nil)
                    } catch {
                        slots.append(.failure(error))
                    }
                }
                if !lines.isEmpty { try control.sendLines(lines) }
                for (index, path) in batch.enumerated() where slots[index] == nil {
                    slots[index] = read(try ownReply(to: verb, shown: "\(verb) \(path)"), path)
                }
                results += slots.compactMap { $0 }
            }
            return results
        }
    }

    /// One SIZE, its per-file failure as a result; connection errors thrown.
    private func oneSize(_ path: String) throws(FTPError) -> Result<UInt64, FTPError> {
        try Self.perFile { () throws(FTPError) in try size(path) }
    }

    /// `body`'s value, or its error when it concerns one file (a refusal, a reply that does not
    /// parse, a name that cannot be sent); connection errors thrown.
    private static func perFile<Value>(_ body: () throws(FTPError) -> Value) throws(FTPError) -> Result<Value, FTPError>
    {
        do {
            return .success(try body())
        } catch {
            switch error {
            case .reply, .protocolViolation, .invalidName: return .failure(error)
            default: throw error
            }
        }
    }

    /// The size a SIZE reply gives, or why it gives none.
    static func size(from reply: FTPReply, path: String) -> Result<UInt64, FTPError> {
        guard reply.code == 213 else {
            return .failure(.reply(code: reply.code, text: reply.text, command: "SIZE \(path)"))
        }
        guard let value = UInt64(reply.text.trimmingSpaces()) else {
            return .failure(.protocolViolation("SIZE reply without a number: \(reply.text)"))
        }
        return .success(value)
    }

    /// RNFR and RNTO (RFC 959 §4.1.3) sent together once this session saw pipelined commands
    /// answered: a refused RNFR makes the server refuse the RNTO too (503, bad sequence), and
    /// the RNFR's refusal is the one thrown.
    /// - Throws: the refusal (nothing renamed), or connection errors.
    func pipelinedRename(from: String, to: String) throws(FTPError) {
        try guarded { () throws(FTPError) in
            guard let control else { throw .connectionClosed }
            _ = try dropUnsolicitedReplies(before: "RNFR \(from)")
            try control.sendLines([
                (Array("RNFR ".utf8) + (try nameCodec.encode(from)), "RNFR \(from)"),
                (Array("RNTO ".utf8) + (try nameCodec.encode(to)), "RNTO \(to)"),
            ])
            let first = try ownReply(to: "RNFR", shown: "RNFR \(from)")
            let second = try ownReply(to: "RNTO", shown: "RNTO \(to)")
            try expect(first, "RNFR \(from)", 350)
            try expectCompletion(second, "RNTO \(to)")
        }
    }

    /// One MDTM, its per-file failure as a result; connection errors thrown.
    private func oneModificationTime(_ path: String) throws(FTPError) -> Result<Date, FTPError> {
        try Self.perFile { () throws(FTPError) in try modificationTime(path) }
    }

    /// The time an MDTM reply gives, or why it gives none.
    static func modificationTime(from reply: FTPReply, path: String) -> Result<Date, FTPError> {
        guard reply.code == 213 else {
            return .failure(.reply(code: reply.code, text: reply.text, command: "MDTM \(path)"))
        }
        guard let date = FTPTime.parse(reply.text) else {
            return .failure(.protocolViolation("MDTM reply without a time: \(reply.text)"))
        }
        return .success(date)
    }
}
