// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Masks known secrets (the device's password; later proxy credentials) in text a server sent,
/// before it is shown or stored: a server that echoes `PASS secret` in a reply must not put the
/// password into a report, a log, a JSON document or the state.
///
/// A secret of at least `anywhereLength` characters is masked wherever it occurs. A shorter one
/// (`x`, `42`) only where it stands alone — not inside a word or a number — so that a short
/// password does not turn every reply into asterisks, yet `'PASS 42' refused` loses it.
public struct SecretScrubber: Sendable, Equatable {
    /// What a secret is replaced with.
    public static let mask = "****"
    /// Secrets this long or longer (in Unicode scalars) are masked wherever they occur.
    public static let anywhereLength = 4

    /// The secrets, longest first (so a secret inside another is not masked half), no empty one.
    public let secrets: [String]

    /// A scrubber for `secrets` (empty strings and duplicates are dropped, and those shorter
    /// than `shortest` scalars: a filter over all output, names included, passes
    /// `anywhereLength` so that a password `x` does not mask the name `/etc/x`; the session,
    /// which scrubs only what the server replies, keeps every secret).
    public init(_ secrets: [String], shortest: Int = 1) {
        let distinct = Set(secrets.filter { $0.unicodeScalars.count >= max(1, shortest) })
        self.secrets = distinct.sorted {
            let (a, b) = ($0.unicodeScalars.count, $1.unicodeScalars.count)
            return a != b ? a > b : $0 < $1
        }
    }

    /// True when there is nothing to mask.
    public var isEmpty: Bool { secrets.isEmpty }

    /// `text` with every occurrence of a secret (by the rules above) replaced by `mask`.
    public func scrub(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var scalars = Array(text.unicodeScalars)
        var changed = false
        for secret in secrets {
            let pattern = Array(secret.unicodeScalars)
            guard scalars.count >= pattern.count else { continue }
            if let replaced = Self.replacing(pattern, in: scalars) {
                scalars = replaced
                changed = true
            }
        }
        guard changed else { return text }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// A reply with `scrub` applied to each of its lines.
    public func scrub(_ reply: FTPReply) -> FTPReply {
        guard !secrets.isEmpty else { return reply }
        return FTPReply(code: reply.code, lines: reply.lines.map(scrub))
    }

    /// `text` with `pattern` masked, or nil when it does not occur.
    private static func replacing(_ pattern: [Unicode.Scalar], in text: [Unicode.Scalar]) -> [Unicode.Scalar]? {
        let alone = pattern.count < anywhereLength
        var out: [Unicode.Scalar] = []
        var found = false
        var index = 0
        while index < text.count {
            let end = index + pattern.count
            if end <= text.count, text[index] == pattern[0], text[index..<end].elementsEqual(pattern),
                !alone || (!isWordScalar(text, index - 1) && !isWordScalar(text, end))
            {
                out.append(contentsOf: mask.unicodeScalars)
                index = end
                found = true
            } else {
                out.append(text[index])
                index += 1
            }
        }
        return found ? out : nil
    }

    /// True when `text[index]` exists and is a letter or a digit.
    private static func isWordScalar(_ text: [Unicode.Scalar], _ index: Int) -> Bool {
        guard index >= 0, index < text.count else { return false }
        let properties = text[index].properties
        return properties.isAlphabetic || properties.numericType != nil
    }
}

extension FTPError {
    /// The same error with `scrubber`'s secrets masked in every text it carries (reply texts,
    /// reasons, names): what a server echoed never reaches a report, a log or the state.
    public func scrubbed(by scrubber: SecretScrubber) -> FTPError {
        guard !scrubber.isEmpty else { return self }
        let s = { (text: String) -> String in scrubber.scrub(text) }
        switch self {
        case .connectFailed(let host, let port, let reason):
            return .connectFailed(host: host, port: port, reason: s(reason))
        case .timedOut(let during): return .timedOut(during: s(during))
        case .reply(let code, let text, let command): return .reply(code: code, text: s(text), command: s(command))
        case .protocolViolation(let what): return .protocolViolation(s(what))
        case .outOfStep(let what): return .outOfStep(s(what))
        case .dataConnectionClosed(let bytes, let reason):
            return .dataConnectionClosed(bytesTransferred: bytes, reason: s(reason))
        case .connectionClosed: return self
        case .invalidName(let name, let reason): return .invalidName(name: s(name), reason: s(reason))
        case .tlsRefused(let code, let text): return .tlsRefused(code: code, text: s(text))
        case .tlsFailed(let reason): return .tlsFailed(s(reason))
        case .certificateUntrusted(let reason, let presented):
            return .certificateUntrusted(reason: s(reason), presented: presented)
        case .fingerprintMismatch: return self
        case .proxyFailed(var failure):
            failure.detail = s(failure.detail)
            return .proxyFailed(failure)
        }
    }
}
