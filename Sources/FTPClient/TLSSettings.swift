// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// How the control and data connections are protected (RFC 4217).
public enum FTPTLSMode: String, Sendable, Equatable {
    /// Plain FTP: nothing is encrypted.
    case none
    /// Plain connect, then `AUTH TLS` before USER (RFC 4217 §4), then `PBSZ 0` and `PROT P`
    /// after login so data connections are encrypted too (RFC 4217 §8-9).
    case explicit
    /// TLS from the first byte of the control connection (usually port 990), then `PBSZ 0`
    /// and `PROT P` after login.
    case implicit
}

/// How the server's certificate is checked before anything else is sent on the control
/// connection.
public enum CertificateCheck: Sendable, Equatable {
    /// Verified against the system's CA store, with the host name (or IP address) checked
    /// against the certificate; the default.
    case system
    /// The leaf certificate's SHA-256 digest must equal this one: 64 hex digits, colons and a
    /// `sha256:` prefix allowed, any case. The CA store is not consulted (self-signed devices).
    case pinned(sha256: String)
    /// No check at all: TLS still encrypts, but anyone on the path can read along. Callers
    /// must warn the user on every run.
    case insecure
}

/// Highest TLS version offered.
public enum TLSVersionLimit: String, Sendable, Equatable {
    /// TLS 1.3 when the server has it, else TLS 1.2.
    case tls13
    /// TLS 1.2 at most (for servers whose TLS 1.3 data connections misbehave).
    case tls12
}

/// What a protected control connection negotiated, for `check` and logs.
public struct TLSDetails: Sendable, Equatable {
    /// Protocol version as OpenSSL names it: `TLSv1.3`, `TLSv1.2`.
    public var version: String
    /// Cipher suite, e.g. `TLS_AES_256_GCM_SHA384`.
    public var cipher: String
    /// SHA-256 of the server's leaf certificate, `sha256:AB:CD:...` (upper-case hex, colons).
    public var fingerprint: String
    /// The certificate's subject, one line (`CN=...`), empty when there is none.
    public var subject: String
    /// How the certificate was accepted: `system CA store`, `pinned fingerprint`, or
    /// `NOT VERIFIED (insecure: true)`.
    public var verification: String

    /// Creates the details of one handshake.
    public init(version: String, cipher: String, fingerprint: String, subject: String, verification: String) {
        self.version = version
        self.cipher = cipher
        self.fingerprint = fingerprint
        self.subject = subject
        self.verification = verification
    }
}

/// Fingerprint text helpers.
public enum Fingerprint {
    /// `sha256:AB:CD:...` for a digest.
    public static func format(_ digest: [UInt8]) -> String {
        let hex = "0123456789ABCDEF".map { $0 }
        return "sha256:" + digest.map { String([hex[Int($0 >> 4)], hex[Int($0 & 15)]]) }.joined(separator: ":")
    }

    /// The 64 lower-case hex digits of a fingerprint written as `sha256:AB:CD...`, `abcd...`
    /// or with colons; nil unless exactly 32 bytes of hex remain.
    public static func normalize(_ text: String) -> String? {
        var rest = Substring(text.trimmingSpaces())
        if rest.lowercased().hasPrefix("sha256:") { rest = rest.dropFirst(7) }
        let hex = rest.filter { $0 != ":" }.lowercased()
        guard hex.count == 64, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        return hex
    }
}
