// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import COpenSSL

/// One OpenSSL client context per FTP session: the CA store, the protocol versions, and
/// the control connection's TLS session, which every data connection resumes (RFC 4217
/// §10.2; vsftpd `require_ssl_reuse=YES` and FileZilla Server refuse data connections that
/// do not).
final class TLSContext {
    let context: OpaquePointer
    /// Host name or address the certificate must name (also sent as SNI when a name).
    let host: String
    let check: CertificateCheck
    /// The newest session the server gave on any connection of this context (a TLS 1.3
    /// ticket is used up by one resumption on servers with a stateful cache, such as
    /// vsftpd, so each data connection takes the newest). Owned reference, or nil.
    private(set) var newestSession: OpaquePointer?

    /// - Throws: `FTPError.tlsFailed` when OpenSSL cannot make a context.
    init(host: String, check: CertificateCheck, limit: TLSVersionLimit) throws(FTPError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .tlsFailed("cannot create a TLS context: \(TLSContext.errorQueueText())")
        }
        self.context = context
        self.host = host
        self.check = check
        _ = ftpsync_SSL_CTX_set_min_proto_version(context, ftpsync_TLS1_2_VERSION)
        if limit == .tls12 { _ = ftpsync_SSL_CTX_set_max_proto_version(context, ftpsync_TLS1_2_VERSION) }
        _ = ftpsync_SSL_CTX_set_options(context, ftpsync_SSL_OP_NO_COMPRESSION)
        _ = ftpsync_SSL_CTX_set_mode(
            context, ftpsync_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | ftpsync_SSL_MODE_ENABLE_PARTIAL_WRITE)
        _ = ftpsync_SSL_CTX_set_session_cache_mode(context, ftpsync_SSL_SESS_CACHE_CLIENT)
        // The verdict is read after the handshake (SSL_get_verify_result), so that a refusal
        // can show the fingerprint the server presented.
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        if check == .system { _ = SSL_CTX_set_default_verify_paths(context) }
        _ = SSL_CTX_set_ex_data(context, 0, Unmanaged.passUnretained(self).toOpaque())
        SSL_CTX_sess_set_new_cb(context) { ssl, session in
            guard let ssl, let session, let owner = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), 0) else { return 0 }
            Unmanaged<TLSContext>.fromOpaque(owner).takeUnretainedValue().remember(session)
            return 1  // the reference is kept
        }
    }

    deinit {
        if let newestSession { SSL_SESSION_free(newestSession) }
        SSL_CTX_free(context)
    }

    private func remember(_ session: OpaquePointer) {
        if let newestSession { SSL_SESSION_free(newestSession) }
        newestSession = session
    }

    /// A new reference to the newest session (free it with SSL_SESSION_free), or nil.
    func copyNewestSession() -> OpaquePointer? {
        guard let newestSession, SSL_SESSION_up_ref(newestSession) == 1 else { return nil }
        return newestSession
    }

    /// True when `host` is an IPv4 or IPv6 literal (no SNI, IP address check).
    var hostIsAddress: Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    /// OpenSSL's queued errors as one line (and clears the queue); "unknown error" when empty.
    static func errorQueueText() -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            let line = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // "error:0A000086:SSL routines::certificate verify failed" -> the reason part
            parts.append(line.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? line)
        }
        return parts.isEmpty ? "unknown error" : parts.joined(separator: "; ")
    }
}
