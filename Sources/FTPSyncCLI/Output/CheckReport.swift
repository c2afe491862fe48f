// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// The JSON document of `check --json`.
struct CheckDocument: Encodable {
    var command = "check"
    var devices: [CheckReport]
}

/// What `check` found out about one device's server.
struct CheckFeatures: Encodable, Equatable {
    var mlsd, epsv, utf8, mfmt, restStream, hash, authTLS: Bool
}

/// How a device's server hashes files (issue 21), as `check` reports it: the command and
/// algorithm `pull`, `push` and `verify` use, and what else it offers.
struct CheckHash: Encodable, Equatable {
    /// `HASH`, or the older command used (`XSHA256`, `XSHA1`, `XMD5`, `XCRC`); nil when the
    /// server offers none.
    var command: String?
    /// The algorithm of the digests (`SHA-256`, `SHA-1`, `MD5`, `CRC32`); nil with no command.
    var algorithm: String?
    /// The algorithms `HASH` offers (FEAT), strongest first.
    var hashAlgorithms: [String]
    /// The older one-algorithm commands offered, strongest first.
    var legacyCommands: [String]
    /// True when FEAT named no hash command and `OPTS HASH` found `HASH`.
    var probed: Bool
    /// The device's `verify` setting: `auto`, `required` or `off`.
    var verify: String

    /// The text after `hash:` in the report, e.g. `HASH SHA-256 (also XSHA256, XSHA1, XMD5, XCRC)`.
    var text: String {
        guard let command, let algorithm else {
            switch verify {
            case "required": return "none (verify: required fails this device)"
            case "off": return "none in FEAT (verify: off: not probed)"
            default: return "none (verify: auto checks sizes only)"
            }
        }
        var text = command == "HASH" ? "HASH \(algorithm)" : "\(command) (\(algorithm))"
        let others = legacyCommands.filter { $0 != command }
        if !others.isEmpty { text += " (also \(others.joined(separator: ", ")))" }
        if probed { text += "; found by OPTS HASH, FEAT names none" }
        if verify == "off" { text += "; not used: verify: off" }
        return text
    }
}

/// The proxy hop of a device's control connection (issue 22), as `check` reports it.
struct CheckProxy: Encodable, Equatable {
    /// The proxy as a URL, its password masked (`socks5://alice:****@127.0.0.1:1080`).
    var url: String
    /// Where the proxy was asked to connect: the device's `host:port` (its address for `socks5`).
    var target: String?
    /// Milliseconds to open the TCP connection to the proxy (about one round trip to it); nil
    /// when the check failed before.
    var connectMilliseconds: Double?
    /// Milliseconds from then until the proxy had reached the device (its handshake, the
    /// credentials and its own connection to the device).
    var throughMilliseconds: Double?
    /// `ok` when a listing's data connection got through the proxy, else why not; nil when not
    /// tried (the check failed before).
    var dataConnections: String?

    /// The text after `proxy:` in the report.
    var text: String {
        guard let connectMilliseconds, let throughMilliseconds, let target else { return url }
        return "\(url): connected in \(connectMilliseconds) ms, reached \(target) through it in "
            + "\(throughMilliseconds) ms" + (dataConnections == "ok" ? "; data connections get through" : "")
    }
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
    /// How the server hashes files; nil when not found out (the check failed before).
    var hash: CheckHash?
    /// The address in the PASV (227) reply, and whether it differs from the server's address
    /// (nil: not known, through a proxy that resolves the device's name).
    var passiveAddress: String?
    var passiveAddressDiffers: Bool?
    /// The proxy hop; nil without a proxy.
    var proxy: CheckProxy?
    var tlsVersion: String?
    var tlsCipher: String?
    var certificateFingerprint: String?
    var certificateSubject: String?
    var certificateVerification: String?

    /// The text report: one header line, then indented facts.
    var text: String {
        guard ok else { return "\(name): FAILED — \(printable(error ?? "unknown error"))" }
        var lines = ["\(name): ok (\(host):\(port), tls: \(tls))"]
        if let proxy { lines.append("  proxy:         \(printable(proxy.text))") }
        if let banner { lines.append("  banner:        \(printable(banner))") }
        if let system { lines.append("  system:        \(printable(system))") }
        if let features {
            let named: [(String, Bool)] = [
                ("MLSD", features.mlsd), ("EPSV", features.epsv), ("UTF8", features.utf8), ("MFMT", features.mfmt),
                ("REST STREAM", features.restStream), ("HASH", features.hash), ("AUTH TLS", features.authTLS),
            ]
            lines.append("  features:      " + named.map { "\($0.0) \($0.1 ? "yes" : "no")" }.joined(separator: ", "))
        }
        if let hash { lines.append("  hash:          \(hash.text)") }
        if let loginSeconds { lines.append("  login:         \(loginSeconds) s") }
        if let roundTripMilliseconds {
            lines.append("  round trip:    \(roundTripMilliseconds) ms" + (proxy == nil ? "" : " (through the proxy)"))
        }
        if let passiveAddress, passiveAddressDiffers == nil {
            lines.append("  PASV address:  \(passiveAddress) (not compared: the proxy resolves the device's name)")
        }
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
