// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// What a server announced in its FEAT reply (RFC 2389 §3).
public struct FTPFeatures: Sendable, Equatable {
    /// Feature names (uppercased) to their parameters, one element per announcing line
    /// (a name may be announced twice with different parameters); `""` when none.
    public var entries: [String: [String]]
    /// The feature lines as announced, trimmed, in order: for a server's identity fingerprint.
    public var lines: [String]

    /// No features known (FEAT refused or not sent).
    public init() {
        self.entries = [:]
        self.lines = []
    }

    /// Reads a 211 reply to FEAT: the first and last lines are headers; each line between
    /// is a feature, with a leading space (RFC 2389) or a `211-` prefix (RFC 2228 style
    /// servers). Blank lines are skipped.
    public init(reply: FTPReply) {
        self.init()
        let text = reply.textLines
        guard reply.code == 211, text.count > 2 else { return }
        for raw in text[1..<(text.count - 1)] {
            let line = raw.trimmingSpaces()
            guard !line.isEmpty else { continue }
            lines.append(line)
            let name: String
            let parameters: String
            if let space = line.firstIndex(of: " ") {
                name = line[..<space].uppercased()
                parameters = String(line[line.index(after: space)...]).trimmingSpaces()
            } else {
                name = line.uppercased()
                parameters = ""
            }
            entries[name, default: []].append(parameters)
        }
    }

    /// True when the feature `name` (case-insensitive) was announced.
    public func has(_ name: String) -> Bool { entries[name.uppercased()] != nil }

    /// True when `name` was announced with `parameter` (case-insensitive), e.g. `REST STREAM`.
    public func has(_ name: String, parameter: String) -> Bool {
        entries[name.uppercased()]?.contains { $0.uppercased() == parameter.uppercased() } ?? false
    }

    /// MLST/MLSD are offered (RFC 3659 §7).
    public var mlsd: Bool { has("MLST") }
    /// The MLST facts the server knows, without the `*` that marks default facts; names as sent.
    public var mlstFacts: [String] {
        (entries["MLST"]?.first ?? "").split(separator: ";").map {
            $0.hasSuffix("*") ? String($0.dropLast()) : String($0)
        }.filter { !$0.isEmpty }
    }
    /// EPSV (RFC 2428).
    public var epsv: Bool { has("EPSV") }
    /// UTF8 (RFC 2640).
    public var utf8: Bool { has("UTF8") }
    /// MFMT (set modification time; draft-somers-ftp-mfxx).
    public var mfmt: Bool { has("MFMT") }
    /// REST STREAM (RFC 3659 §5): restarted transfers.
    public var restStream: Bool { has("REST", parameter: "STREAM") }
    /// SIZE (RFC 3659 §4).
    public var size: Bool { has("SIZE") }
    /// MDTM (RFC 3659 §3).
    public var mdtm: Bool { has("MDTM") }
    /// HASH (draft-bryan-ftpext-hash).
    public var hash: Bool { has("HASH") }
    /// AUTH TLS (RFC 4217).
    public var authTLS: Bool { has("AUTH", parameter: "TLS") }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
