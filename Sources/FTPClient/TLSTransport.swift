// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import COpenSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// TLS (OpenSSL) over a connected `SocketTransport`: the same blocking, timeout-bounded
/// interface as the socket, so the rest of FTPClient does not know which one it has.
///
/// `finishWriting()` sends the TLS close_notify alert and half-closes the socket; `close()`
/// after it waits (at most the timeout) for the server's own close, so that a server never
/// sees a reset or a missing close_notify and calls the upload truncated.
public final class TLSTransport: Transport {
    private let socket: SocketTransport
    /// The socket under the TLS layer (for its send-queue size and a reset).
    var plainSocket: SocketTransport { socket }
    /// Kept alive while this connection is (the new-session callback refers to it).
    private let context: TLSContext
    private var ssl: OpaquePointer?
    private var handshakeDone = false
    private var sentCloseNotify = false
    private var finished = false
    /// True (a data connection through a proxy): `finishWriting()` sends close_notify but keeps
    /// the socket open for writing until the server closed its side, or 2 s passed. Proxies
    /// close both directions at a half-close, so the server's own close_notify would meet a
    /// closed connection; OpenSSL then drops the TLS session from the server's cache, and every
    /// later data connection is refused for not resuming it (vsftpd: `522 ... session reuse
    /// required`).
    var keepsSocketOpenAtFinish = false

    /// The numeric address of the peer.
    public var peerHost: String { socket.peerHost }
    /// The no-progress timeout in seconds.
    public var timeout: Double {
        get { socket.timeout }
        set { socket.timeout = newValue }
    }

    /// Runs the TLS handshake on `socket` (which this transport then owns).
    /// - Parameters:
    ///   - context: the session's TLS context (CA store, versions, host name).
    ///   - resuming: the control connection's session, for data connections; nil for the
    ///     control connection itself (then SNI is sent and the host name is set for the check).
    ///   - ignoreMissingCloseNotify: treat a TCP close without close_notify as end of data (for
    ///     data connections: the FTP reply and the size tell whether a transfer is complete).
    /// - Throws: `FTPError.tlsFailed` with OpenSSL's reason, `.timedOut` when the handshake stalls.
    init(
        socket: SocketTransport, context: TLSContext, resuming: OpaquePointer?, ignoreMissingCloseNotify: Bool
    ) throws(FTPError) {
        self.socket = socket
        self.context = context
        guard let ssl = SSL_new(context.context) else {
            socket.close()
            throw .tlsFailed("cannot create a TLS connection: \(TLSContext.errorQueueText())")
        }
        self.ssl = ssl
        if ignoreMissingCloseNotify { _ = SSL_set_options(ssl, ftpsync_SSL_OP_IGNORE_UNEXPECTED_EOF) }
        _ = SSL_set_fd(ssl, socket.fileDescriptor)
        if !context.hostIsAddress { _ = ftpsync_SSL_set_tlsext_host_name(ssl, context.host) }
        if context.check == .system {
            let parameters = SSL_get0_param(ssl)
            if context.hostIsAddress {
                _ = X509_VERIFY_PARAM_set1_ip_asc(parameters, context.host)
            } else {
                _ = X509_VERIFY_PARAM_set1_host(parameters, context.host, 0)
            }
        }
        if let resuming { _ = SSL_set_session(ssl, resuming) }
        do throws(TransportError) {
            try drive { SSL_connect(ssl) }
        } catch {
            close()
            switch error {
            case .timedOut: throw .timedOut(during: "TLS handshake")
            case .closedByPeer: throw .tlsFailed("TLS handshake: the server closed the connection")
            case .failed(let reason): throw .tlsFailed("TLS handshake: \(reason)")
            }
        }
        handshakeDone = true
    }

    deinit { close() }

    /// Runs one OpenSSL call until it succeeds, waiting for the socket as OpenSSL asks.
    /// - Returns: the call's positive result, or 0 at a clean end of data (close_notify, or
    ///   a TCP close when unexpected EOF is tolerated).
    @discardableResult
    private func drive(_ call: () -> Int32) throws(TransportError) -> Int32 {
        guard let ssl else { throw .failed("connection closed") }
        while true {
            ERR_clear_error()
            let result = call()
            if result > 0 { return result }
            let code = SSL_get_error(ssl, result)
            switch code {
            case SSL_ERROR_WANT_READ: try socket.waitUntilReady(forWriting: false)
            case SSL_ERROR_WANT_WRITE: try socket.waitUntilReady(forWriting: true)
            case SSL_ERROR_ZERO_RETURN: return 0
            case SSL_ERROR_SYSCALL:
                let number = errno
                let queued = TLSContext.errorQueueText()
                if number == ECONNRESET || number == EPIPE { throw .closedByPeer }
                if number == 0 || number == EAGAIN {
                    if queued == "unknown error" { throw .closedByPeer }
                    throw .failed(queued)
                }
                throw .failed(SocketTransport.errorText(number))
            default:
                throw .failed(Self.describe(ssl: ssl, queue: TLSContext.errorQueueText()))
            }
        }
    }

