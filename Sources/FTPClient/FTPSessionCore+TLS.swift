// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import COpenSSL

/// TLS on the control connection (RFC 4217 §4, implicit FTPS) and on data connections.
extension FTPSessionCore {
    /// Runs the TLS handshake on the control connection's socket and checks the server's
    /// certificate as configured, before anything else is sent.
    /// - Throws: `.tlsFailed` (handshake), `.timedOut`, `.certificateUntrusted` (system check
    ///   failed), `.fingerprintMismatch` (pinned fingerprint differs). The socket is closed then.
    func startTLS(on socket: SocketTransport) throws(FTPError) -> TLSTransport {
        let context: TLSContext
        if let existing = tlsContext {
            context = existing
        } else {
            // A server whose TLS 1.3 tickets ran out on an earlier connection: TLS 1.2, whose
            // sessions resume any number of times.
            let limit: TLSVersionLimit =
                TLSResumptionFallback.shared.contains(featureServerKey) ? .tls12 : configuration.tlsVersionLimit
            context = try TLSContext(host: configuration.host, check: configuration.certificateCheck, limit: limit)
            tlsContext = context
        }
        let tls = try TLSTransport(socket: socket, context: context, resuming: nil, ignoreMissingCloseNotify: false)
        do throws(FTPError) {
            let details = try Self.checkCertificate(of: tls, against: configuration.certificateCheck)
            log?(
                "TLS \(details.version) \(details.cipher), certificate \(details.fingerprint) (\(details.verification))"
            )
            tlsDetails = details
            controlTLS = tls
            return tls
        } catch {
            tls.close()
            throw error
        }
    }

    /// The negotiated details, once the certificate passed `check`.
    static func checkCertificate(of tls: TLSTransport, against check: CertificateCheck) throws(FTPError)
        -> TLSDetails
    {
        guard let certificate = tls.peerCertificate() else {
            throw .tlsFailed("the server presented no certificate")
        }
        let presented = Fingerprint.format(certificate.digest)
        let verification: String
        switch check {
        case .system:
            let verdict = tls.verifyResult()
            guard verdict.code == 0 else { throw .certificateUntrusted(reason: verdict.text, presented: presented) }
            verification = "system CA store"
        case .pinned(let expected):
            guard let wanted = Fingerprint.normalize(expected) else {
                throw .tlsFailed("the pinned fingerprint \"\(expected)\" is not 64 hexadecimal digits")
            }
            let actual = Fingerprint.normalize(presented) ?? ""
            guard wanted == actual else {
                throw .fingerprintMismatch(pinned: Fingerprint.format(hexBytes(wanted)), presented: presented)
            }
            verification = "pinned fingerprint"
        case .insecure:
            verification = "NOT VERIFIED (insecure: true)"
        }
        return TLSDetails(
            version: tls.version, cipher: tls.cipher, fingerprint: presented, subject: certificate.subject,
            verification: verification)
    }

    /// Checks a data connection's certificate against the device's check; closes `tls` and
    /// throws `.tlsFailed` saying which certificate was refused and why.
    private func verifyDataCertificate(of tls: TLSTransport) throws(FTPError) {
        do throws(FTPError) {
            _ = try Self.checkCertificate(of: tls, against: configuration.certificateCheck)
        } catch {
            tls.close()
            switch error {
            case .fingerprintMismatch(let pinned, let presented):
                throw .tlsFailed(
                    "its certificate \(presented) is not the pinned \(pinned); refused, nothing was read or sent on it")
            case .certificateUntrusted(let reason, let presented):
                throw .tlsFailed(
                    "its certificate \(presented) is not trusted (\(reason)); refused, nothing was read or sent on it")
            default:
                throw error
            }
        }
    }

    private static func hexBytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = hex.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(String([high, low]), radix: 16) ?? 0)
        }
        return bytes
    }

    /// `PBSZ 0` then `PROT P` (RFC 4217 §8, §9): data connections are encrypted from now on.
    /// - Throws: `.reply` when the server refuses either (then data would go in clear).
    func protectDataConnections() throws(FTPError) {
        try expectCompletion(exchange("PBSZ 0"), "PBSZ 0")
        try expectCompletion(exchange("PROT P"), "PROT P")
        protectsData = true
    }

    /// Runs the TLS handshake on a data connection, resuming the control connection's
    /// session, and verifies it like the control connection (RFC 4217 §10: a data connection
    /// is only as trustworthy as its own handshake): a connection that resumed the session
    /// proved it holds the session's keys; any other must present a certificate that passes
    /// the device's check (the pinned fingerprint, or the CA store and host name). On failure
    /// the data connection is closed before a byte is read or sent on it, the transfer's final
    /// reply is read (e.g. vsftpd's `522 ... session reuse required`), and `.tlsFailed` names both.
    func protectData(_ socket: SocketTransport, for shown: String) throws(FTPError) -> TLSTransport {
        guard let context = tlsContext, let controlTLS else {
            socket.close()
            throw .tlsFailed("data connection for \(shown): the control connection has no TLS")
        }
        let session = context.copyNewestSession() ?? controlTLS.copySession()
        defer { if let session { SSL_SESSION_free(session) } }
        do {
            let tls = try TLSTransport(
                socket: socket, context: context, resuming: session, ignoreMissingCloseNotify: true)
            tls.keepsSocketOpenAtFinish = configuration.proxy != nil
            if !tls.sessionReused {
                log?("data connection for \(shown) did not resume the TLS session")
                try verifyDataCertificate(of: tls)
            }
            return tls
        } catch {
            var reason = "data connection for \(shown): "
            if case .tlsFailed(let text) = error { reason += text } else { reason += error.description }
            let final = try? readReply(during: shown)
            if let final { reason += "; the server said \(final.code) \(final.text)" }
            if let final, fallsBackToTLS12(after: final) {
                reason +=
                    "; TLS 1.3 session tickets ran out: TLS 1.2 resumption for this device for the rest of the run"
                // Start over: the next attempt connects again, with TLS 1.2.
                control?.close()
                control = nil
            }
            throw .tlsFailed(reason)
        }
    }

    /// True (and remembered for the run) when `final`, the reply after a refused data
    /// connection, says session reuse was required while the control connection runs TLS 1.3
    /// with a session that resumed before: its tickets ran out (servers that keep one ticket
    /// per session). Later connections of the device use TLS 1.2, whose session resumes for
    /// every data connection.
    func fallsBackToTLS12(after final: FTPReply) -> Bool {
        guard final.code == 522 || final.text.lowercased().contains("reuse"), tlsDetails?.version == "TLSv1.3",
            configuration.tlsVersionLimit == .tls13
        else { return false }
        TLSResumptionFallback.shared.insert(featureServerKey)
        log?("TLS 1.3 session tickets ran out: connecting again with TLS 1.2")
        return true
    }
}
