/// The JSON document of `check --json`.
struct CheckDocument: Encodable {
    var command = "check"
    var devices: [CheckReport]
}

/// What `check` found out about one device's server.
struct CheckFeatures: Encodable, Equatable {
    var mlsd, epsv, utf8, mfmt, restStream, hash, authTLS: Bool
}

/// One device's result of `check`.
struct CheckReport: Encodable {
    var name: String
    var host: String
    var port: Int
    var tls: String
    var ok = false
    var error: String?
    var banner: String?
    /// The SYST reply's text (e.g. `UNIX Type: L8`), nil when refused.
    var system: String?
    /// Seconds from connect to logged in (TLS handshake included).
    var loginSeconds: Double?
    /// Milliseconds for one NOOP and its reply.
    var roundTripMilliseconds: Double?
    var features: CheckFeatures?
    /// The address in the PASV (227) reply, and whether it differs from the server's address.
    var passiveAddress: String?
    var passiveAddressDiffers: Bool?
    var tlsVersion: String?
    var tlsCipher: String?
    var certificateFingerprint: String?
    var certificateSubject: String?
    var certificateVerification: String?

    /// The text report: one header line, then indented facts.
    var text: String {
        guard ok else { return "\(name): FAILED — \(printable(error ?? "unknown error"))" }
        var lines = ["\(name): ok (\(host):\(port), tls: \(tls))"]
        if let banner { lines.append("  banner:        \(printable(banner))") }
        if let system { lines.append("  system:        \(printable(system))") }
        if let features {
            let named: [(String, Bool)] = [
                ("MLSD", features.mlsd), ("EPSV", features.epsv), ("UTF8", features.utf8), ("MFMT", features.mfmt),
                ("REST STREAM", features.restStream), ("HASH", features.hash), ("AUTH TLS", features.authTLS),
            ]
            lines.append("  features:      " + named.map { "\($0.0) \($0.1 ? "yes" : "no")" }.joined(separator: ", "))
        }
        if let loginSeconds { lines.append("  login:         \(loginSeconds) s") }
        if let roundTripMilliseconds { lines.append("  round trip:    \(roundTripMilliseconds) ms") }
        if let passiveAddress, let passiveAddressDiffers {
            lines.append(
                "  PASV address:  \(passiveAddress)"
                    + (passiveAddressDiffers
                        ? " DIFFERS from the server's address (NAT?): keep `passive_address: peer`"
                        : " (same as the server)"))
        }
        if let tlsVersion {
            lines.append("  TLS:           \(tlsVersion), \(tlsCipher ?? "")")
            lines.append("  certificate:   \(certificateFingerprint ?? "") \(certificateSubject ?? "")")
            lines.append("  verified by:   \(certificateVerification ?? "")")
        }
        return lines.joined(separator: "\n")
    }
}
