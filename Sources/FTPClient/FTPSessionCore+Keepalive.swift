// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The NOOPs of one transfer (`FTPSessionConfiguration.keepaliveSeconds`) and the replies read
/// so far while its data connection moves.
struct TransferKeepalive {
    /// Seconds between NOOPs.
    let interval: Double
    /// When the next NOOP is due (monotonic seconds).
    var due: Double
    /// NOOPs sent, and replies to them read.
    var sent = 0
    var answered = 0
    /// The transfer's own final reply, once read.
    var final: FTPReply?
    /// How the server misbehaved with the NOOPs (no more are sent), nil while it did not.
    var misstep: String?

    /// NOOPs whose reply has not been read yet.
    var outstanding: Int { sent - answered }

    /// Most NOOPs sent without their reply read: a server that reads its control connection
    /// only after the transfer (vsftpd) gets no more than these queued.
    static let maximumOutstanding = 64

    /// Codes a server may answer NOOP with when it refuses it (RFC 959 §4.2): 500-503, 530.
    static let refusals: Set<Int> = [500, 501, 502, 503, 530]

    /// Files `reply` (read while NOOPs may be outstanding) as a NOOP's reply (a 200, or a
    /// refusal: a misstep) or as the transfer's own; a second reply of the transfer is a misstep.
    mutating func file(_ reply: FTPReply) {
        if outstanding > 0, reply.code == 200 {
            answered += 1
        } else if outstanding > 0, Self.refusals.contains(reply.code) {
            answered += 1
            misstep = misstep ?? "the server answered NOOP during a transfer with \(reply.code) \(reply.text)"
        } else if final == nil {
            final = reply
        } else {
            misstep = misstep ?? "the server sent a reply no command of the transfer asked for (\(reply.code))"
        }
    }
}

/// Servers that misbehaved with NOOP during a transfer: later sessions send none to them.
enum KeepaliveRefusingServers {
    static let shared = ServerQuirkMemory()
}

extension FTPSessionCore {
    /// The NOOPs of a transfer starting now: nil when `keepaliveSeconds` is 0 or the server
    /// misbehaved with them (in this session, an earlier one of this process, or an earlier run:
    /// `keepaliveOffReason`).
    func startKeepalive() -> TransferKeepalive? {
        guard configuration.keepaliveSeconds > 0 else { return nil }
        if keepaliveOffReason == nil {
            keepaliveOffReason = KeepaliveRefusingServers.shared.note(for: featureServerKey)
        }
        guard keepaliveOffReason == nil else { return nil }
        let interval = configuration.keepaliveSeconds
        return TransferKeepalive(interval: interval, due: SocketTransport.monotonicSeconds() + interval)
    }

    /// Called between the steps of a transfer's data: charges `count` moved bytes to the
    /// bandwidth limits (sleeping as they say), then sends a NOOP when one is due, first reading
    /// the replies already waiting (a server that answers NOOPs during the transfer).
    /// - Throws: what `configuration.pacingStop` gives once a stop is asked for and the transfer
    ///   would wait for bandwidth: the transfer is abandoned.
    func paceData(_ count: Int) throws {
        try configuration.bandwidthLimits.pace(count, stop: configuration.pacingStop)
        guard var keepalive = transferKeepalive, keepalive.misstep == nil, let control else { return }
        let now = SocketTransport.monotonicSeconds()
        guard now >= keepalive.due else { return }
        keepalive.due = now + keepalive.interval
        do {
            try readWaitingReplies(&keepalive, on: control)
            if keepalive.misstep == nil, keepalive.outstanding < TransferKeepalive.maximumOutstanding {
                try control.sendLine(Array("NOOP".utf8), shown: "NOOP")
                keepalive.sent += 1
            }
        } catch {
            // The control connection broke: the transfer's final reply tells.
            keepalive.misstep = "the control connection failed during a NOOP (\(error))"
        }
        transferKeepalive = keepalive
    }

    /// Reads the replies already waiting on the control connection while NOOPs are outstanding
    /// (a server that answers them during the transfer), filing each.
    /// - Throws: what reading a reply throws.
    private func readWaitingReplies(_ keepalive: inout TransferKeepalive, on control: ControlConnection)
        throws(FTPError)
    {
        while keepalive.outstanding > 0, control.hasWaitingInput {
            keepalive.file(try control.readReply(during: "NOOP", maximumLines: ReplyParser.maximumLines, seconds: 1))
        }
    }

    /// After an upload's last byte: reads the NOOP replies already waiting, so that they do not
    /// end the wait for the server to take the upload (`awaitServerEnd`) early.
    func readWaitingNoopReplies() {
        guard var keepalive = transferKeepalive, keepalive.misstep == nil, let control else { return }
        do {
            try readWaitingReplies(&keepalive, on: control)
        } catch {
            keepalive.misstep = "the control connection failed during a transfer (\(error))"
        }
        transferKeepalive = keepalive
    }

    /// The final reply of a transfer whose preliminary reply was `first`: read in order with
    /// the replies to the transfer's NOOPs, which the server may send before it or after it.
    /// A server that answered a NOOP with an error, sent replies that cannot be matched, or
    /// aborted the transfer (426) after one, gets no NOOPs during transfers for the rest of the process (`keepaliveOffReason`); when
    /// a NOOP's reply is still missing then, the control connection is closed (out of step).
    /// - Throws: what reading a reply throws.
    func finalReply(after first: FTPReply, during shown: String) throws(FTPError) -> FTPReply {
        guard first.isPreliminary else { return first }
        guard var keepalive = transferKeepalive else { return try readReply(during: shown) }
        transferKeepalive = nil
        while keepalive.final == nil { keepalive.file(try readReply(during: shown)) }
        guard let final = keepalive.final else { return try readReply(during: shown) }
        while keepalive.misstep == nil, keepalive.outstanding > 0, let control {
            do {
                keepalive.file(
                    try control.readReply(
                        during: "NOOP", maximumLines: ReplyParser.maximumLines, seconds: min(configuration.timeout, 10))
                )
            } catch {
                keepalive.misstep = "the server did not answer NOOP after a transfer (\(error))"
            }
        }
        // A server that takes a command during a transfer for ABOR (RFC 959 §4.1.3) cuts it.
        if final.code == 426, keepalive.sent > 0, keepalive.misstep == nil {
            keepalive.misstep = "the server aborted a transfer after a NOOP during it (\(final.code) \(final.text))"
        }
        if let misstep = keepalive.misstep {
            log?("\(misstep); no NOOP during transfers to this server")
            keepaliveOffReason = misstep
            KeepaliveRefusingServers.shared.insert(featureServerKey, note: misstep)
            if keepalive.outstanding > 0 {
                control?.close()
                control = nil
            }
        }
        return final
    }
}
