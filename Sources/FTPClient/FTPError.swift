// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// An error of the FTP protocol layer: a connection that failed, a reply that refused a
/// command, or a server that broke the protocol.
///
/// `description` is one line a user can act on: the cause and, where one exists, the fix.
/// Commands quoted in errors never contain a password (`PASS ****`).
public enum FTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The TCP connection to `host`:`port` could not be made (refused, unreachable, no such
    /// host name, or no answer within the timeout). `reason` is the system's message.
    case connectFailed(host: String, port: Int, reason: String)
    /// Nothing moved for `timeout` seconds while doing `during` (a command, a reply, a transfer).
    case timedOut(during: String)
    /// The server answered `command` with a reply that refuses it (4xx or 5xx, or an
    /// unexpected code). `command` is the command line as sent, with the password masked.
    case reply(code: Int, text: String, command: String)
    /// The server sent something that is not FTP: a malformed reply line, an over-long
    /// line, a 227/229 reply without a usable address.
    case protocolViolation(String)
    /// A reply arrived that answers an earlier command (a server that sent one reply too many):
    /// the control connection is out of step and was closed; `what` names the reply and the
    /// command it came after. Worth retrying on a fresh control connection.
    case outOfStep(String)
    /// A data connection ended before the transfer completed: reset by the server, or the
    /// server's final reply was 426/451. `bytesTransferred` bytes had been received (or
    /// sent, for an upload) on it; `reason` says what happened.
    case dataConnectionClosed(bytesTransferred: UInt64, reason: String)
    /// The control connection is closed: the server hung up, or an earlier error closed it.
    case connectionClosed
    /// A path given by the caller cannot be sent: it contains CR, LF or NUL, or it cannot be
    /// converted to the device's file-name encoding.
    case invalidName(name: String, reason: String)
    /// `tls` is set but the server refused `AUTH TLS` (RFC 4217 §4) with `code` `text`. Nothing
    /// else was sent: the credentials never went out in clear.
    case tlsRefused(code: Int, text: String)
    /// The TLS layer failed: a handshake (control or data connection), or an error inside
    /// an established TLS connection. `reason` is OpenSSL's (or the server's) message.
    case tlsFailed(String)
    /// The server's certificate could not be verified against the system's CA store or does
    /// not name the host (`reason`); `presented` is its SHA-256 fingerprint, `sha256:AB:CD:...`.
    /// Nothing was sent after the handshake (no USER).
    case certificateUntrusted(reason: String, presented: String)
    /// The server's certificate is not the pinned one: `pinned` is the configured fingerprint,
    /// `presented` the server's, both `sha256:AB:CD:...`. Nothing was sent after the handshake.
    case fingerprintMismatch(pinned: String, presented: String)
    /// The proxy step of a control or data connection failed (`FTPSessionConfiguration.proxy`):
    /// the proxy could not be reached, refused the credentials or the connection, or could not
    /// reach the device. `ProxyFailure.kind` says which.
    case proxyFailed(ProxyFailure)

    /// One line for the user: the cause and, where one exists, what to do.
    public var description: String {
        switch self {
        case .connectFailed(let host, let port, let reason):
            return
                "cannot connect to \(Self.hostPort(host, port)): \(reason); check host, port and that the server runs"
        case .timedOut(let during):
            return "timed out during \(during): the server stopped answering; check the network or raise `timeout`"
        case .reply(let code, let text, let command):
            return "\(code) \(text) (after \(command))\(Self.hint(code: code, text: text, command: command))"
        case .protocolViolation(let what):
            return "server broke the FTP protocol: \(what)"
        case .outOfStep(let what):
            return "the server's replies got out of step (\(what)); the control connection was reset"
        case .dataConnectionClosed(let bytes, let reason):
            return "data connection closed after \(bytes) bytes: \(reason); the transfer can be resumed"
        case .connectionClosed:
            return "the server closed the control connection; reconnect and retry"
        case .invalidName(let name, let reason):
            return "cannot send name \"\(name)\": \(reason)"
        case .tlsRefused(let code, let text):
            return "the server refused AUTH TLS (\(code) \(text)); credentials were not sent. "
                + "Check that the server offers explicit FTPS, or use `tls: implicit` (port 990)"
        case .tlsFailed(let reason):
            return "TLS failed: \(reason)"
        case .certificateUntrusted(let reason, let presented):
            return "the server's certificate is not trusted (\(reason)); it presented \(presented). "
                + "If this is your device's own certificate, pin it with `fingerprint: \"\(presented)\"`; "
                + "nothing was sent to the server"
        case .fingerprintMismatch(let pinned, let presented):
            return "the server's certificate \(presented) does not match the pinned fingerprint \(pinned); "
                + "nothing was sent to the server. If the device's certificate really changed, pin the new one"
        case .proxyFailed(let failure):
            return failure.description
        }
    }

    /// True for errors worth retrying later (RFC 959 §4.2: 4xx replies are transient; lost
    /// or timed-out connections may recover). 5xx replies and invalid names are permanent.
    public var isTransient: Bool {
        switch self {
        case .reply(let code, _, _): return (400..<500).contains(code)
        case .connectFailed, .timedOut, .dataConnectionClosed, .connectionClosed, .outOfStep: return true
        case .tlsFailed: return true
        case .proxyFailed(let failure): return failure.isTransient
        case .protocolViolation, .invalidName, .tlsRefused, .certificateUntrusted, .fingerprintMismatch:
            return false
        }
    }

    /// `host:port`, with brackets around an IPv6 literal.
    static func hostPort(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// True for a server saying it takes no more connections: 421 (RFC 959 §4.2), or a login
    /// refused with 530 whose text speaks of too many connections or users (vsftpd, pure-ftpd
    /// and many NAS answer a full server that way). Not a wrong password: retry later.
    public var isConnectionLimit: Bool {
        guard case .reply(let code, let text, _) = self else { return false }
        return code == 421 || (code == 530 && Self.speaksOfLimit(text))
    }

    /// True when a reply's text says the server is full ("too many connections", "maximum
    /// number of users", "connection limit", ...).
    static func speaksOfLimit(_ text: String) -> Bool {
        let lower = text.lowercased()
        let words = ["too many", "maximum number", "max number", "connection limit", "limit reached", "max clients"]
        return words.contains { lower.contains($0) }
    }

    private static func hint(code: Int, text: String, command: String) -> String {
        let verb = command.split(separator: " ").first.map { $0.uppercased() } ?? ""
        let limit =
            "its connection limit is reached; lower `connections` for this device, close other clients, or retry later"
        if code == 530 && speaksOfLimit(text) {
            return ": the server takes no more connections (not a wrong password): " + limit
        }
        if code == 421 && (speaksOfLimit(text) || verb == "CONNECT" || verb == "USER" || verb == "PASS") {
            return ": the server takes no more connections: " + limit
        }
        switch (code, verb) {
        case (530, "USER"), (530, "PASS"), (332, _): return ": check user and password"
        case (421, _): return ": the server refused service (too many connections?); retry later"
        case (425, _): return ": the data connection could not be opened; check passive_address or a firewall"
        case (550, _): return ": no such file or folder, or no permission"
        case (552, _), (452, _): return ": the server has no room"
        default: return ""
        }
    }
}