    private static func describe(ssl: OpaquePointer, queue: String) -> String {
        queue == "unknown error" ? "TLS error" : queue
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> Int {
        guard let ssl, let base = buffer.baseAddress, buffer.count > 0 else {
            throw .failed("connection closed")
        }
        let want = Int32(clamping: buffer.count)
        var total = Int(try drive { SSL_read(ssl, base, want) })
        // A record holds at most 16 KiB: take what else is already here without waiting, so
        // the caller gets big chunks (fewer disk writes). Errors surface on the next call.
        while total > 0, total < buffer.count {
            ERR_clear_error()
            let more = SSL_read(ssl, base + total, Int32(clamping: buffer.count - total))
            if more <= 0 { break }
            total += Int(more)
        }
        return total
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        guard let ssl else { throw .failed("connection closed") }
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let want = Int32(clamping: bytes.count - offset)
            let written = try drive { SSL_write(ssl, base + offset, want) }
            if written == 0 { throw .closedByPeer }
            offset += Int(written)
        }
    }

    /// Sends close_notify (RFC 8446 §6.1) and half-closes the socket.
    public func finishWriting() {
        sendCloseNotify()
        if !keepsSocketOpenAtFinish { socket.finishWriting() }
        finished = true
    }

    /// Closes the connection; after `finishWriting()` first reads until the server closes
    /// too (draining TLS 1.3 session tickets), at most the timeout. Idempotent.
    public func close() {
        guard let ssl else { return }
        if finished {
            // The server answers close_notify with its own and closes; one that waits for the
            // TCP end instead gets it after 2 s.
            if keepsSocketOpenAtFinish && !socket.waitUntilReadable(seconds: 2) { socket.finishWriting() }
            var scratch = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = scratch.withUnsafeMutableBytes { buffer -> Int in
                    (try? read(into: buffer)) ?? 0
                }
                if count == 0 { break }
            }
        } else {
            sendCloseNotify()
        }
        SSL_free(ssl)
        self.ssl = nil
        socket.close()
    }

    private func sendCloseNotify() {
        guard let ssl, handshakeDone, !sentCloseNotify else { return }
        sentCloseNotify = true
        ERR_clear_error()
        if SSL_shutdown(ssl) < 0 {
            let code = SSL_get_error(ssl, -1)
            if code == SSL_ERROR_WANT_WRITE {
                try? socket.waitUntilReady(forWriting: true)
                _ = SSL_shutdown(ssl)
            }
            ERR_clear_error()
        }
    }

    // MARK: - What was negotiated

    /// The negotiated protocol version, e.g. `TLSv1.3`.
    public var version: String {
        guard let ssl, let name = SSL_get_version(ssl) else { return "" }
        return String(cString: name)
    }

    /// The negotiated cipher suite, e.g. `TLS_AES_256_GCM_SHA384`.
    public var cipher: String {
        guard let ssl, let name = SSL_CIPHER_get_name(SSL_get_current_cipher(ssl)) else { return "" }
        return String(cString: name)
    }

    /// True when this connection resumed the session it was given.
    public var sessionReused: Bool {
        guard let ssl else { return false }
        return SSL_session_reused(ssl) == 1
    }

    /// The current session (new reference, to be freed with SSL_SESSION_free), for resuming.
    func copySession() -> OpaquePointer? {
        guard let ssl else { return nil }
        return SSL_get1_session(ssl)
    }

    /// The server's leaf certificate: its SHA-256 digest and subject; nil without one.
    func peerCertificate() -> (digest: [UInt8], subject: String)? {
        guard let ssl, let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(certificate) }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 else { return nil }
        var subject = ""
        if let name = X509_get_subject_name(certificate), let line = X509_NAME_oneline(name, nil, 0) {
            subject = String(cString: line)
            CRYPTO_free(line, #file, #line)
        }
        return (Array(digest.prefix(Int(length))), subject)
    }

    /// OpenSSL's verdict on the chain and host name (X509_V_OK = 0) and its text.
    func verifyResult() -> (code: Int, text: String) {
        guard let ssl else { return (-1, "no connection") }
        let code = SSL_get_verify_result(ssl)
        return (code, String(cString: X509_verify_cert_error_string(code)))
    }
}
