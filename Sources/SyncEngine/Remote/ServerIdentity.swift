// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation

/// What a server shows of itself before any file is touched: its greeting (220 banner), its
/// SYST reply (RFC 959 §4.1.3), its FEAT lines (RFC 2389) and, with TLS, its certificate's
/// SHA-256 fingerprint. Recorded per device in the state; a device that answers with another
/// identity than at the last sync is probably another device at the same address (a phone
/// hotspot, cameras that all answer at 192.168.1.1).
///
/// Digits in the banner are not compared (each run of digits reads `#`): servers put the
/// time, the connection count or a session number there.
public struct ServerIdentity: Sendable, Equatable {
    /// The greeting's text, lines joined by ` / `, digit runs as `#`.
    public var banner: String
    /// The SYST reply as `CODE TEXT` (a refusal is part of the identity too).
    public var system: String
    /// The FEAT lines, sorted, joined by ` | ` (MLST facts hold `;`).
    public var features: String
    /// The TLS certificate's fingerprint (`sha256:AB:...`), nil without TLS.
    public var certificate: String?

    /// Makes an identity from its parts.
    public init(banner: String, system: String, features: String, certificate: String?) {
        self.banner = banner
        self.system = system
        self.features = features
        self.certificate = certificate
    }

    /// Reads the identity of a logged-in session; sends SYST (one round trip).
    /// - Throws: `FTPError` when the connection fails during SYST.
    public init(session: FTPSession) throws(FTPError) {
        let greeting = session.banner?.textLines.filter { !$0.isEmpty }.joined(separator: " / ") ?? ""
        banner = Self.maskingDigits(greeting)
        let syst = try session.raw("SYST")
        system = "\(syst.code) \(session.scrubber.scrub(syst.text))"
        features = session.features.lines.sorted().joined(separator: Self.featureSeparator)
        certificate = session.tlsDetails?.fingerprint
    }

    /// The text kept in the state: one `key: value` line per part.
    public var stored: String {
        var lines = ["banner: \(banner)", "syst: \(system)", "feat: \(features)"]
        if let certificate { lines.append("cert: \(certificate)") }
        return lines.joined(separator: "\n")
    }

    /// Reads `stored`; nil for text in another form (then the identity counts as unknown).
    public init?(stored: String) {
        var parts: [String: String] = [:]
        for line in stored.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...]
            parts[String(line[..<colon])] = String(value.hasPrefix(" ") ? value.dropFirst() : value)
        }
        guard let banner = parts["banner"], let system = parts["syst"], let features = parts["feat"] else {
            return nil
        }
        self.init(banner: banner, system: system, features: features, certificate: parts["cert"])
    }

    /// What differs from `earlier`, one phrase per part, e.g. `banner "A" → "B"`; empty when equal.
    public func changes(from earlier: ServerIdentity) -> [String] {
        var result: [String] = []
        if banner != earlier.banner { result.append("banner \"\(earlier.banner)\" → \"\(banner)\"") }
        if system != earlier.system { result.append("SYST \"\(earlier.system)\" → \"\(system)\"") }
        if features != earlier.features {
            let before = Set(earlier.features.components(separatedBy: Self.featureSeparator))
            let after = Set(features.components(separatedBy: Self.featureSeparator))
            var phrase = "FEAT"
            let lost = before.subtracting(after).sorted()
            let gained = after.subtracting(before).sorted()
            if !lost.isEmpty { phrase += " lost \(lost.joined(separator: ", "))" }
            if !gained.isEmpty { phrase += (lost.isEmpty ? "" : ",") + " gained \(gained.joined(separator: ", "))" }
            result.append(phrase)
        }
        if certificate != earlier.certificate {
            result.append("certificate \(earlier.certificate ?? "none") → \(certificate ?? "none")")
        }
        return result
    }

    /// The changes from `earlier` that show another server rather than the same one updated:
    /// another certificate, another SYST reply, or another FEAT family (two or more recorded
    /// feature names gone, or one gone and others new: three or more differences; a FEAT missing
    /// on either side proves nothing). A banner's text (version strings) and features gained
    /// are what firmware updates change.
    public func decisiveChanges(from earlier: ServerIdentity) -> [String] {
        var result: [String] = []
        if system != earlier.system { result.append("SYST \"\(earlier.system)\" → \"\(system)\"") }
        let before = Self.featureNames(earlier.features)
        let after = Self.featureNames(features)
        let lost = before.subtracting(after).count
        let gained = after.subtracting(before).count
        if !before.isEmpty, !after.isEmpty, lost >= 2 || (lost >= 1 && lost + gained >= 3) {
            result.append(
                "FEAT \(before.sorted().joined(separator: " ")) → \(after.sorted().joined(separator: " "))")
        }
        if certificate != earlier.certificate {
            result.append("certificate \(earlier.certificate ?? "none") → \(certificate ?? "none")")
        }
        return result
    }

    /// The feature names (first word, uppercased) of a `features` text.
    private static func featureNames(_ features: String) -> Set<String> {
        Set(
            features.components(separatedBy: featureSeparator).compactMap {
                $0.split(separator: " ").first.map { $0.uppercased() }
            })
    }

    private static let featureSeparator = " | "

    private static func maskingDigits(_ text: String) -> String {
        var result = ""
        var inDigits = false
        for character in text {
            if character.isASCII && character.isNumber {
                if !inDigits { result.append("#") }
                inDigits = true
            } else {
                result.append(character)
                inDigits = false
            }
        }
        return result
    }
}
