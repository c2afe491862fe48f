// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import SyncConfig
import SyncRunner

/// The one writer every line ftpsync shows or logs passes through (`Console`, `LogFile`): the
/// known secrets masked (`SecretScrubber`: every device's password, later proxy credentials),
/// then the `SafeText` rules (C0, DEL, C1 and undecodable bytes escaped), the same everywhere.
/// JSON documents get the same two steps in a form that keeps them valid JSON.
///
/// Secrets are added once a configuration is loaded; from then on they are masked in
/// everything written, also text that did not come from a server. This is the second guard:
/// the session already masked every secret in what the server replied (`FTPSession.scrubber`);
/// here secrets shorter than `SecretScrubber.anywhereLength` are left alone, since names and
/// numbers pass here too (a password `x` must not turn the name `/etc/x` into `/etc/****`).
final class OutputFilter: @unchecked Sendable {
    private let lock = NSLock()
    private var secrets: [String] = []
    private var scrubber = SecretScrubber([])
    /// The secrets as they look inside a JSON string (`"` and `\` escaped).
    private var jsonScrubber = SecretScrubber([])

    /// Adds `secrets` to those masked.
    func protect(_ secrets: [String]) {
        lock.lock()
        defer { lock.unlock() }
        self.secrets += secrets
        scrubber = SecretScrubber(self.secrets, shortest: SecretScrubber.anywhereLength)
        jsonScrubber = SecretScrubber(self.secrets.map(Self.insideJSONString), shortest: SecretScrubber.anywhereLength)
    }

    /// Adds the secrets of every device of `configuration`.
    func protect(_ configuration: Configuration) {
        protect(configuration.devices.flatMap { $0.sessionConfiguration.secrets })
    }

    /// Text of one or more lines, safe to show: secrets masked, line feeds kept, all else escaped.
    func text(_ text: String) -> String {
        SafeText.escapedLines(current().plain.scrub(text))
    }

    /// One line, safe to show: secrets masked, every control escaped (line feeds too).
    func line(_ text: String) -> String {
        SafeText.escaped(current().plain.scrub(text))
    }

    /// A JSON document, safe to show and still valid: secrets masked inside its strings only
    /// (a password `null` or `1234` must not break the document), then `SafeText.escapedJSON`.
    func json(_ document: String) -> String {
        let scrubber = current().json
        guard !scrubber.isEmpty else { return SafeText.escapedJSON(document) }
        var out = ""
        var literal = ""
        var inString = false
        var escaping = false
        for character in document.unicodeScalars {
            guard inString else {
                out.unicodeScalars.append(character)
                if character == "\"" { inString = true }
                continue
            }
            if escaping {
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "\"" {
                out += scrubber.scrub(literal) + "\""
                literal = ""
                inString = false
                continue
            }
            literal.unicodeScalars.append(character)
        }
        out += literal
        return SafeText.escapedJSON(out)
    }

    private func current() -> (plain: SecretScrubber, json: SecretScrubber) {
        lock.lock()
        defer { lock.unlock() }
        return (scrubber, jsonScrubber)
    }

    /// `secret` as `JSONEncoder` writes it inside a string, without the quotes.
    static func insideJSONString(_ secret: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(secret), let text = String(data: data, encoding: .utf8),
            text.count >= 2
        else { return secret }
        return String(text.dropFirst().dropLast())
    }
}
